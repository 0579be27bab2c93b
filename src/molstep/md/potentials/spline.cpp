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

}  // namespace molstep::md::potentials
