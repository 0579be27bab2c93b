// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "molstep/md/script/expression.hpp"

namespace molstep::md::script {

/// The `variable` command's store. Styles: index (a list; the first value is current), string,
/// and equal (a formula evaluated each time it is used). As in LAMMPS, an index variable that
/// already exists (for example from `-var` on the command line) is not redefined by the deck.
class Variables {
 public:
  enum class Style { index, string, equal };

  /// Defines or redefines NAME. Throws molstep::Error for an unknown style or missing values.
  void define(const std::string& name, const std::string& style, const std::vector<std::string>& values);
  void define_index(const std::string& name, const std::vector<std::string>& values);
  void remove(const std::string& name);
  [[nodiscard]] bool has(const std::string& name) const { return vars_.count(name) != 0; }

  /// The current text of NAME (an equal variable is evaluated and printed with %.15g),
  /// or nullopt when no such variable exists.
  [[nodiscard]] std::optional<std::string> text(const std::string& name, const ExpressionContext& ctx) const;
  /// The numeric value of NAME, for v_NAME inside formulas.
  [[nodiscard]] std::optional<double> number(const std::string& name, const ExpressionContext& ctx) const;

 private:
  /// Formulas may reference other variables; a chain deeper than this is a cycle.
  static constexpr int kMaxDepth = 64;
  double evaluate_formula(const std::string& name, const std::string& formula, const ExpressionContext& ctx) const;

  struct Var {
    Style style;
    std::vector<std::string> values;
  };
  std::map<std::string, Var> vars_;
  mutable int depth_ = 0;
};

/// Formats a number as LAMMPS does when substituting a formula's value into a command (%.15g).
std::string format_number(double v);
/// Formats the value of an immediate $(formula) as LAMMPS does (%.20g).
std::string format_immediate(double v);

}  // namespace molstep::md::script
