// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/core/frame.hpp"

namespace molstep::test {

/// Writes `content` to `path`, opens it with `open` (path -> TrajectoryReader) and reads to
/// the end: the molstep::Error that must come. A test failure, and Error("no error"), when
/// none does.
template <class Open>
Error reading_error(const std::filesystem::path& path, std::span<const char> content, Open open) {
  {
    std::ofstream out(path, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  try {
    auto reader = open(path);
    core::Frame f;
    while (reader->next(f)) {
    }
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error reading " << path.string();
  return Error("no error");
}

/// Expects reading `content` (as reading_error does) to fail with `message` at the file:
/// what() is "PATH: message", with no line, as the binary formats report.
template <class Open>
void expect_reading_error(const std::filesystem::path& path, std::span<const char> content, Open open,
                          const std::string& message) {
  const Error e = reading_error(path, content, open);
  EXPECT_EQ(e.loc().file, path.string());
  EXPECT_EQ(e.message(), message);
  EXPECT_EQ(std::string(e.what()), path.string() + ": " + message);
}

}  // namespace molstep::test
