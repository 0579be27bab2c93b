// SPDX-License-Identifier: MIT
// The optimiser's Wolfe line search (line_search.hpp) on functions of one variable whose minima
// are known: where it stops, how many probes it takes, and what it does with a direction that
// does not descend, a minimum beyond the largest step, and energies that are not finite.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "molstep/fullerene/line_search.hpp"

namespace {

using molstep::fullerene::cubic_probe;
using molstep::fullerene::LineStep;
using molstep::fullerene::wolfe_search;

/// f(alpha) and f'(alpha) from `f` and `df`, recording every alpha probed.
template <class F, class D>
struct Probe {
  F f;
  D df;
  std::vector<double>* probed;
  void operator()(double a, double& e, double& s) const {
    probed->push_back(a);
    e = f(a);
    s = df(a);
  }
};
template <class F, class D>
Probe<F, D> probe(F f, D df, std::vector<double>& probed) {
  return {f, df, &probed};
}

// The strong Wolfe conditions with wolfe_search's constants.
void expect_wolfe(const LineStep<double>& r, double e0, double slope0, double slope) {
  EXPECT_LE(r.energy, e0 + 1e-4 * r.alpha * slope0);
  EXPECT_LE(std::abs(slope), 0.5 * std::abs(slope0));
}

}  // namespace

TEST(FullereneLineSearch, QuadraticMinimumInOneCubicStep) {
  // f = (a - 0.3)^2 from a first probe at 0.5: lower than f(0) but rising too steeply (slope
  // 0.4 > 0.5 * 0.6), so the minimum lies in (0, 0.5), and the cubic through both ends is the
  // parabola itself: its minimum 0.3, where the slope is 0.
  std::vector<double> probed;
  const auto f = [](double a) { return (a - 0.3) * (a - 0.3); };
  const auto df = [](double a) { return 2 * (a - 0.3); };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), f(0), df(0), 0.5, 1.0);
  ASSERT_EQ(probed.size(), 2u);
  EXPECT_EQ(probed[0], 0.5);
  EXPECT_NEAR(r.alpha, 0.3, 1e-12);
  EXPECT_TRUE(r.at_last_probe);
  expect_wolfe(r, f(0), df(0), df(r.alpha));
}

TEST(FullereneLineSearch, DoublesTheStepWhileTheSlopeIsSteep) {
  // The same parabola from 0.05: the slopes at 0.05 and 0.1 (-0.5, -0.4) are still steeper than
  // half the start's (-0.6), the one at 0.2 (-0.2) is not: 0.2 is taken.
  std::vector<double> probed;
  const auto f = [](double a) { return (a - 0.3) * (a - 0.3); };
  const auto df = [](double a) { return 2 * (a - 0.3); };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), f(0), df(0), 0.05, 1.0);
  EXPECT_EQ(probed, (std::vector<double>{0.05, 0.1, 0.2}));
  EXPECT_EQ(r.alpha, 0.2);
  expect_wolfe(r, f(0), df(0), df(r.alpha));
}

TEST(FullereneLineSearch, AcceptsTheFirstProbeWhenItIsGoodEnough) {
  std::vector<double> probed;
  const auto f = [](double a) { return std::cosh(a - 0.5); };
  const auto df = [](double a) { return std::sinh(a - 0.5); };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), f(0), df(0), 0.49, 1.0);
  EXPECT_EQ(probed.size(), 1u);
  EXPECT_EQ(r.alpha, 0.49);
  EXPECT_TRUE(r.at_last_probe);
  expect_wolfe(r, f(0), df(0), df(r.alpha));
}

TEST(FullereneLineSearch, AnAsymmetricWellMeetsTheStrongWolfeConditions) {
  // A quartic well with its minimum at 0.7 and a steep wall, probed first far beyond it.
  std::vector<double> probed;
  const auto f = [](double a) { return std::pow(a - 0.7, 4) + 0.5 * (a - 0.7) * (a - 0.7) - 3 * a; };
  const auto df = [](double a) { return 4 * std::pow(a - 0.7, 3) + (a - 0.7) - 3; };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), f(0), df(0), 8.0, 10.0);
  EXPECT_GT(r.alpha, 0);
  EXPECT_LE(probed.size(), 12u);
  expect_wolfe(r, f(0), df(0), df(r.alpha));
  EXPECT_EQ(r.at_last_probe, r.alpha == probed.back());
}

TEST(FullereneLineSearch, KeepsTheBracketEndTheSlopePointsTo) {
  // A smoothed |a - 0.3|, whose slope is near +-1 except close to the minimum. From 0.55 (lower,
  // rising: bracket [0, 0.55]) the cubic probes 0.3118, lower still and still rising but too
  // steep; the minimum then lies between 0 and 0.3118, not between 0.3118 and 0.55, where
  // probing got stuck for all 12 probes before. Now the conditions hold at the fourth probe.
  std::vector<double> probed;
  const auto f = [](double a) { return std::sqrt((a - 0.3) * (a - 0.3) + 1e-4); };
  const auto df = [](double a) { return (a - 0.3) / std::sqrt((a - 0.3) * (a - 0.3) + 1e-4); };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), f(0), df(0), 0.55, 5.0);
  EXPECT_EQ(probed.size(), 4u);
  EXPECT_LT(probed[2], probed[1]);  // to the side the slope at 0.3118 points to
  EXPECT_TRUE(r.at_last_probe);
  expect_wolfe(r, f(0), df(0), df(r.alpha));
}

TEST(FullereneLineSearch, StopsAtTheLargestStepWhileTheEnergyStillFalls) {
  std::vector<double> probed;
  const auto f = [](double a) { return -a; };
  const auto df = [](double) { return -1.0; };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), 0.0, -1.0, 0.3, 1.0);
  EXPECT_EQ(probed, (std::vector<double>{0.3, 0.6, 1.0}));
  EXPECT_EQ(r.alpha, 1.0);
  EXPECT_EQ(r.energy, -1.0);
  EXPECT_TRUE(r.at_last_probe);
}

TEST(FullereneLineSearch, NoStepAlongADirectionThatDoesNotDescend) {
  std::vector<double> probed;
  const auto f = [](double a) { return a * a; };
  const auto df = [](double a) { return 2 * a; };
  for (const double slope0 : {0.0, 1.0, std::numeric_limits<double>::quiet_NaN()}) {
    const LineStep<double> r = wolfe_search(probe(f, df, probed), 1.0, slope0, 0.1, 1.0);
    EXPECT_EQ(r.alpha, 0.0);
    EXPECT_EQ(r.energy, 1.0);
    EXPECT_FALSE(r.at_last_probe);
  }
  EXPECT_TRUE(probed.empty());
}

TEST(FullereneLineSearch, NonFiniteEnergiesShrinkTheStep) {
  // Beyond 0.25 the energy is NaN (atoms on top of each other): from a first probe at 1 the
  // step is halved into the finite side, then interpolated to a step that meets the conditions
  // (near the minimum at 0.2).
  std::vector<double> probed;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto f = [nan](double a) { return a > 0.25 ? nan : (a - 0.2) * (a - 0.2); };
  const auto df = [nan](double a) { return a > 0.25 ? nan : 2 * (a - 0.2); };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), f(0), df(0), 1.0, 1.0);
  EXPECT_GT(r.alpha, 0.1);
  EXPECT_LE(r.alpha, 0.25);
  EXPECT_TRUE(std::isfinite(r.energy));
  expect_wolfe(r, f(0), df(0), df(r.alpha));
}

TEST(FullereneLineSearch, NoLowerEnergyAnywhereGivesNoStep) {
  // A slope that promises descent and energies that never fall below e0 (round-off at the
  // bottom of a well): twelve probes, then no step.
  std::vector<double> probed;
  const auto f = [](double) { return 1.0; };
  const auto df = [](double) { return 1.0; };
  const LineStep<double> r = wolfe_search(probe(f, df, probed), 1.0, -1e-3, 0.1, 1.0);
  EXPECT_EQ(r.alpha, 0.0);
  EXPECT_EQ(r.energy, 1.0);
  EXPECT_FALSE(r.at_last_probe);
  EXPECT_LE(probed.size(), 12u);
}

TEST(FullereneLineSearch, CubicProbeStaysInsideTheBracket) {
  // The cubic through two points of a parabola is the parabola: its minimum exactly.
  EXPECT_NEAR(cubic_probe(0.0, 1.0, -2.0, 2.0, 1.0, 2.0, true), 1.0, 1e-15);
  // A minimum outside the bracket is clamped a tenth of the bracket from its end.
  EXPECT_NEAR(cubic_probe(0.0, 0.0, -1.0, 1.0, -2.0, -1.0, true), 0.9, 1e-15);
  // Reversed brackets (lo above hi) work the same way.
  EXPECT_NEAR(cubic_probe(2.0, 1.0, 2.0, 0.0, 1.0, -2.0, true), 1.0, 1e-15);
  // hi not finite: the midpoint.
  EXPECT_EQ(cubic_probe(0.0, 1.0, -2.0, 2.0, std::numeric_limits<double>::quiet_NaN(), 0.0, false), 1.0);
}
