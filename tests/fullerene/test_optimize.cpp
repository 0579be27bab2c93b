// SPDX-License-Identifier: MIT
// Geometry optimisation and per-isomer properties: the icosahedral cages reach the force
// field's exact minimum (digest section 6, "extra oracles"), larger and strained isomers
// converge, failures are reported, and the Hueckel spectrum has its known values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/embed.hpp"
#include "molstep/fullerene/optimize.hpp"
#include "molstep/fullerene/properties.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "support/fullerene_isomers.hpp"

namespace {

using namespace molstep::fullerene;
using Vec = std::array<double, 3>;

using molstep::test::c20;
using molstep::test::c60;
using molstep::test::from_spiral;

std::vector<Vec> start(const CubicGraph& g) { return spherical_projection(g, tutte_layout(g)); }

/// Tighter gradient tests than the default, to get close to the minimum: as close as the
/// golden-section search resolves (steps of about 1e-4 A; E then ends between 1e-8 and 1e-5,
/// bonds within 1e-4 A), and closer with the Wolfe search, which has no such floor.
const std::vector<OptimizeOptions> kTight{{.gradient_tolerance = 1e-3, .line_search = LineSearch::golden},
                                          {.gradient_tolerance = 1e-4, .line_search = LineSearch::wolfe}};

std::string name(const OptimizeOptions& o) { return o.line_search == LineSearch::golden ? "golden" : "wolfe"; }

double distance(const Vec& a, const Vec& b) { return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }

}  // namespace

TEST(FullereneOptimize, DodecahedronReachesTheExactMinimum) {
  for (const OptimizeOptions& tight : kTight) {
  SCOPED_TRACE(name(tight));
  const CubicGraph g = c20();
  std::vector<Vec> x = start(g);
  const OptimizeResult r = optimize(g, x, tight);
  ASSERT_EQ(r.status, OptimizeStatus::converged);
  EXPECT_LT(r.grad_norm, 1e-3);
  EXPECT_LT(r.energy, 1e-5);
  for (int a = 0; a < g.size(); ++a)
    for (const int b : g.adj[a]) EXPECT_NEAR(distance(x[a], x[b]), 1.479, 1e-4);
  const IsomerProperties p = isomer_properties(ForceField(g), x);
  EXPECT_NEAR(p.circumradius, 2.0725, 1e-4);
  EXPECT_NEAR(p.mean_radius, 2.0725, 1e-4);
  EXPECT_LT(p.bond_rmsd, 1e-4);
  EXPECT_LT(p.angle_rmsd, 1e-2);
  EXPECT_LT(p.dihedral_rmsd, 1e-2);
  // Regular dodecahedron of edge a: V = (15 + 7 sqrt 5)/4 a^3, A = 3 sqrt(25 + 10 sqrt 5) a^2.
  const double a = 1.479;
  EXPECT_NEAR(p.volume, (15 + 7 * std::sqrt(5.0)) / 4 * a * a * a, 1e-3);
  EXPECT_NEAR(p.area, 3 * std::sqrt(25 + 10 * std::sqrt(5.0)) * a * a, 1e-3);
  EXPECT_NEAR(p.sphericity, 0.9105, 1e-4);
  EXPECT_NEAR(p.homo_lumo_gap, 0.0, 1e-12);
  }
}

TEST(FullereneOptimize, BuckminsterfullereneReachesTheExactMinimum) {
  for (const OptimizeOptions& tight : kTight) {
  SCOPED_TRACE(name(tight));
  const CubicGraph g = c60();
  std::vector<Vec> x = start(g);
  const OptimizeResult r = optimize(g, x, tight);
  ASSERT_EQ(r.status, OptimizeStatus::converged);
  EXPECT_LT(r.energy, 1e-5);
  const ForceField ff(g);
  int hh = 0, hp = 0;
  for (int a = 0; a < g.size(); ++a)
    for (int k = 0; k < 3; ++k) {
      const double r_ab = distance(x[a], x[g.adj[a][k]]);
      hh += std::abs(r_ab - 1.401) < 1e-4;
      hp += std::abs(r_ab - 1.458) < 1e-4;
    }
  EXPECT_EQ(hh, 2 * 30);
  EXPECT_EQ(hp, 2 * 60);
  const IsomerProperties p = isomer_properties(ff, x);
  EXPECT_NEAR(p.circumradius, 3.5621, 1e-4);
  EXPECT_NEAR(p.homo_lumo_gap, 0.7566, 1e-4);
  EXPECT_GT(p.sphericity, 0.96);
  EXPECT_LT(p.sphericity, 1.0);
  }
}

TEST(FullereneOptimize, FlatnessTermKeepsTheFlatMinimumOfC60) {
  // C60-Ih's faces are planar at the Wirz minimum, so the flatness term changes nothing there.
  for (OptimizeOptions options : kTight) {
  SCOPED_TRACE(name(options));
  const CubicGraph g = c60();
  std::vector<Vec> x = start(g);
  options.flatness = true;
  const OptimizeResult r = optimize(g, x, options);
  ASSERT_EQ(r.status, OptimizeStatus::converged);
  EXPECT_LT(r.energy, 1e-5);
  EXPECT_NEAR(isomer_properties(ForceField(g), x).circumradius, 3.5621, 1e-4);
  }
}

TEST(FullereneOptimize, StrainedAndLargeIsomersConvergeWithinTheDefaultBudget) {
  for (const auto& [atoms, pentagons] : std::vector<std::pair<int, std::array<int, 12>>>{
           {28, {1, 2, 3, 5, 7, 9, 10, 11, 12, 13, 14, 15}},
           {40, {1, 2, 3, 4, 11, 12, 15, 16, 19, 20, 21, 22}},
           {70, {1, 7, 9, 11, 13, 15, 27, 29, 31, 33, 35, 37}},
           {200, {1, 7, 10, 28, 32, 53, 76, 83, 85, 90, 96, 100}}}) {
    const CubicGraph g = from_spiral(atoms, pentagons);
    std::vector<Vec> x = start(g);
    const OptimizeResult r = optimize(g, x);
    EXPECT_EQ(r.status, OptimizeStatus::converged) << "C" << atoms;
    EXPECT_LE(r.iterations, 5 * atoms);
    EXPECT_LT(r.grad_norm, 1e-2);
    const IsomerProperties p = isomer_properties(ForceField(g), x);
    EXPECT_NEAR(p.energy, r.energy, 1e-12 * (1 + r.energy));
    EXPECT_LT(p.bond_rmsd, 0.05) << "C" << atoms;
  }
}

TEST(FullereneOptimize, IsDeterministic) {
  const CubicGraph g = from_spiral(70, {1, 7, 9, 11, 13, 15, 27, 29, 31, 33, 35, 37});
  std::vector<Vec> x = start(g), y = start(g);
  const OptimizeResult rx = optimize(g, x), ry = optimize(g, y);
  EXPECT_EQ(rx.iterations, ry.iterations);
  EXPECT_EQ(rx.energy, ry.energy);
  EXPECT_EQ(x, y);
}

TEST(FullereneOptimize, NanCoordinatesFailWithoutCrashing) {
  const CubicGraph g = c60();
  std::vector<Vec> x = start(g);
  x[17][1] = std::numeric_limits<double>::quiet_NaN();
  const OptimizeResult r = optimize(g, x);
  EXPECT_EQ(r.status, OptimizeStatus::failed);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_TRUE(std::isnan(r.energy));
}

TEST(FullereneOptimize, RunningOutOfIterationsFails) {
  const CubicGraph g = c60();
  std::vector<Vec> x = start(g);
  const OptimizeResult r = optimize(g, x, {.max_iterations = 3});
  EXPECT_EQ(r.status, OptimizeStatus::failed);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_TRUE(std::isfinite(r.energy));
}

TEST(FullereneOptimize, UnreachableToleranceStopsWhenTheLineSearchStalls) {
  // Golden-section search resolves steps of about 1e-4 A, the Wolfe search energies to
  // round-off; below that no step lowers the energy and the run stops as failed instead of
  // repeating the same iteration to 5 N.
  for (const LineSearch search : {LineSearch::golden, LineSearch::wolfe}) {
    const CubicGraph g = c20();
    std::vector<Vec> x = start(g);
    const OptimizeResult r = optimize(g, x, {.gradient_tolerance = 1e-12, .line_search = search});
    EXPECT_EQ(r.status, OptimizeStatus::failed);
    EXPECT_LT(r.iterations, 5 * g.size());
    EXPECT_LT(r.energy, search == LineSearch::golden ? 1e-5 : 1e-10);
  }
}

TEST(FullereneOptimize, RejectsPositionsOfTheWrongCount) {
  const CubicGraph g = c20();
  std::vector<Vec> x(19, {0.0, 0.0, 0.0});
  EXPECT_THROW((void)optimize(g, x), molstep::Error);
}

TEST(FullereneGeometryProperties, HueckelSpectrumOfC60) {
  const std::vector<double> lambda = adjacency_spectrum(c60());
  ASSERT_EQ(lambda.size(), 60u);
  EXPECT_TRUE(std::is_sorted(lambda.rbegin(), lambda.rend()));
  EXPECT_NEAR(lambda.front(), 3.0, 1e-12);
  EXPECT_NEAR(std::accumulate(lambda.begin(), lambda.end(), 0.0), 0.0, 1e-10);  // trace
  double squares = 0;
  for (const double l : lambda) squares += l * l;
  EXPECT_NEAR(squares, 180.0, 1e-9);  // trace of A^2: 3 N
  // HOMO h_u (5-fold) at (sqrt 5 - 1)/2, LUMO t_1u (3-fold); reference values from an independent
  // Jacobi diagonalisation of the same matrix. The gap is the textbook 0.757 |beta|.
  for (int i = 25; i < 30; ++i) EXPECT_NEAR(lambda[i], 0.6180339887498949, 1e-10);
  for (int i = 30; i < 33; ++i) EXPECT_NEAR(lambda[i], -0.13856426511017, 1e-12);
  EXPECT_NEAR(homo_lumo_gap(lambda), 0.75659825386007, 1e-12);
}

TEST(FullereneGeometryProperties, HueckelSpectrumOfC20IsOpenShell) {
  // Dodecahedron: 3, sqrt 5 (x3), 1 (x5), 0 (x4), -2 (x4), -sqrt 5 (x3).
  const std::vector<double> lambda = adjacency_spectrum(c20());
  const double r5 = std::sqrt(5.0);
  const std::vector<double> want{3, r5, r5, r5, 1, 1, 1, 1, 1, 0, 0, 0, 0, -2, -2, -2, -2, -r5, -r5, -r5};
  ASSERT_EQ(lambda.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(lambda[i], want[i], 1e-12) << i;
  EXPECT_NEAR(homo_lumo_gap(lambda), 0.0, 1e-12);
}
