// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "molstep/gpu/cuda_check.cuh"

namespace molstep::fullerene::cuda {

/// Grid size for a kernel that runs one block per batch slot (grid-stride over slots): as many
/// blocks as the device holds at once with `threads` threads and `shared_bytes` of dynamic
/// shared memory each, but no more than there are slots.
template <class Kernel>
int slot_grid(Kernel kernel, int threads, std::size_t shared_bytes, int capacity) {
  int device = 0, sms = 0, per_sm = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MOLSTEP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return std::max(1, std::min(capacity, std::max(1, per_sm) * sms));
}

}  // namespace molstep::fullerene::cuda
