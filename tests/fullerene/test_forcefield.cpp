// SPDX-License-Identifier: MIT
// Wirz force field: the analytic gradient against central differences, invariance under rigid
// motions, the constants each bond of C20 and C60 gets, and rejection of non-fullerenes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/embed.hpp"
#include "molstep/fullerene/forcefield.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "support/fullerene_isomers.hpp"

namespace {

using namespace molstep::fullerene;
using Vec = std::array<double, 3>;

using molstep::test::c20;
using molstep::test::c60;
using molstep::test::from_spiral;

/// Cages with every mix of faces around an atom: C20-Ih (all pentagons), C28-Td, a C40 with
/// fused pentagons, C60-Ih, C70-D5h, and a C200 with a pentagon cluster.
std::vector<CubicGraph> isomers() {
  return {c20(),
          from_spiral(28, {1, 2, 3, 5, 7, 9, 10, 11, 12, 13, 14, 15}),
          from_spiral(40, {1, 2, 3, 4, 11, 12, 15, 16, 19, 20, 21, 22}),
          c60(),
          from_spiral(70, {1, 7, 9, 11, 13, 15, 27, 29, 31, 33, 35, 37}),
          from_spiral(200, {1, 2, 9, 11, 18, 42, 81, 90, 94, 97, 98, 101})};
}

/// The projected start, rescaled to bond lengths near 1.45 A and shaken by up to `amplitude`.
std::vector<Vec> shaken_start(const CubicGraph& g, double amplitude, unsigned seed) {
  std::vector<Vec> x = spherical_projection(g, tutte_layout(g), 1.45);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  for (Vec& p : x)
    for (double& c : p) c += u(rng);
  return x;
}

void expect_gradient_matches_finite_differences(const ForceField& ff, std::vector<Vec> x) {
  std::vector<Vec> grad(x.size());
  const double e = ff.energy_and_gradient(x, grad);
  EXPECT_DOUBLE_EQ(e, ff.energy(x));
  double largest = 0;
  for (const Vec& g : grad)
    for (const double c : g) largest = std::max(largest, std::abs(c));
  const double h = 1e-5;
  for (std::size_t a = 0; a < x.size(); ++a)
    for (int c = 0; c < 3; ++c) {
      const double keep = x[a][c];
      x[a][c] = keep + h;
      const double ep = ff.energy(x);
      x[a][c] = keep - h;
      const double em = ff.energy(x);
      x[a][c] = keep;
      ASSERT_NEAR(grad[a][c], (ep - em) / (2 * h), 1e-6 * largest)
          << "C" << x.size() << " atom " << a << " component " << c;
    }
}

Vec rotate(const Vec& p, const std::array<Vec, 3>& r) {
  return {r[0][0] * p[0] + r[0][1] * p[1] + r[0][2] * p[2], r[1][0] * p[0] + r[1][1] * p[1] + r[1][2] * p[2],
          r[2][0] * p[0] + r[2][1] * p[1] + r[2][2] * p[2]};
}

}  // namespace

TEST(FullereneForceField, GradientMatchesFiniteDifferences) {
  for (const CubicGraph& g : isomers())
    for (unsigned seed = 1; seed <= 2; ++seed)
      expect_gradient_matches_finite_differences(ForceField(g), shaken_start(g, 0.2, seed));
}

TEST(FullereneForceField, GradientMatchesFiniteDifferencesFarFromEquilibrium) {
  const CubicGraph g = c60();
  expect_gradient_matches_finite_differences(ForceField(g), spherical_projection(g, tutte_layout(g), 6.0));
}

TEST(FullereneForceField, FlatnessGradientMatchesFiniteDifferences) {
  for (const CubicGraph& g : isomers()) {
    const ForceField flat(g, {.flatness = true});
    const std::vector<Vec> x = shaken_start(g, 0.2, 7);
    EXPECT_GT(flat.energy(x), ForceField(g).energy(x));
    expect_gradient_matches_finite_differences(flat, x);
  }
}

TEST(FullereneForceField, EnergyIsInvariantUnderRigidMotionsAndGradientRotates) {
  const CubicGraph g = isomers()[4];
  const ForceField ff(g, {.flatness = true});
  const std::vector<Vec> x = shaken_start(g, 0.2, 3);
  // Rotation by 0.7 rad about the unit axis (2, -1, 2)/3, then a shift.
  const double c = std::cos(0.7), s = std::sin(0.7);
  const Vec n{2.0 / 3, -1.0 / 3, 2.0 / 3};
  std::array<Vec, 3> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double cross = (i == j) ? 0.0 : ((j == (i + 1) % 3) ? -n[(i + 2) % 3] : n[(i + 1) % 3]);
      r[i][j] = (i == j ? c : 0.0) + (1 - c) * n[i] * n[j] + s * cross;
    }
  std::vector<Vec> y(x.size());
  for (std::size_t a = 0; a < x.size(); ++a) {
    y[a] = rotate(x[a], r);
    y[a][0] += 3.5;
    y[a][1] -= 1.25;
    y[a][2] += 40.0;
  }
  std::vector<Vec> gx(x.size()), gy(x.size());
  const double ex = ff.energy_and_gradient(x, gx), ey = ff.energy_and_gradient(y, gy);
  EXPECT_NEAR(ey, ex, 1e-10 * ex);
  Vec net{0, 0, 0};
  double largest = 0;
  for (std::size_t a = 0; a < x.size(); ++a) {
    const Vec want = rotate(gx[a], r);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(gy[a][k], want[k], 1e-8 * (1 + std::abs(want[k])));
      net[k] += gx[a][k];
      largest = std::max(largest, std::abs(gx[a][k]));
    }
  }
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(net[k], 0.0, 1e-10 * largest * x.size()) << "net force";
}

TEST(FullereneForceField, BondConstantsFollowTheFacesTheBondSeparates) {
  const ForceField c20_ff(c20());
  for (const AtomTerms& t : c20_ff.atoms())
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(t.arc[k].r0, 1.479);
      EXPECT_EQ(t.arc[k].cos_dihedral0, wirz::constants().dihedral_cos[0]);
    }
  const ForceField c60_ff(c60());
  int hh = 0, hp = 0;
  for (const AtomTerms& t : c60_ff.atoms())
    for (int k = 0; k < 3; ++k) {
      hh += t.arc[k].r0 == 1.401;
      hp += t.arc[k].r0 == 1.458;
      EXPECT_EQ(t.arc[k].k_dihedral, wirz::constants().dihedral_force[2]);  // two hexagons and a pentagon at every atom
    }
  EXPECT_EQ(hh, 2 * 30);  // per arc: each bond from both ends
  EXPECT_EQ(hp, 2 * 60);
  EXPECT_EQ(c60_ff.faces().size(), 32u);
}

TEST(FullereneForceField, RejectsAGraphThatIsNotAFullerene) {
  // The cube: cubic and planar, but its faces are squares.
  CubicGraph cube;
  cube.adj = {{1, 3, 4}, {0, 5, 2}, {1, 6, 3}, {2, 7, 0}, {0, 7, 5}, {1, 4, 6}, {2, 5, 7}, {3, 6, 4}};
  EXPECT_THROW(ForceField{cube}, molstep::Error);
}
