// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace molstep::md::script {

/// Resolves names inside an expression: `v_NAME` references (given NAME) and bare keywords such
/// as thermo quantities (`step`, `temp`, `vol`, ...). Return nullopt when the name is unknown.
struct ExpressionContext {
  std::function<std::optional<double>(const std::string&)> variable;
  std::function<std::optional<double>(const std::string&)> keyword;
};

/// Evaluates a LAMMPS equal-style formula: numbers, + - * / % ^, unary - and !, comparisons
/// (< <= > >= == !=) and logic (&& ||) giving 1 or 0, parentheses, math functions
/// (sqrt exp ln log abs sin cos tan asin acos atan floor ceil round), v_NAME and keywords.
/// Throws molstep::Error (without location; callers add it) describing what was expected.
double evaluate(std::string_view text, const ExpressionContext& ctx);

}  // namespace molstep::md::script
