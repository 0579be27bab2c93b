// SPDX-License-Identifier: MIT
#include "molstep/md/output.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

#include "molstep/core/error.hpp"

namespace molstep::md {

Output::Output(std::ostream* screen, const std::optional<std::filesystem::path>& log,
               const std::optional<std::filesystem::path>& thermo_jsonl)
    : screen_(screen) {
  if (log) {
    log_.open(*log);
    if (!log_) throw Error("cannot open log file '" + log->string() + "' for writing");
  }
  if (thermo_jsonl) {
    jsonl_.open(*thermo_jsonl);
    if (!jsonl_) throw Error("cannot open thermo file '" + thermo_jsonl->string() + "' for writing");
  }
}

void Output::line(const std::string& text) {
  if (screen_) *screen_ << text << '\n' << std::flush;
  if (log_.is_open()) log_ << text << '\n' << std::flush;
}

void Output::log_only(const std::string& text) {
  if (log_.is_open()) log_ << text << '\n' << std::flush;
}

void Output::thermo_row(int run, const std::vector<std::string>& keys, const std::vector<double>& values) {
  if (!jsonl_.is_open()) return;
  std::string row = fmt::format("{{\"run\": {}", run);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (std::isfinite(values[k])) row += fmt::format(", \"{}\": {}", keys[k], values[k]);
    else row += fmt::format(", \"{}\": null", keys[k]);
  }
  jsonl_ << row << "}\n" << std::flush;
}

}  // namespace molstep::md
