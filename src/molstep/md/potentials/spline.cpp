// SPDX-License-Identifier: MIT
#include "molstep/md/potentials/spline.hpp"

namespace molstep::md::potentials {

CubicTable CubicTable::build(const std::vector<double>& f, int n, double delta) {
  CubicTable t;
  t.n = n;
  t.delta = delta;
  t.c.assign(static_cast<std::size_t>(n) + 1, std::array<double, 7>{});
  auto& s = t.c;
  const auto at = [](int m) { return static_cast<std::size_t>(m); };
  for (int m = 1; m <= n; ++m) s[at(m)][6] = f[at(m)];
  s[1][5] = s[2][6] - s[1][6];
  s[2][5] = 0.5 * (s[3][6] - s[1][6]);
  s[at(n - 1)][5] = 0.5 * (s[at(n)][6] - s[at(n - 2)][6]);
  s[at(n)][5] = s[at(n)][6] - s[at(n - 1)][6];
  for (int m = 3; m <= n - 2; ++m)
    s[at(m)][5] = ((s[at(m - 2)][6] - s[at(m + 2)][6]) + 8.0 * (s[at(m + 1)][6] - s[at(m - 1)][6])) / 12.0;
  for (int m = 1; m <= n - 1; ++m) {
    s[at(m)][4] = 3.0 * (s[at(m + 1)][6] - s[at(m)][6]) - 2.0 * s[at(m)][5] - s[at(m + 1)][5];
    s[at(m)][3] = s[at(m)][5] + s[at(m + 1)][5] - 2.0 * (s[at(m + 1)][6] - s[at(m)][6]);
  }
  s[at(n)][4] = 0.0;
  s[at(n)][3] = 0.0;
  for (int m = 1; m <= n; ++m) {
    s[at(m)][2] = s[at(m)][5] / delta;
    s[at(m)][1] = 2.0 * s[at(m)][4] / delta;
    s[at(m)][0] = 3.0 * s[at(m)][3] / delta;
  }
  return t;
}

CubicTable CubicTable::comd_quadratic(const std::vector<double>& f, double delta) {
  const int n = static_cast<int>(f.size());
  const auto tt = [&](int i) { return f[static_cast<std::size_t>(i < 0 ? 0 : (i > n - 1 ? n - 1 : i))]; };
  CubicTable t;
  t.n = n;
  t.delta = delta;
  t.c.assign(static_cast<std::size_t>(n) + 1, std::array<double, 7>{});
  const double inv = 1.0 / delta;
  for (int ii = 0; ii < n; ++ii) {
    auto& k = t.c[static_cast<std::size_t>(ii) + 1];
    const double g1 = tt(ii + 1) - tt(ii - 1);
    const double g2 = tt(ii + 2) - tt(ii);
    k[6] = tt(ii);
    k[5] = 0.5 * g1;
    k[4] = 0.5 * (tt(ii + 1) + tt(ii - 1) - 2.0 * tt(ii));
    k[3] = 0.0;
    k[2] = 0.5 * g1 * inv;
    k[1] = 0.5 * (g2 - g1) * inv;
    k[0] = 0.0;
  }
  return t;
}

}  // namespace molstep::md::potentials
