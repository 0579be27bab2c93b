// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/device_array.cuh"
#include "molstep/gpu/stream.cuh"

namespace molstep::md::cuda {

/// What the GPU decides during a run without asking the host, kept in device memory: the
/// neighbour-list bookkeeping (neigh_modify's every/delay/check rule, applied on the device) and
/// whether a build failed. The host reads it at output steps, every few steps with an
/// asynchronous copy (StepStatusChannel), and at the end of the run.
struct StepStatus {
  long long step = 0;    ///< the last step at which a build could fall due (the decision's step)
  long long ago = 0;     ///< steps from the last build to `step`
  long long builds = 0;  ///< builds decided since the run's setup
  /// Build steps whose build kernels were launched with no build due (they return at once; a
  /// step replayed from a CUDA graph skips them: NeighborCuda::enqueue_step).
  long long idle_builds = 0;
  int moved = 0;         ///< the displacement check found an atom beyond half the skin
  int rebuild = 0;       ///< the list is being built at `step`
  /// Set when the build at `step` failed (lost atom or list overflow). While it is set, every
  /// kernel that changes positions, velocities or this record does nothing, so the state stays
  /// as it was right after the failed list pass until the host repairs the list and resumes.
  int halted = 0;
  int lost = 0;      ///< an atom moved more than a box length (the run cannot go on)
  int overflow = 0;  ///< the most neighbours one atom found at the failed build (0: no overflow)
};

/// Whether the state may change (device side).
__device__ inline bool running(const StepStatus* s) { return s->halted == 0; }
/// Whether the build kernels of this step have work (device side).
__device__ inline bool building(const StepStatus* s) { return s->rebuild != 0 && s->halted == 0; }

/// The device's StepStatus and a pinned host copy of it for reads that need not wait.
class StepStatusChannel {
 public:
  explicit StepStatusChannel(const StepStatus& initial) : device_(1) {
    MOLSTEP_CUDA_CHECK(cudaMallocHost(&pinned_, sizeof(StepStatus)));
    MOLSTEP_CUDA_CHECK(cudaEventCreateWithFlags(&posted_, cudaEventDisableTiming));
    write(initial);
  }
  StepStatusChannel(const StepStatusChannel&) = delete;
  StepStatusChannel& operator=(const StepStatusChannel&) = delete;
  ~StepStatusChannel() {
    cudaEventDestroy(posted_);
    cudaFreeHost(pinned_);
  }

  [[nodiscard]] StepStatus* device() { return device_.data(); }
  /// The status after everything enqueued so far (waits for the stream).
  [[nodiscard]] StepStatus read() {
    post();
    return collect();
  }
  /// Replaces the status (waits for the stream first, so no kernel is reading it).
  void write(const StepStatus& s) {
    MOLSTEP_CUDA_CHECK(cudaStreamSynchronize(gpu::stream()));
    *pinned_ = s;
    MOLSTEP_CUDA_CHECK(cudaMemcpy(device_.data(), pinned_, sizeof(StepStatus), cudaMemcpyHostToDevice));
  }
  /// Enqueues a copy of the status as it will be after the work enqueued so far.
  void post() {
    MOLSTEP_CUDA_CHECK(
        cudaMemcpyAsync(pinned_, device_.data(), sizeof(StepStatus), cudaMemcpyDeviceToHost, gpu::stream()));
    MOLSTEP_CUDA_CHECK(cudaEventRecord(posted_, gpu::stream()));
  }
  /// The copy of the last post(), waiting for it if the device has not got there yet.
  [[nodiscard]] StepStatus collect() {
    MOLSTEP_CUDA_CHECK(cudaEventSynchronize(posted_));
    return *pinned_;
  }
  [[nodiscard]] std::size_t bytes() const { return device_.bytes(); }

 private:
  gpu::DeviceArray<StepStatus> device_;
  StepStatus* pinned_ = nullptr;
  cudaEvent_t posted_ = nullptr;
};

}  // namespace molstep::md::cuda
