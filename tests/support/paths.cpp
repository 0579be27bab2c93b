// SPDX-License-Identifier: MIT
#include "support/paths.hpp"

#include <unistd.h>

#include <fstream>
#include <stdexcept>

namespace molstep::test {

std::filesystem::path data_dir() { return MOLSTEP_TEST_DATA; }
std::filesystem::path molstep_binary() { return MOLSTEP_BINARY; }

std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("molstep-test-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << text;
}

ScopedCwd::ScopedCwd(const std::filesystem::path& dir) : previous_(std::filesystem::current_path()) {
  std::filesystem::current_path(dir);
}

ScopedCwd::~ScopedCwd() {
  std::error_code ec;
  std::filesystem::current_path(previous_, ec);
}

std::string read_data_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line, out;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') out += line + "\n";
  }
  return out;
}

}  // namespace molstep::test
