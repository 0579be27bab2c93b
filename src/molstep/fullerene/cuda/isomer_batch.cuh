// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "molstep/fullerene/cuda/slot_status.hpp"
#include "molstep/fullerene/properties.hpp"
#include "molstep/gpu/device_array.cuh"

namespace molstep::fullerene::cuda {

/// Whether a slot's isomer is done (converged, failed or invalid).
[[nodiscard]] __host__ __device__ inline bool finished(std::int32_t status) { return status >= kConverged; }

/// Device pointers of a batch of `capacity` slots, every slot holding one C_N isomer. Arrays are
/// slot-major: slot s's part of an array with K values per slot starts at s * K. Passed by value
/// to kernels. Kernels run one block per slot (grid-stride over slots) and one thread per atom
/// (blockDim.x = atoms rounded up to a multiple of 32); thread f < faces handles face f.
struct BatchView {
  int atoms = 0;     ///< N
  int faces = 0;     ///< N/2 + 2: vertices of the dual
  int capacity = 0;  ///< slots

  std::int32_t* dual = nullptr;    ///< [slot][faces][6]: dual neighbours clockwise, -1 in slot 5 of a pentagon
  std::uint8_t* degree = nullptr;  ///< [slot][faces]: 5 or 6
  std::int32_t* cubic = nullptr;   ///< [slot][atoms][3]: neighbours clockwise (fullerene::dualize's numbering)
  double* layout = nullptr;        ///< [slot][atoms][2]: Tutte embedding
  double* x = nullptr;             ///< [slot][atoms][3]: coordinates, Angstrom
  double* direction = nullptr;     ///< [slot][atoms][3]: the optimiser's search direction between chunks
  std::int32_t* status = nullptr;  ///< [slot]: SlotStatus
  std::int32_t* iterations = nullptr;  ///< [slot]: CG iterations so far
  std::int32_t* steepest = nullptr;    ///< [slot]: 1 when `direction` is the steepest descent one
  double* decrease = nullptr;          ///< [slot]: the optimiser's last step times its slope (Wolfe search)
  std::uint64_t* id = nullptr;         ///< [slot]: the isomer's index in its source
  IsomerProperties* properties = nullptr;  ///< [slot]: written by the properties stage

  [[nodiscard]] __host__ __device__ int threads_per_block() const { return (atoms + 31) / 32 * 32; }
};

/// Owns the device arrays of a BatchView. Without `stages`, only what finished isomers waiting
/// for the properties stage need (status, id, iterations, cubic, x, properties): the arrays of
/// the graph and optimiser stages (dual, degree, layout, direction, steepest, decrease) are left empty and
/// no such stage may run on it.
class DeviceBatch {
 public:
  DeviceBatch(int atoms, int capacity, bool stages = true) {
    view_.atoms = atoms;
    view_.faces = atoms / 2 + 2;
    view_.capacity = capacity;
    const auto slots = static_cast<std::size_t>(capacity);
    const auto n = static_cast<std::size_t>(atoms), f = static_cast<std::size_t>(view_.faces);
    const std::size_t staged = stages ? slots : 0;
    dual_.resize(staged * f * 6);
    degree_.resize(staged * f);
    cubic_.resize(slots * n * 3);
    layout_.resize(staged * n * 2);
    x_.resize(slots * n * 3);
    direction_.resize(staged * n * 3);
    status_.resize(slots);
    iterations_.resize(slots);
    steepest_.resize(staged);
    decrease_.resize(staged);
    id_.resize(slots);
    properties_.resize(slots);
    status_.zero();  // every slot kEmpty
    iterations_.zero();
    view_.dual = dual_.data();
    view_.degree = degree_.data();
    view_.cubic = cubic_.data();
    view_.layout = layout_.data();
    view_.x = x_.data();
    view_.direction = direction_.data();
    view_.status = status_.data();
    view_.iterations = iterations_.data();
    view_.steepest = steepest_.data();
    view_.decrease = decrease_.data();
    view_.id = id_.data();
    view_.properties = properties_.data();
  }
  [[nodiscard]] const BatchView& view() const { return view_; }

 private:
  BatchView view_;
  gpu::DeviceArray<std::int32_t> dual_;
  gpu::DeviceArray<std::uint8_t> degree_;
  gpu::DeviceArray<std::int32_t> cubic_;
  gpu::DeviceArray<double> layout_, x_, direction_, decrease_;
  gpu::DeviceArray<std::int32_t> status_, iterations_, steepest_;
  gpu::DeviceArray<std::uint64_t> id_;
  gpu::DeviceArray<IsomerProperties> properties_;
};

}  // namespace molstep::fullerene::cuda
