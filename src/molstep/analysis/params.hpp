// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

namespace molstep::analysis {

/// A query as written on the command line or in a query file: `KIND[:key=value,key=value...]`.
/// The optional key `label` names its output files (default: the kind, made unique).
struct QuerySpec {
  std::string kind;
  std::string label;
  std::map<std::string, std::string> params;
  std::string text;  ///< the spec as written, for error messages
};

/// Parses `text`; throws molstep::Error quoting it when malformed (missing '=', empty key, a key
/// given twice).
QuerySpec parse_query_spec(const std::string& text);

/// Typed access to a QuerySpec's parameters; check_all_used() rejects keys no one asked for, so a
/// typo ("bisn=200") is an error rather than silently ignored.
class Params {
 public:
  explicit Params(const QuerySpec& spec);
  [[nodiscard]] bool has(const std::string& key) const;
  std::string get_string(const std::string& key, const std::optional<std::string>& fallback = {});
  double get_double(const std::string& key, const std::optional<double>& fallback = {});
  long get_integer(const std::string& key, const std::optional<long>& fallback = {});
  bool get_bool(const std::string& key, const std::optional<bool>& fallback = {});
  /// Throws molstep::Error naming the first parameter that was never read.
  void check_all_used() const;

 private:
  const QuerySpec& spec_;
  std::set<std::string> used_;
};

}  // namespace molstep::analysis
