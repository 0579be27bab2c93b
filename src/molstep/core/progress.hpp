// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <string>

namespace molstep::core {

/// A one-line progress report on stderr for long work: items done, rate and time left, redrawn
/// at most twice a second, and only when stderr is a terminal (logs and pipes stay clean). A
/// total of 0 or less means unknown: then only the count and rate are shown.
class Progress {
 public:
  Progress(std::string label, long total, std::string unit);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(long done);
  /// Clears the line.
  void finish();

 private:
  std::string label_, unit_;
  long total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace molstep::core
