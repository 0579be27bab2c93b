// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace molstep::app {

/// Registers `molstep md` on `app`; the returned function runs it after parsing and returns the
/// process exit code.
std::function<int()> add_md_command(CLI::App& app);
/// MPI for the lifetime of the object when molstep was built with MPI and runs under an MPI
/// launcher (mpirun sets OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK); nothing otherwise.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool active_ = false;
};

/// Registers `molstep analyze`.
std::function<int()> add_analyze_command(CLI::App& app);

/// Registers `molstep fullerene` (count, generate, optimize, isomerspace).
std::function<int()> add_fullerene_command(CLI::App& app);

}  // namespace molstep::app
