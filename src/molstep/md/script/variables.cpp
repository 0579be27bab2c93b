// SPDX-License-Identifier: MIT
#include "molstep/md/script/variables.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "molstep/core/error.hpp"

namespace molstep::md::script {

std::string format_number(double v) { return fmt::format("{:.15g}", v); }
std::string format_immediate(double v) { return fmt::format("{:.20g}", v); }

void Variables::define(const std::string& name, const std::string& style, const std::vector<std::string>& values) {
  if (style == "delete") {
    remove(name);
    return;
  }
  if (values.empty()) throw Error("variable " + name + ": style " + style + " needs at least one value");
  if (style == "index") {
    if (!has(name)) define_index(name, values);
    return;
  }
  if (style == "string" || style == "equal") {
    if (values.size() != 1)
      throw Error("variable " + name + ": style " + style + " takes one value (quote it if it has spaces), got " +
                  std::to_string(values.size()));
    vars_[name] = Var{style == "equal" ? Style::equal : Style::string, values};
    return;
  }
  throw Error("variable " + name + ": unknown style '" + style + "' (known: index, string, equal, delete)");
}

void Variables::define_index(const std::string& name, const std::vector<std::string>& values) {
  vars_[name] = Var{Style::index, values};
}

void Variables::remove(const std::string& name) { vars_.erase(name); }

double Variables::evaluate_formula(const std::string& name, const std::string& formula,
                                   const ExpressionContext& ctx) const {
  if (depth_ >= kMaxDepth)
    throw Error("variable " + name + " refers to itself through a chain of " + std::to_string(kMaxDepth) +
                " formulas (circular definition?)");
  ++depth_;
  try {
    const double v = evaluate(formula, ctx);
    --depth_;
    return v;
  } catch (...) {
    --depth_;
    throw;
  }
}

std::optional<std::string> Variables::text(const std::string& name, const ExpressionContext& ctx) const {
  const auto it = vars_.find(name);
  if (it == vars_.end()) return std::nullopt;
  if (it->second.style == Style::equal) return format_number(evaluate_formula(name, it->second.values.front(), ctx));
  return it->second.values.front();
}

std::optional<double> Variables::number(const std::string& name, const ExpressionContext& ctx) const {
  const auto it = vars_.find(name);
  if (it == vars_.end()) return std::nullopt;
  if (it->second.style == Style::equal) return evaluate_formula(name, it->second.values.front(), ctx);
  const std::string& s = it->second.values.front();
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') throw Error("variable " + name + " = '" + s + "' is not a number");
  return v;
}

}  // namespace molstep::md::script
