// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>

#include "molstep/analysis/plan.hpp"

namespace molstep::analysis {

/// rint(v) for |v| < 2^51 under the default rounding mode, without a libm call: adding and
/// subtracting 1.5 * 2^52 rounds to the nearest integer, ties to even, exactly as rint().
inline double round_to_nearest(double v) {
  constexpr double kShift = 6755399441055744.0;
  return (v + kShift) - kShift;
}

/// Squared minimum-image distance (plain distance when the binning has no box) of (i, j).
/// This exact sequence of operations is mirrored by the CUDA kernel with round-to-nearest
/// intrinsics; the files that include it are compiled without floating-point contraction, so
/// CPU and GPU histograms are identical.
inline double pair_r2(const PairBinning& b, double xi, double yi, double zi, double xj, double yj, double zj) {
  double dx = xj - xi;
  double dy = yj - yi;
  double dz = zj - zi;
  dx -= b.len[0] * round_to_nearest(dx * b.inv_len[0]);
  dy -= b.len[1] * round_to_nearest(dy * b.inv_len[1]);
  dz -= b.len[2] * round_to_nearest(dz * b.inv_len[2]);
  return dx * dx + dy * dy + dz * dz;
}

/// The bin of a squared distance, or `bins` when r >= rmax.
inline int bin_of_r2(const PairBinning& b, double r2) {
  if (!(r2 < b.rmax2)) return b.bins;
  const int bin = static_cast<int>(std::sqrt(r2) * b.inv_width);
  return bin < b.bins ? bin : b.bins - 1;
}

inline int pair_bin(const PairBinning& b, double xi, double yi, double zi, double xj, double yj, double zj) {
  return bin_of_r2(b, pair_r2(b, xi, yi, zi, xj, yj, zj));
}

}  // namespace molstep::analysis
