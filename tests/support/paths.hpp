// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

namespace molstep::test {

/// tests/data in the source tree.
std::filesystem::path data_dir();
/// The molstep executable built alongside the tests.
std::filesystem::path molstep_binary();
/// A fresh empty directory for one test's files, removed by the caller or left in /tmp.
std::filesystem::path scratch_dir(const std::string& name);
/// Writes `text` to `path` (creating parent folders).
void write_file(const std::filesystem::path& path, const std::string& text);

/// The lines of a text file that are not '#' comments (CSV bodies, compared across runs).
std::string read_data_lines(const std::filesystem::path& path);

/// Changes the working directory for the lifetime of the object.
class ScopedCwd {
 public:
  explicit ScopedCwd(const std::filesystem::path& dir);
  ~ScopedCwd();
  ScopedCwd(const ScopedCwd&) = delete;
  ScopedCwd& operator=(const ScopedCwd&) = delete;

 private:
  std::filesystem::path previous_;
};

}  // namespace molstep::test
