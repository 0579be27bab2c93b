// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "molstep/gpu/cuda_check.cuh"

namespace molstep::gpu {

/// Device memory for n values of T, owned (cudaMalloc/cudaFree), with explicit host copies.
/// Growing never preserves contents; nothing migrates implicitly.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) { resize(n); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept : ptr_(o.ptr_), n_(o.n_), cap_(o.cap_) { o.ptr_ = nullptr; o.n_ = o.cap_ = 0; }
  ~DeviceArray() { cudaFree(ptr_); }

  void resize(std::size_t n) {
    if (n > cap_) {
      cudaFree(ptr_);
      ptr_ = nullptr;
      MOLSTEP_CUDA_CHECK(cudaMalloc(&ptr_, (n ? n : 1) * sizeof(T)));
      cap_ = n;
    }
    n_ = n;
  }
  void upload(const std::vector<T>& h) {
    resize(h.size());
    if (!h.empty()) MOLSTEP_CUDA_CHECK(cudaMemcpy(ptr_, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(std::vector<T>& h) const {
    h.resize(n_);
    if (n_) MOLSTEP_CUDA_CHECK(cudaMemcpy(h.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
  }
  void zero() {
    if (n_) MOLSTEP_CUDA_CHECK(cudaMemset(ptr_, 0, n_ * sizeof(T)));
  }
  [[nodiscard]] T* data() { return ptr_; }
  [[nodiscard]] const T* data() const { return ptr_; }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] std::size_t bytes() const { return cap_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0, cap_ = 0;
};

}  // namespace molstep::gpu
