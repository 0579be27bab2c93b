// SPDX-License-Identifier: MIT
#include <CLI/CLI.hpp>
#include <iostream>

#include "subcommands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"molstep: molecular simulation on CPUs and GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("molstep 0.1.0") +
#ifdef MOLSTEP_HAVE_CUDA
                                        " (CUDA backend built)"
#else
                                        " (CPU only)"
#endif
  );
  // LAMMPS users write "-var NAME VALUE"; CLI11 wants long options with two dashes.
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    args.push_back(a == "-var" || a == "-v" ? "--var" : a);
  }
  std::reverse(args.begin(), args.end());
  const auto run_md = molstep::app::add_md_command(app);
  const auto run_analyze = molstep::app::add_analyze_command(app);
  const auto run_fullerene = molstep::app::add_fullerene_command(app);
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (app.got_subcommand("md")) return run_md();
  if (app.got_subcommand("analyze")) {
    // Under mpirun, molstep analyze splits the frames over the ranks.
    molstep::app::MpiSession mpi(argc, argv);
    return run_analyze();
  }
  if (app.got_subcommand("fullerene")) {
    // Under mpirun, molstep fullerene isomerspace shares the isomers out over the ranks.
    molstep::app::MpiSession mpi(argc, argv);
    return run_fullerene();
  }
  return 0;
}
