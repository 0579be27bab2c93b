// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <vector>

namespace molstep::core {

/// Sum of f(i) for i in [0, n), computed in fixed-size chunks that are added in chunk order,
/// so the result is bit-identical on any number of OpenMP threads.
template <class F>
double deterministic_sum(std::size_t n, F&& f) {
  constexpr std::size_t kChunk = 4096;
  const std::size_t nchunks = (n + kChunk - 1) / kChunk;
  std::vector<double> partial(nchunks, 0.0);
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < nchunks; ++c) {
    double s = 0.0;
    const std::size_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
    for (std::size_t i = c * kChunk; i < end; ++i) s += f(i);
    partial[c] = s;
  }
  double total = 0.0;
  for (double p : partial) total += p;
  return total;
}

}  // namespace molstep::core
