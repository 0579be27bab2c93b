// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include "molstep/core/error.hpp"
#include "molstep/gpu/cuda_check.cuh"

namespace molstep::gpu {

/// An instantiated CUDA graph, captured from the work some code enqueues on a stream, replayed
/// with one launch. A graph holds the addresses and arguments of the capture: whoever
/// reallocates what it reads must reset() it.
class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph() { reset(); }

  /// Records what `enqueue()` puts on `stream` (nothing runs) and instantiates it. `enqueue`
  /// must not wait for the device or allocate. On failure throws molstep::Error and leaves the
  /// stream out of capture, with nothing enqueued.
  template <class F>
  void capture(cudaStream_t stream, F&& enqueue) {
    reset();
    MOLSTEP_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    cudaGraph_t graph = nullptr;
    try {
      enqueue();
    } catch (...) {
      cudaStreamEndCapture(stream, &graph);
      if (graph) cudaGraphDestroy(graph);
      cudaGetLastError();  // the failed capture's error is not sticky: clear it
      throw;
    }
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    const cudaError_t made = ended == cudaSuccess ? cudaGraphInstantiate(&exec_, graph, 0) : ended;
    if (graph) cudaGraphDestroy(graph);
    if (made != cudaSuccess) {
      exec_ = nullptr;
      cudaGetLastError();
      check(made, "capturing a CUDA graph");
    }
  }
  void launch(cudaStream_t stream) const { MOLSTEP_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }
  [[nodiscard]] bool ready() const { return exec_ != nullptr; }
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace molstep::gpu
