// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "molstep/fullerene/cuda/isomer_batch.cuh"
#include "molstep/gpu/device_array.cuh"

namespace molstep::fullerene::cuda {

/// The Hueckel HOMO-LUMO gap of every finished slot of a batch, for the properties stage, in its
/// own kernel (fewer registers than the rest of the properties, so more threads per block): one
/// block per slot reduces the adjacency matrix (its packed lower triangle, N (N + 1) / 2
/// doubles: in shared memory up to about C220 on an H100, else in global scratch owned by the
/// stage, one matrix per block of the grid, at most 512 MiB in all) to tridiagonal form by
/// Householder reflections, then finds the HOMO and LUMO eigenvalues by Sturm-sequence
/// multisection, a warp each. Up to four threads per atom share the reduction where few blocks
/// fit on an SM.
class HueckelGap {
 public:
  /// Sizes the launch for C_atoms and batches of `capacity` slots and allocates the scratch.
  /// Throws molstep::Error for more than 1024 atoms or a failed CUDA call.
  HueckelGap(int atoms, int capacity);

  /// gaps()[slot] = lambda_HOMO - lambda_LUMO of the adjacency matrix (fullerene::homo_lumo_gap)
  /// for every finished() slot of b, NaN where a neighbour is out of range; other slots
  /// untouched. Asynchronous on stream `s`.
  void launch(const BatchView& b, cudaStream_t s);

  [[nodiscard]] double* gaps() { return gaps_.data(); }

 private:
  int atoms_ = 0;
  int capacity_ = 0;
  int threads_ = 0;
  int grid_ = 1;
  bool shared_matrix_ = false;
  std::size_t shared_bytes_ = 0;
  gpu::DeviceArray<double> gaps_;
  gpu::DeviceArray<double> scratch_;  ///< grid_ packed triangles when !shared_matrix_
};

}  // namespace molstep::fullerene::cuda
