// SPDX-License-Identifier: MIT
#include "molstep/fullerene/cuda/isomer_queue.cuh"

#include <algorithm>

#include "molstep/fullerene/cuda/block_reduce.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/gpu/cuda_check.cuh"

namespace molstep::fullerene::cuda {
namespace {

constexpr int kScanThreads = 1024;

__global__ void commit_kernel(QueueCounters* c, int count) { c->size += count; }

/// One block: the kEmpty slots, in slot order, take the oldest entries (the reference's
/// refill_batch: flag, exclusive scan, assign), and the counters advance.
__global__ void assign_kernel(const std::int32_t* status, int slots, QueueCounters* c, int capacity,
                              std::int32_t* take) {
  __shared__ BlockScratch<int> scan;
  const std::int64_t front = c->front, size = c->size;
  std::int64_t base = 0;
  for (int start = 0; start < slots; start += blockDim.x) {
    const int slot = start + static_cast<int>(threadIdx.x);
    const bool empty = slot < slots && status[slot] == kEmpty;
    int total = 0;
    const int rank = block_exclusive_scan(empty ? 1 : 0, scan, &total);
    if (slot < slots) take[slot] = empty && base + rank < size ? static_cast<std::int32_t>((front + base + rank) % capacity) : -1;
    base += total;
  }
  __syncthreads();  // every thread has read the counters
  if (threadIdx.x == 0) {
    const std::int64_t used = min(base, size);
    c->front = (front + used) % capacity;
    c->size = size - used;
    c->taken += used;
  }
}

/// One block per slot that got an entry: copies the dual graph in and marks the slot kNew.
__global__ void fill_kernel(BatchView b, const std::int32_t* take, const std::int32_t* dual, const std::uint8_t* degree,
                            const std::uint64_t* id) {
  for (int slot = blockIdx.x; slot < b.capacity; slot += gridDim.x) {
    const int entry = take[slot];
    if (entry < 0) continue;
    const std::size_t from = static_cast<std::size_t>(entry) * b.faces, to = static_cast<std::size_t>(slot) * b.faces;
    for (int i = threadIdx.x; i < 6 * b.faces; i += blockDim.x) b.dual[6 * to + i] = dual[6 * from + i];
    for (int i = threadIdx.x; i < b.faces; i += blockDim.x) b.degree[to + i] = degree[from + i];
    if (threadIdx.x == 0) {
      b.id[slot] = id[entry];
      b.iterations[slot] = 0;
      b.status[slot] = kNew;
    }
  }
}

}  // namespace

IsomerQueue::IsomerQueue(int atoms, int capacity) : faces_(atoms / 2 + 2), capacity_(capacity) {
  const auto n = static_cast<std::size_t>(capacity);
  dual_.resize(n * faces_ * 6);
  degree_.resize(n * faces_);
  id_.resize(n);
  counters_.resize(1);
  counters_.zero();
}

void IsomerQueue::push(const std::int32_t* duals, const std::uint8_t* degrees, const std::uint64_t* ids, int count,
                       cudaStream_t stream) {
  // Entries go to [pushed_, pushed_ + count) mod capacity: at most two contiguous pieces.
  for (int done = 0; done < count;) {
    const int at = static_cast<int>((pushed_ + done) % capacity_);
    const int piece = std::min(count - done, capacity_ - at);
    const std::size_t f = static_cast<std::size_t>(faces_);
    MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(dual_.data() + at * f * 6, duals + done * f * 6, piece * f * 6 * sizeof(std::int32_t),
                                       cudaMemcpyHostToDevice, stream));
    MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(degree_.data() + at * f, degrees + done * f, piece * f, cudaMemcpyHostToDevice, stream));
    MOLSTEP_CUDA_CHECK(
        cudaMemcpyAsync(id_.data() + at, ids + done, piece * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream));
    done += piece;
  }
  pushed_ += count;
  commit_kernel<<<1, 1, 0, stream>>>(counters_.data(), count);
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

void IsomerQueue::refill(const BatchView& b, cudaStream_t stream) {
  take_.resize(static_cast<std::size_t>(b.capacity));
  assign_kernel<<<1, kScanThreads, 0, stream>>>(b.status, b.capacity, counters_.data(), capacity_, take_.data());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
  const int threads = 128;
  fill_kernel<<<gpu::resident_grid(fill_kernel, threads, 0, b.capacity), threads, 0, stream>>>(b, take_.data(), dual_.data(),
                                                                                        degree_.data(), id_.data());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

void IsomerQueue::read_counters(QueueCounters* host, cudaStream_t stream) const {
  MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(host, counters_.data(), sizeof(QueueCounters), cudaMemcpyDeviceToHost, stream));
}

}  // namespace molstep::fullerene::cuda
