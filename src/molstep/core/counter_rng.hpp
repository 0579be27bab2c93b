// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

// Callable from CUDA kernels too (the GPU run draws the same numbers as the CPU); plain C++
// elsewhere.
#if defined(__CUDACC__)
#define MOLSTEP_COUNTER_RNG_HD __host__ __device__
#else
#define MOLSTEP_COUNTER_RNG_HD
#endif

namespace molstep::core {

/// Counter-based random numbers: the value depends only on (seed, atom id, step, stream), never
/// on the thread or rank that asks, so stochastic runs are reproducible on any thread count.
/// Built from the SplitMix64 finaliser applied to a combined key. Integer arithmetic and one
/// exact conversion, so host and device give bit-identical values.
class CounterRng {
 public:
  MOLSTEP_COUNTER_RNG_HD explicit CounterRng(std::uint64_t seed) : seed_(seed) {}

  /// Uniform in [0,1) with 53 random bits.
  [[nodiscard]] MOLSTEP_COUNTER_RNG_HD double uniform(std::uint64_t id, std::uint64_t step, std::uint32_t stream) const {
    std::uint64_t h = mix(seed_ ^ 0x9e3779b97f4a7c15ULL);
    h = mix(h ^ id);
    h = mix(h ^ step);
    h = mix(h ^ stream);
    return static_cast<double>(h >> 11) * 0x1.0p-53;
  }

 private:
  MOLSTEP_COUNTER_RNG_HD static std::uint64_t mix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t seed_;
};

}  // namespace molstep::core

#undef MOLSTEP_COUNTER_RNG_HD
