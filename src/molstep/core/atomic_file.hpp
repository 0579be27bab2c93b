// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace molstep::core {

/// An output file that appears under its name only when complete: writes go to a temporary
/// sibling, commit() renames it into place, and destruction without commit() removes it.
/// So a failed run never leaves a half-written output behind.
class AtomicFile {
 public:
  explicit AtomicFile(const std::filesystem::path& path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  std::ofstream& stream() { return out_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  void commit();

 private:
  std::filesystem::path path_;
  std::filesystem::path tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace molstep::core
