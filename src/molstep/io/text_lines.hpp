// SPDX-License-Identifier: MIT
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "molstep/core/error.hpp"

namespace molstep::io {

/// Reads a text file line by line through one large buffer (no allocation per line), for the
/// text trajectory readers that must get through millions of lines quickly. Lines end at '\n';
/// a '\r' before it is dropped; the last line may lack its '\n'.
class TextLines {
 public:
  explicit TextLines(const std::filesystem::path& path);
  TextLines(const TextLines&) = delete;
  TextLines& operator=(const TextLines&) = delete;
  ~TextLines();

  /// The next line, valid until the following call; false at the end of the file.
  bool next(std::string_view& line);
  /// 1-based number of the line next() returned last (0 before the first).
  [[nodiscard]] std::int64_t line_number() const { return line_; }
  [[nodiscard]] const std::string& file() const { return file_; }

  /// Throws molstep::Error "FILE:LINE: message" at `line` (the current line by default).
  [[noreturn]] void fail(const std::string& message) const { fail_at(line_, message); }
  [[noreturn]] void fail_at(std::int64_t line, const std::string& message) const;

 private:
  bool refill();

  std::string file_;
  std::FILE* in_ = nullptr;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::int64_t line_ = 0;
};

/// The slow path of parse_number for out-of-range text: true (with strtod's value) for an
/// underflow, false for an overflow.
bool parse_underflow(std::string_view s, double& v);

/// Splits off the next whitespace-separated field of `rest` into `field`; false when none is
/// left.
inline bool next_field(std::string_view& rest, std::string_view& field) {
  std::size_t i = 0;
  while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\r')) ++i;
  if (i == rest.size()) {
    rest = {};
    return false;
  }
  std::size_t j = i;
  while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t' && rest[j] != '\r') ++j;
  field = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return true;
}

/// `s` without leading and trailing blanks.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// Parses all of `s` as a finite number (std::from_chars; a leading '+' is allowed). A value
/// too small for a double reads as the nearest (tiny or zero) value, as strtod gives it.
inline bool parse_number(std::string_view s, double& v) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ptr != s.data() + s.size() || s.empty()) return false;
  if (r.ec == std::errc::result_out_of_range) return parse_underflow(s, v);
  return r.ec == std::errc() && v - v == 0.0;
}

/// Parses all of `s` as an integer (a leading '+' is allowed).
template <class Int>
bool parse_int(std::string_view s, Int& v) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

/// `s` in quotes, shortened to 60 characters, for error messages.
std::string excerpt(std::string_view s);

}  // namespace molstep::io
