// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace molstep::test {

/// SplitMix64: synthetic test frames that come out the same on every platform (integer
/// hashing and exact scaling only), so that files written from them can be stored and
/// compared byte for byte.
struct SplitMix {
  std::uint64_t state;

  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
};

}  // namespace molstep::test
