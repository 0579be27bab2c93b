// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>

#include "molstep/core/counter_rng.hpp"
#include "molstep/core/park_rng.hpp"

using molstep::core::CounterRng;
using molstep::core::ParkRng;

TEST(ParkRng, MinimalStandardSequence) {
  // Park & Miller (1988): from seed 1 the 10,000th value of the generator is 1043618065.
  ParkRng rng(1);
  double u = 0.0;
  for (int k = 0; k < 10000; ++k) u = rng.uniform();
  EXPECT_EQ(std::llround(u * 2147483647.0), 1043618065);
}

TEST(ParkRng, ResetDependsOnlyOnSeedAndCoordinates) {
  const double c[3] = {1.25, -0.5, 3.0};
  ParkRng a(99), b(12345);
  b.uniform();
  a.reset(7, c);
  b.reset(7, c);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(a.uniform(), b.uniform());
  const double d[3] = {1.25, -0.5, 3.0000000000000004};
  a.reset(7, c);
  b.reset(7, d);
  EXPECT_NE(a.uniform(), b.uniform());
}

TEST(ParkRng, GaussianMoments) {
  ParkRng rng(4321);
  double sum = 0.0, sum2 = 0.0;
  const int n = 200000;
  for (int k = 0; k < n; ++k) {
    const double g = rng.gaussian();
    sum += g;
    sum2 += g * g;
  }
  // Standard errors: 1/sqrt(n) = 0.0022 for the mean, sqrt(2/n) = 0.0032 for the variance.
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum2 / n, 1.0, 0.015);
}

TEST(CounterRng, KeyedAndUniform) {
  const CounterRng rng(42);
  EXPECT_EQ(rng.uniform(5, 10, 1), rng.uniform(5, 10, 1));
  EXPECT_NE(rng.uniform(5, 10, 1), rng.uniform(5, 11, 1));
  EXPECT_NE(rng.uniform(5, 10, 1), rng.uniform(6, 10, 1));
  EXPECT_NE(rng.uniform(5, 10, 1), rng.uniform(5, 10, 2));
  double sum = 0.0, sum2 = 0.0;
  const int n = 200000;
  for (int k = 0; k < n; ++k) {
    const double u = rng.uniform(static_cast<std::uint64_t>(k), 3, 0);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    sum2 += u * u;
  }
  // Mean 1/2 (standard error 0.00065), variance 1/12.
  EXPECT_NEAR(sum / n, 0.5, 0.003);
  EXPECT_NEAR(sum2 / n - 0.25, 1.0 / 12.0, 0.002);
}
