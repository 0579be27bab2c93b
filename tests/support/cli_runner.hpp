// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

namespace molstep::test {

/// What a run of the molstep binary left: its exit code (-1 when it did not exit normally,
/// e.g. on a crash) and everything it wrote to stdout and stderr.
struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

/// Runs `molstep ARGS` (ARGS as shell words) with `dir` as the working directory.
CliResult run_molstep(const std::filesystem::path& dir, const std::string& args);

/// The bytes of a file ("" when it cannot be read).
std::string read_text(const std::filesystem::path& path);

}  // namespace molstep::test
