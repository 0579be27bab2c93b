// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/stream.cuh"

namespace molstep::gpu {

/// The device's side of a GraphBranch: the kernel that decides whether the branch runs calls
/// take(). Outside a graph (on) it does nothing: the branch's work was enqueued as it is.
struct BranchSwitch {
  cudaGraphConditionalHandle handle = 0;
  bool on = false;
  __device__ void take(bool yes) const {
    if (on) cudaGraphSetConditional(handle, yes ? 1u : 0u);
  }
};

/// Work that a CUDA graph replay may skip, as the device decides: while stream() is being
/// captured (Graph::capture), enqueue() puts the work into the body of a conditional node (an
/// IF node of the CUDA graph API), which a replay runs only where a kernel before it, holding device(),
/// took the branch or left it alone (it is taken by default), so kernels that would return at
/// once cost nothing. Outside a capture, or where the driver has no conditional nodes, the work
/// is enqueued as it is, every time: it must then do nothing by itself where the branch would
/// not be taken. Made and used within one step's enqueueing.
class GraphBranch {
 public:
  GraphBranch() {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    MOLSTEP_CUDA_CHECK(cudaStreamGetCaptureInfo(stream(), &status, nullptr, &graph_));
    if (status != cudaStreamCaptureStatusActive) {
      body_stream();  // made outside any capture
      return;
    }
    cudaGraphConditionalHandle handle{};
    if (cudaGraphConditionalHandleCreate(&handle, graph_, 1, cudaGraphCondAssignDefault) != cudaSuccess) {
      cudaGetLastError();  // no conditional nodes: the work goes into the graph as it is
      return;
    }
    switch_ = BranchSwitch{handle, true};
  }

  [[nodiscard]] BranchSwitch device() const { return switch_; }

  /// Enqueues what `work()` enqueues on stream(): in a graph, as the branch's body.
  template <class F>
  void enqueue(F&& work) {
    if (!switch_.on) {
      work();
      return;
    }
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    const cudaGraphNode_t* deps = nullptr;
    const cudaGraphEdgeData* edges = nullptr;
    std::size_t count = 0;
    const cudaStream_t main = stream();
    MOLSTEP_CUDA_CHECK(cudaStreamGetCaptureInfo(main, &status, nullptr, nullptr, &deps, &edges, &count));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = switch_.handle;
    params.conditional.type = cudaGraphCondTypeIf;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
    MOLSTEP_CUDA_CHECK(cudaGraphAddNode(&node, graph_, deps, edges, count, &params));
    const cudaStream_t side = body_stream();
    MOLSTEP_CUDA_CHECK(cudaStreamBeginCaptureToGraph(side, params.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                                     cudaStreamCaptureModeThreadLocal));
    cudaGraph_t body = nullptr;
    try {
      const StreamRedirect to(side);
      work();
    } catch (...) {
      cudaStreamEndCapture(side, &body);
      cudaGetLastError();
      throw;
    }
    MOLSTEP_CUDA_CHECK(cudaStreamEndCapture(side, &body));
    MOLSTEP_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(main, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
  }

 private:
  // The stream a branch's body is captured through (for the life of the process).
  static cudaStream_t body_stream() {
    static const cudaStream_t s = [] {
      cudaStream_t created = nullptr;
      MOLSTEP_CUDA_CHECK(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking));
      return created;
    }();
    return s;
  }

  cudaGraph_t graph_ = nullptr;
  BranchSwitch switch_;
};

}  // namespace molstep::gpu
