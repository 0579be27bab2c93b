// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <tuple>
#include <utility>

#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/launch.cuh"

namespace molstep::gpu {

namespace detail {
inline cudaStream_t& redirected_stream() {
  thread_local cudaStream_t s = nullptr;
  return s;
}
}  // namespace detail

/// The stream of the MD step: every kernel and copy of a step goes here, so that a step can be
/// captured into a CUDA graph (the legacy default stream cannot be captured). It is an ordinary
/// (blocking) stream, so work on the default stream, such as DeviceArray's uploads and
/// downloads, stays ordered with it. Created at the first call, for the life of the process.
/// Inside a StreamRedirect, the calling thread's launches go to that stream instead.
inline cudaStream_t stream() {
  if (const cudaStream_t r = detail::redirected_stream()) return r;
  static const cudaStream_t s = [] {
    cudaStream_t created = nullptr;
    MOLSTEP_CUDA_CHECK(cudaStreamCreate(&created));
    return created;
  }();
  return s;
}

/// For its lifetime, stream() is `to` on the calling thread (GraphBranch captures a branch's
/// work through a stream of its own).
class StreamRedirect {
 public:
  explicit StreamRedirect(cudaStream_t to) : before_(detail::redirected_stream()) { detail::redirected_stream() = to; }
  StreamRedirect(const StreamRedirect&) = delete;
  StreamRedirect& operator=(const StreamRedirect&) = delete;
  ~StreamRedirect() { detail::redirected_stream() = before_; }

 private:
  cudaStream_t before_;
};

/// Launches `kernel` on stream() with one thread per item for `threads` items (none for 0).
template <class... Params, class... Args>
void launch(std::size_t threads, void (*kernel)(Params...), Args&&... args) {
  if (threads == 0) return;
  kernel<<<blocks_for(threads), block_size(), 0, stream()>>>(std::forward<Args>(args)...);
}

/// Blocks of `threads` threads, each with `shared_bytes` of dynamic shared memory, that the
/// device holds at once for `kernel` by its real occupancy (registers, shared memory): one full
/// wave of a grid-stride kernel; at most `limit` (the blocks the work needs), at least 1. The
/// occupancy is asked once per kernel and shape, at its first launch.
template <class Kernel>
int resident_grid(Kernel kernel, int threads, std::size_t shared_bytes, std::size_t limit) {
  static std::map<std::tuple<const void*, int, std::size_t>, int> waves;
  const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), threads, shared_bytes);
  auto it = waves.find(key);
  if (it == waves.end()) {
    cudaFuncAttributes attributes{};
    MOLSTEP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    if (threads > attributes.maxThreadsPerBlock)
      throw Error("blocks of " + std::to_string(threads) + " threads are too large for a kernel of " +
                  std::to_string(attributes.numRegs) + " registers per thread (at most " +
                  std::to_string(attributes.maxThreadsPerBlock) + " threads per block)");
    int device = 0, sms = 0, per_sm = 0;
    MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
    MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    MOLSTEP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
    it = waves.emplace(key, std::max(1, per_sm) * sms).first;
  }
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(limit, static_cast<std::size_t>(it->second))));
}

/// launch_resident with blocks of `threads` threads, each with `shared_bytes` of dynamic shared
/// memory (the occupancy counts it).
template <class... Params, class... Args>
void launch_resident_shared(std::size_t items, int threads, std::size_t shared_bytes, void (*kernel)(Params...),
                            Args&&... args) {
  if (items == 0) return;
  const auto per_block = static_cast<std::size_t>(threads);
  const int blocks = resident_grid(kernel, threads, shared_bytes, (items + per_block - 1) / per_block);
  kernel<<<blocks, threads, shared_bytes, stream()>>>(std::forward<Args>(args)...);
}

/// Launches a grid-stride `kernel` on stream() over `items` items with at most one wave of
/// blocks (resident_grid: by the kernel's real occupancy; a wave counted as a full SM of threads
/// overestimates it for kernels of many registers, and the blocks past those that fit run as a
/// second, mostly idle wave: 10-20% of the H100's list build). For kernels that usually return
/// at once (the neighbour-list build on the steps where none falls due): an empty launch then
/// costs the same whatever the atom count.
template <class... Params, class... Args>
void launch_resident(std::size_t items, void (*kernel)(Params...), Args&&... args) {
  launch_resident_shared(items, block_size(), 0, kernel, std::forward<Args>(args)...);
}

}  // namespace molstep::gpu

/// Grid-stride loop over `n` items in a kernel launched with launch_resident.
#define MOLSTEP_GRID_STRIDE(i, n)                                                        \
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; \
       i < (n); i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
