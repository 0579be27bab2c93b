// SPDX-License-Identifier: MIT
#include "support/finite_difference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/lj_system.hpp"

namespace molstep::test {

void expect_forces_match_finite_differences(const md::System& system, md::potentials::PairStyle& pair, double skin,
                                            std::initializer_list<std::int64_t> ids, double h, double rel) {
  const auto energy_and_forces = [&](md::System& s) {
    md::neighbor::Neighbor nb;
    nb.settings.skin = skin;
    return compute_pair(s, pair, nb).energy;
  };
  md::System sys = system;
  energy_and_forces(sys);
  double fmax = 0.0;
  for (std::size_t i = 0; i < sys.atoms.size(); ++i)
    fmax = std::max({fmax, std::fabs(sys.atoms.fx[i]), std::fabs(sys.atoms.fy[i]), std::fabs(sys.atoms.fz[i])});
  for (std::int64_t id : ids) {
    const std::size_t i0 = index_of(sys, id);
    const double analytic[3] = {sys.atoms.fx[i0], sys.atoms.fy[i0], sys.atoms.fz[i0]};
    for (int d = 0; d < 3; ++d) {
      double e[2];
      for (int sgn = 0; sgn < 2; ++sgn) {
        md::System moved = sys;
        const std::size_t i = index_of(moved, id);
        auto& c = d == 0 ? moved.atoms.x : d == 1 ? moved.atoms.y : moved.atoms.z;
        c[i] += sgn == 0 ? h : -h;
        e[sgn] = energy_and_forces(moved);
      }
      EXPECT_NEAR(analytic[d], -(e[0] - e[1]) / (2.0 * h), rel * fmax) << "atom " << id << " component " << d;
    }
  }
}

}  // namespace molstep::test
