// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <chrono>
#include <string_view>

namespace molstep::core {

/// Wall time spent in each stage of the MD step, for the end-of-run summary.
enum class Stage { force, neighbor, integrate, output, count };

[[nodiscard]] std::string_view stage_name(Stage s);

class StageTimer {
 public:
  using clock = std::chrono::steady_clock;

  /// Adds the time since the previous call (or construction/reset) to `s`.
  void lap(Stage s) {
    const auto now = clock::now();
    seconds_[static_cast<int>(s)] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  /// Restarts the lap clock without charging the time since the last lap to any stage.
  void skip() { last_ = clock::now(); }
  void add(Stage s, double seconds) { seconds_[static_cast<int>(s)] += seconds; }
  void reset() {
    seconds_.fill(0.0);
    last_ = clock::now();
  }
  [[nodiscard]] double seconds(Stage s) const { return seconds_[static_cast<int>(s)]; }
  [[nodiscard]] double total() const {
    double t = 0.0;
    for (double s : seconds_) t += s;
    return t;
  }

 private:
  std::array<double, static_cast<int>(Stage::count)> seconds_{};
  clock::time_point last_ = clock::now();
};

}  // namespace molstep::core
