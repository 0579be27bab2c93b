// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "molstep/core/args.hpp"

using molstep::core::ArgReader;
using molstep::core::parse_type_range;

TEST(Args, TypeRanges) {
  int lo = 0, hi = 0;
  EXPECT_TRUE(parse_type_range("2", 3, lo, hi));
  EXPECT_EQ(lo, 2);
  EXPECT_EQ(hi, 2);
  EXPECT_TRUE(parse_type_range("*", 3, lo, hi));
  EXPECT_EQ(lo, 1);
  EXPECT_EQ(hi, 3);
  EXPECT_TRUE(parse_type_range("2*", 3, lo, hi));
  EXPECT_EQ(lo, 2);
  EXPECT_EQ(hi, 3);
  EXPECT_TRUE(parse_type_range("*2", 3, lo, hi));
  EXPECT_EQ(lo, 1);
  EXPECT_EQ(hi, 2);
  EXPECT_FALSE(parse_type_range("4", 3, lo, hi));
  EXPECT_FALSE(parse_type_range("0", 3, lo, hi));
  EXPECT_FALSE(parse_type_range("3*1", 3, lo, hi));
  EXPECT_FALSE(parse_type_range("a", 3, lo, hi));
}

TEST(Args, ErrorsNameFileLineAndCommand) {
  const ArgReader a("mass", {"1", "heavy"}, {"in.test", 7});
  try {
    (void)a.number(1, "the mass");
    FAIL() << "expected an error";
  } catch (const molstep::Error& e) {
    EXPECT_EQ(std::string(e.what()), "in.test:7: mass: expected a number for the mass, got 'heavy'");
    EXPECT_EQ(e.loc().line, 7);
  }
  EXPECT_THROW(a.expect_count(3, 3, "TYPE MASS"), molstep::Error);
  EXPECT_THROW((void)a.at(2, "extra"), molstep::Error);
}

TEST(Args, NumbersRejectTrailingGarbageAndNonFinite) {
  double v = 0.0;
  EXPECT_TRUE(molstep::core::parse_double("1.5e3", v));
  EXPECT_DOUBLE_EQ(v, 1500.0);
  EXPECT_FALSE(molstep::core::parse_double("1.5x", v));
  EXPECT_FALSE(molstep::core::parse_double("nan", v));
  EXPECT_FALSE(molstep::core::parse_double("", v));
  long long n = 0;
  EXPECT_TRUE(molstep::core::parse_integer("-12", n));
  EXPECT_EQ(n, -12);
  EXPECT_FALSE(molstep::core::parse_integer("1.0", n));
}
