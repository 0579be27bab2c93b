// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "molstep/core/error.hpp"

namespace molstep::core {

/// The words of one input command with where they came from, and checked conversions whose
/// errors name the file, the line, the command and what was expected.
class ArgReader {
 public:
  ArgReader(std::string command, std::vector<std::string> args, SourceLoc loc)
      : command_(std::move(command)), args_(std::move(args)), loc_(std::move(loc)) {}

  [[nodiscard]] const std::string& command() const { return command_; }
  [[nodiscard]] const SourceLoc& loc() const { return loc_; }
  [[nodiscard]] std::size_t size() const { return args_.size(); }
  [[nodiscard]] const std::vector<std::string>& words() const { return args_; }

  /// Argument i, or an error saying which argument (`what`) is missing.
  [[nodiscard]] const std::string& at(std::size_t i, const std::string& what) const;
  [[nodiscard]] double number(std::size_t i, const std::string& what) const;
  [[nodiscard]] long long integer(std::size_t i, const std::string& what) const;
  [[nodiscard]] bool yes_no(std::size_t i, const std::string& what) const;

  /// Fails unless min <= size() <= max, quoting the usage line.
  void expect_count(std::size_t min, std::size_t max, const std::string& usage) const;

  /// Throws molstep::Error at this command's location, prefixed with the command name.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string command_;
  std::vector<std::string> args_;
  SourceLoc loc_;
};

/// Parses a real number; nullopt-like failure is reported by returning false.
bool parse_double(const std::string& s, double& out);
bool parse_integer(const std::string& s, long long& out);

/// Expands a LAMMPS type range ("2", "*", "1*3", "*2", "2*") against 1..n into [lo, hi].
/// Returns false when the text is not a valid range within 1..n.
bool parse_type_range(const std::string& s, int n, int& lo, int& hi);

}  // namespace molstep::core
