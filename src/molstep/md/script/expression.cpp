// SPDX-License-Identifier: MIT
#include "molstep/md/script/expression.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "molstep/core/error.hpp"

namespace molstep::md::script {

namespace {

using Fn = double (*)(double);

const std::map<std::string, Fn, std::less<>>& functions() {
  static const std::map<std::string, Fn, std::less<>> table = {
      {"sqrt", [](double a) { return std::sqrt(a); }},   {"exp", [](double a) { return std::exp(a); }},
      {"ln", [](double a) { return std::log(a); }},      {"log", [](double a) { return std::log10(a); }},
      {"abs", [](double a) { return std::fabs(a); }},    {"sin", [](double a) { return std::sin(a); }},
      {"cos", [](double a) { return std::cos(a); }},     {"tan", [](double a) { return std::tan(a); }},
      {"asin", [](double a) { return std::asin(a); }},   {"acos", [](double a) { return std::acos(a); }},
      {"atan", [](double a) { return std::atan(a); }},   {"floor", [](double a) { return std::floor(a); }},
      {"ceil", [](double a) { return std::ceil(a); }},   {"round", [](double a) { return std::round(a); }},
  };
  return table;
}

// Recursive descent, lowest precedence first: || , && , == != , < <= > >= , + - , * / % ,
// ^ , unary - ! (highest), primary. As in LAMMPS, every binary operator is left associative
// (2^3^2 is 64) and unary minus binds tightest (-2^2 is 4).
class Parser {
 public:
  Parser(std::string_view text, const ExpressionContext& ctx) : s_(text), ctx_(ctx) {}

  double parse() {
    const double v = logic_or();
    skip_space();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(s_.substr(pos_)) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("bad expression '" + std::string(s_) + "': " + what);
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool accept(std::string_view op) {
    skip_space();
    if (s_.substr(pos_, op.size()) == op) {
      pos_ += op.size();
      return true;
    }
    return false;
  }
  double logic_or() {
    double v = logic_and();
    while (accept("||")) {
      const double r = logic_and();
      v = (v != 0.0 || r != 0.0) ? 1.0 : 0.0;
    }
    return v;
  }
  double logic_and() {
    double v = equality();
    while (accept("&&")) {
      const double r = equality();
      v = (v != 0.0 && r != 0.0) ? 1.0 : 0.0;
    }
    return v;
  }
  double equality() {
    double v = relational();
    for (;;) {
      if (accept("==")) v = (v == relational()) ? 1.0 : 0.0;
      else if (accept("!=")) v = (v != relational()) ? 1.0 : 0.0;
      else return v;
    }
  }
  double relational() {
    double v = additive();
    for (;;) {
      if (accept("<=")) v = (v <= additive()) ? 1.0 : 0.0;
      else if (accept(">=")) v = (v >= additive()) ? 1.0 : 0.0;
      else if (accept("<")) v = (v < additive()) ? 1.0 : 0.0;
      else if (accept(">")) v = (v > additive()) ? 1.0 : 0.0;
      else return v;
    }
  }
  double additive() {
    double v = multiplicative();
    for (;;) {
      if (accept("+")) v += multiplicative();
      else if (accept("-")) v -= multiplicative();
      else return v;
    }
  }
  double multiplicative() {
    double v = power();
    for (;;) {
      if (accept("*")) {
        v *= power();
      } else if (accept("/")) {
        const double d = power();
        if (d == 0.0) fail("division by zero");
        v /= d;
      } else if (accept("%")) {
        const double d = power();
        if (d == 0.0) fail("modulo by zero");
        v = std::fmod(v, d);
      } else {
        return v;
      }
    }
  }
  double power() {
    double v = unary();
    while (accept("^")) v = std::pow(v, unary());
    return v;
  }
  double unary() {
    if (accept("-")) return -unary();
    if (accept("!")) return unary() == 0.0 ? 1.0 : 0.0;
    return primary();
  }
  double primary() {
    skip_space();
    if (pos_ >= s_.size()) fail("expected a value at the end");
    if (accept("(")) {
      const double v = logic_or();
      if (!accept(")")) fail("expected ')'");
      return v;
    }
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    fail(std::string("unexpected character '") + c + "'");
  }
  double number() {
    const std::string rest(s_.substr(pos_));
    char* end = nullptr;
    const double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str()) fail("expected a number");
    pos_ += static_cast<std::size_t>(end - rest.c_str());
    return v;
  }
  double name() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    const std::string word(s_.substr(start, pos_ - start));
    if (accept("(")) {
      const auto& fns = functions();
      const auto it = fns.find(word);
      if (it == fns.end()) fail("unknown function '" + word + "'");
      const double arg = logic_or();
      if (!accept(")")) fail("expected ')' after the argument of " + word);
      return it->second(arg);
    }
    if (word.rfind("v_", 0) == 0) {
      const std::string var = word.substr(2);
      if (ctx_.variable)
        if (auto v = ctx_.variable(var)) return *v;
      fail("unknown variable '" + var + "'");
    }
    if (ctx_.keyword)
      if (auto v = ctx_.keyword(word)) return *v;
    fail("unknown name '" + word + "'");
  }

  std::string_view s_;
  const ExpressionContext& ctx_;
  std::size_t pos_ = 0;
};

}  // namespace

double evaluate(std::string_view text, const ExpressionContext& ctx) { return Parser(text, ctx).parse(); }

}  // namespace molstep::md::script
