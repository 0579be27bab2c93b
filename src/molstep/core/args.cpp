// SPDX-License-Identifier: MIT
#include "molstep/core/args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace molstep::core {

bool parse_double(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(s.c_str(), &end);
  // ERANGE on underflow still gives a usable (tiny or zero) value; on overflow it does not.
  const bool range_ok = errno == 0 || (errno == ERANGE && std::fabs(out) < 1.0);
  return end != s.c_str() && *end == '\0' && range_ok && std::isfinite(out);
}

bool parse_integer(const std::string& s, long long& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoll(s.c_str(), &end, 10);
  return end != s.c_str() && *end == '\0' && errno == 0;
}

bool parse_type_range(const std::string& s, int n, int& lo, int& hi) {
  const auto star = s.find('*');
  long long a = 1, b = n;
  if (star == std::string::npos) {
    if (!parse_integer(s, a)) return false;
    b = a;
  } else {
    const std::string left = s.substr(0, star), right = s.substr(star + 1);
    if (!left.empty() && !parse_integer(left, a)) return false;
    if (!right.empty() && !parse_integer(right, b)) return false;
  }
  if (a < 1 || b > n || a > b) return false;
  lo = static_cast<int>(a);
  hi = static_cast<int>(b);
  return true;
}

const std::string& ArgReader::at(std::size_t i, const std::string& what) const {
  if (i >= args_.size()) fail("missing argument " + std::to_string(i + 1) + " (" + what + ")");
  return args_[i];
}

double ArgReader::number(std::size_t i, const std::string& what) const {
  double v = 0.0;
  const std::string& s = at(i, what);
  if (!parse_double(s, v)) fail("expected a number for " + what + ", got '" + s + "'");
  return v;
}

long long ArgReader::integer(std::size_t i, const std::string& what) const {
  long long v = 0;
  const std::string& s = at(i, what);
  if (!parse_integer(s, v)) fail("expected an integer for " + what + ", got '" + s + "'");
  if (v > 2147483647LL || v < -2147483647LL) fail(what + " " + s + " is out of range (at most 2147483647)");
  return v;
}

bool ArgReader::yes_no(std::size_t i, const std::string& what) const {
  const std::string& s = at(i, what);
  if (s == "yes") return true;
  if (s == "no") return false;
  fail("expected yes or no for " + what + ", got '" + s + "'");
}

void ArgReader::expect_count(std::size_t min, std::size_t max, const std::string& usage) const {
  if (args_.size() < min || args_.size() > max)
    fail("wrong number of arguments (" + std::to_string(args_.size()) + "); usage: " + command_ + " " + usage);
}

void ArgReader::fail(const std::string& message) const { throw Error(loc_, command_ + ": " + message); }

}  // namespace molstep::core
