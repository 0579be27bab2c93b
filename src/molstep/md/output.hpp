// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <fstream>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace molstep::md {

/// Where a run's text goes: the screen (optional), a log file (optional), and a JSON-lines
/// copy of every thermo row (`{"run": 1, "step": 0, "temp": 1.44, ...}`) for programs to read.
class Output {
 public:
  Output(std::ostream* screen, const std::optional<std::filesystem::path>& log,
         const std::optional<std::filesystem::path>& thermo_jsonl);

  void line(const std::string& text);
  /// Writes to the log file only (for messages already shown on stderr).
  void log_only(const std::string& text);
  void thermo_row(int run, const std::vector<std::string>& keys, const std::vector<double>& values);

 private:
  std::ostream* screen_;
  std::ofstream log_;
  std::ofstream jsonl_;
};

}  // namespace molstep::md
