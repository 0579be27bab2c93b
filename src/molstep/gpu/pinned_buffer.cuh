// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "molstep/gpu/cuda_check.cuh"

namespace molstep::gpu {

/// Page-locked host memory for n values of T (cudaMallocHost), so that copies to and from the
/// device can be asynchronous. Growing never preserves contents.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { cudaFreeHost(ptr_); }
  void resize(std::size_t n) {
    if (n <= n_) return;
    cudaFreeHost(ptr_);
    ptr_ = nullptr;
    MOLSTEP_CUDA_CHECK(cudaMallocHost(&ptr_, (n ? n : 1) * sizeof(T)));
    n_ = n;
  }
  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  T& operator[](std::size_t i) { return ptr_[i]; }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace molstep::gpu
