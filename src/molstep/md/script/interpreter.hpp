// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "molstep/core/args.hpp"
#include "molstep/md/script/deck.hpp"
#include "molstep/md/script/variables.hpp"
#include "molstep/md/simulation.hpp"

namespace molstep::md::script {

class Interpreter;

/// One input command: its name and its handler.
struct CommandEntry {
  const char* name;
  void (*run)(Interpreter&, const core::ArgReader&);
};

/// The command tables, one per family (commands_setup.cpp, commands_run.cpp, commands_control.cpp).
const std::vector<CommandEntry>& setup_commands();
const std::vector<CommandEntry>& run_commands();
const std::vector<CommandEntry>& control_commands();

/// Runs a LAMMPS-style deck against a Simulation: reads commands, substitutes variables and
/// dispatches each command to its handler. Any failure becomes a molstep::Error naming the
/// deck, the line and the command.
class Interpreter {
 public:
  Interpreter(Simulation& sim, Output& out) : sim(sim), out(out) {}

  Simulation& sim;
  Output& out;
  Variables vars;

  /// Executes every command of `deck` (and of the files it includes).
  void run_file(const std::filesystem::path& deck);
  /// Executes one command.
  void execute(const Command& cmd);
  /// Name resolution for formulas: v_NAME and thermo keywords of the current state.
  [[nodiscard]] ExpressionContext context() const;
  /// Switches the reader to `file` (the include command).
  void include(const std::string& file, const SourceLoc& from);

 private:
  DeckReader* reader_ = nullptr;
};

}  // namespace molstep::md::script
