// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace molstep::fullerene {

/// The sum of `values` (one per atom) in exactly the order in which the GPU's lockstep kernels
/// add them (cuda/block_reduce.cuh's block_sum with one thread per atom): each warp of 32
/// consecutive values by a shuffle-down tree (value i += value i + 16, then + 8, + 4, + 2, + 1),
/// missing values as 0, then the warps' sums by the same tree. The CPU optimiser sums this way
/// so that, with the same start, CPU and GPU runs agree bit for bit. Pairwise summation is also
/// more accurate than a running sum.
[[nodiscard]] inline double lockstep_sum(std::span<const double> values) {
  const auto tree = [](std::array<double, 32>& a) {
    for (std::size_t off = 16; off > 0; off /= 2)
      for (std::size_t i = 0; i < off; ++i) a[i] += a[i + off];
    return a[0];
  };
  std::vector<double> level(values.begin(), values.end());
  do {
    std::vector<double> sums((level.size() + 31) / 32);
    for (std::size_t w = 0; w < sums.size(); ++w) {
      std::array<double, 32> a{};
      for (std::size_t i = 0; i < 32 && 32 * w + i < level.size(); ++i) a[i] = level[32 * w + i];
      sums[w] = tree(a);
    }
    level = std::move(sums);
  } while (level.size() > 1);
  return level.empty() ? 0.0 : level[0];
}

}  // namespace molstep::fullerene
