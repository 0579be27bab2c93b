// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <utility>

#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/launch.cuh"

namespace molstep::gpu {

/// The stream of the MD step: every kernel and copy of a step goes here, so that a step can be
/// captured into a CUDA graph (the legacy default stream cannot be captured). It is an ordinary
/// (blocking) stream, so work on the default stream, such as DeviceArray's uploads and
/// downloads, stays ordered with it. Created at the first call, for the life of the process.
inline cudaStream_t stream() {
  static const cudaStream_t s = [] {
    cudaStream_t created = nullptr;
    MOLSTEP_CUDA_CHECK(cudaStreamCreate(&created));
    return created;
  }();
  return s;
}

/// Launches `kernel` on stream() with one thread per item for `threads` items (none for 0).
template <class... Params, class... Args>
void launch(std::size_t threads, void (*kernel)(Params...), Args&&... args) {
  if (threads == 0) return;
  kernel<<<blocks_for(threads), block_size(), 0, stream()>>>(std::forward<Args>(args)...);
}

/// Blocks of block_size() threads that the device holds at once (one full wave).
inline int resident_blocks() {
  static const int blocks = [] {
    int device = 0, sms = 0, threads = 0;
    MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
    MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    return std::max(1, sms * std::max(1, threads / block_size()));
  }();
  return blocks;
}

/// Launches a grid-stride `kernel` on stream() over `items` items with at most one wave of
/// blocks. For kernels that usually return at once (the neighbour-list build on the steps
/// where none falls due): an empty launch then costs the same whatever the atom count.
template <class... Params, class... Args>
void launch_resident(std::size_t items, void (*kernel)(Params...), Args&&... args) {
  if (items == 0) return;
  const int blocks = std::min(blocks_for(items), resident_blocks());
  kernel<<<blocks, block_size(), 0, stream()>>>(std::forward<Args>(args)...);
}

}  // namespace molstep::gpu

/// Grid-stride loop over `n` items in a kernel launched with launch_resident.
#define MOLSTEP_GRID_STRIDE(i, n)                                                        \
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; \
       i < (n); i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
