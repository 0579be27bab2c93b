// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "molstep/fullerene/cuda/isomer_batch.cuh"
#include "molstep/gpu/device_array.cuh"

namespace molstep::fullerene::cuda {

/// The queue's counters, in device memory: entries [front, front + size) mod capacity wait.
struct QueueCounters {
  std::int64_t front = 0;
  std::int64_t size = 0;
  std::int64_t taken = 0;  ///< entries moved into the batch so far
};

/// A circular FIFO of dual graphs on the GPU that keeps a batch full: the host appends entries
/// (push), and refill() hands the oldest ones to the batch's kEmpty slots, whichever those are,
/// with a block-wide scan over the slots, on the device, without the host looking at the batch.
class IsomerQueue {
 public:
  IsomerQueue(int atoms, int capacity);

  [[nodiscard]] int capacity() const { return capacity_; }
  /// Entries pushed and not yet taken, as the host knows them (taken() is read back by the caller).
  [[nodiscard]] std::int64_t pushed() const { return pushed_; }

  /// Appends `count` entries from host memory (pinned for overlap): duals [count][faces][6],
  /// degrees [count][faces], ids [count]. The copies and the counter update go on `stream`.
  /// The caller keeps count <= capacity() - (pushed() - taken()).
  void push(const std::int32_t* duals, const std::uint8_t* degrees, const std::uint64_t* ids, int count,
            cudaStream_t stream);
  /// Moves the oldest waiting entries into b's kEmpty slots (status kNew, iterations 0).
  void refill(const BatchView& b, cudaStream_t stream);
  /// Copies the counters to `host` (pinned) on `stream`.
  void read_counters(QueueCounters* host, cudaStream_t stream) const;

 private:
  int faces_, capacity_;
  std::int64_t pushed_ = 0;
  gpu::DeviceArray<std::int32_t> dual_;
  gpu::DeviceArray<std::uint8_t> degree_;
  gpu::DeviceArray<std::uint64_t> id_;
  gpu::DeviceArray<QueueCounters> counters_;
  gpu::DeviceArray<std::int32_t> take_;  ///< per batch slot: the queue entry it gets, or -1
};

}  // namespace molstep::fullerene::cuda
