// SPDX-License-Identifier: MIT
#include "molstep/analysis/params.hpp"

#include <fmt/format.h>

#include "molstep/core/args.hpp"
#include "molstep/core/error.hpp"

namespace molstep::analysis {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

}  // namespace

QuerySpec parse_query_spec(const std::string& text) {
  QuerySpec spec;
  spec.text = text;
  const auto colon = text.find(':');
  spec.kind = trim(text.substr(0, colon));
  if (spec.kind.empty()) throw Error(fmt::format("query '{}': expected KIND[:key=value,...]", text));
  if (colon == std::string::npos) {
    spec.label = spec.kind;
    return spec;
  }
  // Commas separate parameters except inside parentheses or quotes, so a selection such as
  // sel=(name O or name H) or sel="type 1 2" can be written inline.
  std::vector<std::string> items;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (const char c : text.substr(colon + 1)) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      else current += c;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(') ++depth, current += c;
    else if (c == ')') --depth, current += c;
    else if (c == ',' && depth == 0) items.push_back(current), current.clear();
    else current += c;
  }
  if (quote != 0) throw Error(fmt::format("query '{}': unterminated quote", text));
  items.push_back(current);
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      throw Error(fmt::format("query '{}': expected key=value, found '{}'", text, trim(item)));
    }
    const auto key = trim(item.substr(0, eq));
    if (key.empty()) throw Error(fmt::format("query '{}': empty key in '{}'", text, trim(item)));
    if (!spec.params.emplace(key, trim(item.substr(eq + 1))).second) {
      throw Error(fmt::format("query '{}': '{}' given twice", text, key));
    }
  }
  if (const auto it = spec.params.find("label"); it != spec.params.end()) {
    spec.label = it->second;
    spec.params.erase(it);
    if (spec.label.empty() || spec.label.find_first_of("/\\ ") != std::string::npos) {
      throw Error(fmt::format("query '{}': label must be a non-empty file-name word", text));
    }
  } else {
    spec.label = spec.kind;
  }
  return spec;
}

Params::Params(const QuerySpec& spec) : spec_(spec) {}

bool Params::has(const std::string& key) const { return spec_.params.contains(key); }

std::string Params::get_string(const std::string& key, const std::optional<std::string>& fallback) {
  used_.insert(key);
  const auto it = spec_.params.find(key);
  if (it != spec_.params.end()) return it->second;
  if (fallback) return *fallback;
  throw Error(fmt::format("query '{}': missing parameter '{}'", spec_.text, key));
}

double Params::get_double(const std::string& key, const std::optional<double>& fallback) {
  if (!has(key) && fallback) {
    used_.insert(key);
    return *fallback;
  }
  const auto s = get_string(key);
  double v = 0;
  if (!core::parse_double(s, v)) {
    throw Error(fmt::format("query '{}': {} must be a number, found '{}'", spec_.text, key, s));
  }
  return v;
}

long Params::get_integer(const std::string& key, const std::optional<long>& fallback) {
  if (!has(key) && fallback) {
    used_.insert(key);
    return *fallback;
  }
  const auto s = get_string(key);
  long long v = 0;
  if (!core::parse_integer(s, v)) {
    throw Error(fmt::format("query '{}': {} must be an integer, found '{}'", spec_.text, key, s));
  }
  return static_cast<long>(v);
}

bool Params::get_bool(const std::string& key, const std::optional<bool>& fallback) {
  if (!has(key) && fallback) {
    used_.insert(key);
    return *fallback;
  }
  const auto s = get_string(key);
  if (s == "yes" || s == "true" || s == "on" || s == "1") return true;
  if (s == "no" || s == "false" || s == "off" || s == "0") return false;
  throw Error(fmt::format("query '{}': {} must be yes or no, found '{}'", spec_.text, key, s));
}

void Params::check_all_used() const {
  for (const auto& [key, value] : spec_.params) {
    if (!used_.contains(key)) {
      std::string known;
      for (const auto& k : used_) known += (known.empty() ? "" : ", ") + k;
      throw Error(fmt::format("query '{}': unknown parameter '{}' for {} (known: {})", spec_.text, key, spec_.kind,
                              known.empty() ? "none" : known));
    }
  }
}

}  // namespace molstep::analysis
