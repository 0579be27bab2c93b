// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <vector>

namespace molstep::md::potentials {

/// A tabulated function on n points x_m = (m-1) * delta (m = 1..n) turned into piecewise cubics
/// exactly as LAMMPS's PairEAM::interpolate does: first derivatives by five-point differences
/// (three-point and one-sided at the ends), Hermite coefficients per interval. Coefficients
/// 6,5,4,3 give the value in the local coordinate p in [0,1); 2,1,0 its derivative per unit x.
struct CubicTable {
  std::vector<std::array<double, 7>> c;  ///< index 1..n (0 unused, as LAMMPS)
  int n = 0;
  double delta = 0.0;

  /// `f` holds f[1..n] (f[0] unused).
  static CubicTable build(const std::vector<double>& f, int n, double delta);

  /// CoMD's scheme on the same index convention (interval m covers x_(m-1)..x_m): a quadratic
  /// through three neighbouring points for the value and, separately, a derivative linear
  /// between the central differences at the interval's ends. `f` holds f_0..f_(n-1); the table
  /// is padded as CoMD pads it (f_-1 = f_0, f_n = f_(n+1) = f_(n-1)).
  static CubicTable comd_quadratic(const std::vector<double>& f, double delta);

  [[nodiscard]] double value(int m, double p) const {
    const auto& k = c[static_cast<std::size_t>(m)];
    return ((k[3] * p + k[4]) * p + k[5]) * p + k[6];
  }
  [[nodiscard]] double derivative(int m, double p) const {
    const auto& k = c[static_cast<std::size_t>(m)];
    return (k[0] * p + k[1]) * p + k[2];
  }
};

}  // namespace molstep::md::potentials
