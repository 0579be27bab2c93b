// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "molstep/fullerene/cuda/hueckel_gap.cuh"
#include "molstep/fullerene/cuda/isomer_batch.cuh"
#include "molstep/gpu/device_array.cuh"

namespace molstep::fullerene::cuda {

/// The properties stage of the lockstep pipeline: fullerene::isomer_properties for a batch, one
/// block per slot and one thread per atom (thread f < faces also handles face f), after the
/// Hueckel gap's own kernel (HueckelGap).
class PropertiesStage {
 public:
  /// Sizes the launch for C_atoms and batches of `capacity` slots and allocates the scratch.
  /// `flatness` adds the face-flatness term to the energy, as ForceFieldOptions::flatness does.
  /// Throws molstep::Error for more atoms than a block can hold (one thread per atom, at most 512
  /// threads) or a failed CUDA call.
  PropertiesStage(int atoms, int capacity, bool flatness);

  /// Writes b.properties[slot] for every slot whose status is finished() (kConverged, kFailed,
  /// kInvalid), from b.cubic and b.x; the other slots are untouched. A slot whose graph is not a
  /// fullerene gets NaN in every field. Asynchronous on stream `s`; throws molstep::Error when
  /// b's size is not the stage's or the launch fails.
  void launch(const BatchView& b, cudaStream_t s);

  /// Blocks launched (each walks slots grid-stride).
  [[nodiscard]] int grid() const { return grid_; }

 private:
  int atoms_ = 0;
  int capacity_ = 0;
  bool flatness_ = false;
  int threads_ = 0;
  int grid_ = 1;
  std::size_t shared_bytes_ = 0;
  std::unique_ptr<HueckelGap> hueckel_;
};

}  // namespace molstep::fullerene::cuda
