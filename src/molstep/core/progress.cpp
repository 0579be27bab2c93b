// SPDX-License-Identifier: MIT
#include "molstep/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace molstep::core {

Progress::Progress(std::string label, long total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::update(long done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(500)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0;
  std::string line;
  if (total_ > 0) {
    const double left = rate > 0.0 ? static_cast<double>(total_ - done) / rate : 0.0;
    line = fmt::format("\r{} {}/{} {} ({:.0f}%), {:.4g} {}/s, {:.0f} s left   ", label_, done, total_, unit_,
                       100.0 * static_cast<double>(done) / static_cast<double>(total_), rate, unit_, left);
  } else {
    line = fmt::format("\r{} {} {}, {:.4g} {}/s   ", label_, done, unit_, rate, unit_);
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace molstep::core
