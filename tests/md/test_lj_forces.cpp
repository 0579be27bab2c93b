// SPDX-License-Identifier: MIT
// Lennard-Jones forces: analytic pair values, F = -dE/dx by central differences, Newton's third
// law, and agreement between half/full lists and newton on/off.
#include <gtest/gtest.h>

#include <cmath>

#include "molstep/core/simd.hpp"
#include "support/finite_difference.hpp"
#include "support/lj_system.hpp"

using namespace molstep;
using molstep::test::compute_pair;

TEST(LjPair, AnalyticValues) {
  auto pair = test::two_type_lj(false);
  const auto eval = pair.evaluator();
  double e = 0.0;
  // At r = 2^(1/6) sigma the force vanishes and E = -eps.
  const double rmin2 = std::pow(2.0, 1.0 / 3.0);
  EXPECT_NEAR(eval.operator()<true>(rmin2, 1, 1, e), 0.0, 1e-14);
  EXPECT_NEAR(e, -1.0, 1e-14);
  // At r = sigma, E = 0 and -dE/dr = 24 eps / sigma.
  EXPECT_NEAR(eval.operator()<true>(1.0, 1, 1, e), 24.0, 1e-13);
  EXPECT_NEAR(e, 0.0, 1e-14);
  // Mixed 1-2 (geometric): eps = sqrt(0.5), sigma = sqrt(1.2), cutoff = sqrt(2.5*2.2).
  const double eps = std::sqrt(0.5), sig = std::sqrt(1.2);
  const double r = 1.3, sr6 = std::pow(sig / r, 6.0);
  const double fpair = eval.operator()<true>(r * r, 1, 2, e);
  EXPECT_NEAR(e, 4.0 * eps * (sr6 * sr6 - sr6), 1e-14);
  EXPECT_NEAR(fpair, 24.0 * eps * (2.0 * sr6 * sr6 - sr6) / (r * r), 1e-13);
  // Beyond the cutoff: nothing.
  EXPECT_EQ(eval.operator()<true>(2.5 * 2.2 + 1e-9, 1, 2, e), 0.0);
  EXPECT_EQ(e, 0.0);
  EXPECT_EQ(eval.operator()<true>(2.6 * 2.6, 1, 1, e), 0.0);
}

TEST(LjPair, ShiftMakesEnergyVanishAtCutoff) {
  auto pair = test::two_type_lj(true);
  double e = 1.0;
  (void)pair.evaluator().operator()<true>(2.5 * 2.5 * (1.0 - 1e-15), 1, 1, e);
  EXPECT_NEAR(e, 0.0, 1e-12);
}

TEST(LjForces, MatchCentralFiniteDifferences) {
  auto pair = test::two_type_lj(true);
  test::expect_forces_match_finite_differences(test::disordered_lj_system(4, 0.15), pair, 0.3,
                                               {1, 2, 3, 77, 150, 256});
}

TEST(LjForces, NetForceIsZero) {
  auto sys = test::disordered_lj_system(5, 0.2);
  auto pair = test::two_type_lj(false);
  md::neighbor::Neighbor nb;
  compute_pair(sys, pair, nb);
  double sx = 0, sy = 0, sz = 0, fmax = 0;
  for (std::size_t i = 0; i < sys.atoms.size(); ++i) {
    sx += sys.atoms.fx[i];
    sy += sys.atoms.fy[i];
    sz += sys.atoms.fz[i];
    fmax = std::max(fmax, std::fabs(sys.atoms.fx[i]));
  }
  const double tol = 1e-13 * fmax * static_cast<double>(sys.atoms.size());
  EXPECT_NEAR(sx, 0.0, tol);
  EXPECT_NEAR(sy, 0.0, tol);
  EXPECT_NEAR(sz, 0.0, tol);
}

namespace {

struct Variant {
  bool full, newton;
};

void expect_same_physics(const Variant& v) {
  auto ref = test::disordered_lj_system(5, 0.2);
  auto sys = ref;
  auto pair = test::two_type_lj(true);
  md::neighbor::Neighbor a, b;
  b.settings.full = v.full;
  b.settings.newton = v.newton;
  const auto ea = compute_pair(ref, pair, a);
  const auto eb = compute_pair(sys, pair, b);
  EXPECT_NEAR(ea.energy, eb.energy, 1e-12 * std::fabs(ea.energy));
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(ea.virial[k], eb.virial[k], 1e-11 * std::fabs(ea.virial[0]));
  double fmax = 0.0;
  for (std::size_t i = 0; i < ref.atoms.size(); ++i)
    fmax = std::max({fmax, std::fabs(ref.atoms.fx[i]), std::fabs(ref.atoms.fy[i]), std::fabs(ref.atoms.fz[i])});
  // Only the summation order differs: agreement to round-off of the largest force.
  const double tol = 1e-13 * fmax;
  for (std::size_t i = 0; i < ref.atoms.size(); ++i) {
    const std::size_t j = test::index_of(sys, ref.atoms.id[i]);
    EXPECT_NEAR(ref.atoms.fx[i], sys.atoms.fx[j], tol);
    EXPECT_NEAR(ref.atoms.fy[i], sys.atoms.fy[j], tol);
    EXPECT_NEAR(ref.atoms.fz[i], sys.atoms.fz[j], tol);
  }
}

}  // namespace

TEST(LjForces, FullListAgreesWithHalfList) { expect_same_physics({true, true}); }
TEST(LjForces, NewtonOffAgreesWithNewtonOn) { expect_same_physics({false, false}); }

TEST(LjForces, VirialMatchesSumOfPairTerms) {
  // For a pair potential W = sum over pairs r_ij . F_ij; with forces F_i this equals
  // sum_i x_i . F_i over an unwrapped cluster only, so check the trace against a direct sum.
  auto sys = test::disordered_lj_system(4, 0.1);
  auto pair = test::two_type_lj(false);
  md::neighbor::Neighbor nb;
  nb.settings.skin = 0.0;
  const auto ev = compute_pair(sys, pair, nb);
  const auto eval = pair.evaluator();
  double w = 0.0;
  const auto& a = sys.atoms;
  const double L = sys.box.length(0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      double d[3] = {a.x[i] - a.x[j], a.y[i] - a.y[j], a.z[i] - a.z[j]};
      for (double& c : d) c -= L * std::round(c / L);
      const double rsq = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      double e;
      w += rsq * eval.operator()<false>(rsq, a.type[i], a.type[j], e);
    }
  EXPECT_NEAR(ev.virial[0] + ev.virial[1] + ev.virial[2], w, 1e-10 * std::fabs(w));
}

namespace {

// Forces, energy and virial of one configuration with the SIMD kernel switched on or off.
struct Result {
  md::System system;
  md::potentials::EnergyVirial ev;
};

Result run_kernel(bool simd, bool newton, bool two_types) {
  const bool saved = core::simd_enabled();
  core::set_simd_enabled(simd);
  Result r{test::disordered_lj_system(5, 0.1), {}};
  if (!two_types)
    for (auto& t : r.system.atoms.type) t = 1;
  auto pair = test::two_type_lj(true);
  md::neighbor::Neighbor nb;
  nb.settings.newton = newton;
  r.ev = compute_pair(r.system, pair, nb);
  core::set_simd_enabled(saved);
  return r;
}

}  // namespace

class LjSimd : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(LjSimd, VectorKernelAgreesWithScalarKernel) {
  const auto [newton, two_types] = GetParam();
  if (!core::simd_enabled()) GTEST_SKIP() << "this processor has no AVX2/FMA: only the scalar kernel runs";
  const auto a = run_kernel(false, newton, two_types);
  const auto b = run_kernel(true, newton, two_types);
  EXPECT_NEAR(a.ev.energy, b.ev.energy, 1e-12 * std::fabs(a.ev.energy));
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(a.ev.virial[k], b.ev.virial[k], 1e-11 * std::fabs(a.ev.virial[0]));
  ASSERT_EQ(a.system.atoms.id, b.system.atoms.id);
  for (std::size_t i = 0; i < a.system.atoms.size(); ++i) {
    EXPECT_NEAR(a.system.atoms.fx[i], b.system.atoms.fx[i], 1e-11);
    EXPECT_NEAR(a.system.atoms.fy[i], b.system.atoms.fy[i], 1e-11);
    EXPECT_NEAR(a.system.atoms.fz[i], b.system.atoms.fz[i], 1e-11);
  }
}

INSTANTIATE_TEST_SUITE_P(NewtonAndTypes, LjSimd,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()));
