// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdlib>
#include <string>

namespace molstep::gpu {

/// Threads per block of the per-atom kernels: 128 unless MOLSTEP_CUDA_BLOCK names another
/// multiple of 32 up to 1024 (a tuning knob, measured in bench/RESULTS.md; results do not depend
/// on it, since every atom is summed by one thread in a fixed order).
inline int block_size() {
  static const int size = [] {
    const char* v = std::getenv("MOLSTEP_CUDA_BLOCK");
    if (!v || !*v) return 128;
    const int b = std::atoi(v);
    return (b >= 32 && b <= 1024 && b % 32 == 0) ? b : 128;
  }();
  return size;
}

/// Blocks needed for one thread per item.
inline int blocks_for(std::size_t n) {
  const auto b = static_cast<std::size_t>(block_size());
  return static_cast<int>((n + b - 1) / b);
}

}  // namespace molstep::gpu
