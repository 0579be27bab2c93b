// SPDX-License-Identifier: MIT
#include "support/cli_runner.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/paths.hpp"

namespace molstep::test {

CliResult run_molstep(const std::filesystem::path& dir, const std::string& args) {
  const auto out = dir / ".molstep-stdout", err = dir / ".molstep-stderr";
  const std::string cmd = "cd '" + dir.string() + "' && '" + molstep_binary().string() + "' " + args + " >'" +
                          out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  CliResult r;
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.out = read_text(out);
  r.err = read_text(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace molstep::test
