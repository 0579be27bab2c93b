// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>

#include "molstep/core/error.hpp"
#include "molstep/md/script/expression.hpp"
#include "molstep/md/script/variables.hpp"

using molstep::md::script::evaluate;
using molstep::md::script::ExpressionContext;
using molstep::md::script::Variables;

TEST(Expression, ArithmeticAndPrecedence) {
  const ExpressionContext none;
  EXPECT_DOUBLE_EQ(evaluate("20*1", none), 20.0);
  EXPECT_DOUBLE_EQ(evaluate("1 + 2*3", none), 7.0);
  EXPECT_DOUBLE_EQ(evaluate("(1 + 2)*3", none), 9.0);
  EXPECT_DOUBLE_EQ(evaluate("2^3^2", none), 64.0);  // LAMMPS: left associative
  EXPECT_DOUBLE_EQ(evaluate("-2^2", none), 4.0);  // LAMMPS: unary minus binds tightest
  EXPECT_DOUBLE_EQ(evaluate("2^-1", none), 0.5);
  EXPECT_DOUBLE_EQ(evaluate("7 % 4", none), 3.0);
  EXPECT_DOUBLE_EQ(evaluate("1.5e2/3", none), 50.0);
  EXPECT_DOUBLE_EQ(evaluate("3 > 2 && 1 < 0", none), 0.0);
  EXPECT_DOUBLE_EQ(evaluate("3 >= 3 || 0", none), 1.0);
  EXPECT_DOUBLE_EQ(evaluate("!0 + (2 == 2) + (2 != 2)", none), 2.0);
}

TEST(Expression, Functions) {
  const ExpressionContext none;
  EXPECT_DOUBLE_EQ(evaluate("sqrt(16)", none), 4.0);
  EXPECT_DOUBLE_EQ(evaluate("exp(0) + ln(1) + log(100)", none), 3.0);
  EXPECT_DOUBLE_EQ(evaluate("floor(2.7) + ceil(2.2) + round(2.5) + abs(-1)", none), 9.0);
  EXPECT_NEAR(evaluate("cos(0) + sin(0) + atan(1)*4", none), 1.0 + M_PI, 1e-15);
}

TEST(Expression, VariablesAndKeywords) {
  Variables vars;
  vars.define("x", "index", {"2", "3"});
  vars.define("xx", "equal", {"20*v_x"});
  ExpressionContext ctx;
  ctx.variable = [&](const std::string& n) { return vars.number(n, ctx); };
  ctx.keyword = [](const std::string& n) -> std::optional<double> {
    if (n == "step") return 100.0;
    return std::nullopt;
  };
  EXPECT_DOUBLE_EQ(evaluate("v_xx + step", ctx), 140.0);
  EXPECT_EQ(*vars.text("xx", ctx), "40");
  EXPECT_EQ(*vars.text("x", ctx), "2");
  // An index variable defined first (as by -var) is not redefined by the deck.
  vars.define("x", "index", {"5"});
  EXPECT_EQ(*vars.text("x", ctx), "2");
  vars.define("x", "delete", {});
  EXPECT_FALSE(vars.has("x"));
}

TEST(Expression, ErrorsSayWhatWasExpected) {
  const ExpressionContext none;
  const auto message = [&](const char* text) {
    try {
      (void)evaluate(text, none);
    } catch (const molstep::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("1 +").find("expected a value"), std::string::npos);
  EXPECT_NE(message("(1 + 2").find("expected ')'"), std::string::npos);
  EXPECT_NE(message("1 / 0").find("division by zero"), std::string::npos);
  EXPECT_NE(message("foo(1)").find("unknown function 'foo'"), std::string::npos);
  EXPECT_NE(message("v_nope").find("unknown variable 'nope'"), std::string::npos);
  EXPECT_NE(message("2 $ 3").find("unexpected"), std::string::npos);
}
