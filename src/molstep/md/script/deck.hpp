// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/md/script/variables.hpp"

namespace molstep::md::script {

/// One command of a deck after comments, continuation lines, variable substitution and
/// quote removal: `name` is the first word, `args` the rest.
struct Command {
  std::string name;
  std::vector<std::string> args;
  SourceLoc loc;
  std::string text;  ///< the line as it ran, after substitution (for echo and errors)
};

/// Replaces $x, ${name} and $(formula) outside quotes, as LAMMPS does. Throws molstep::Error
/// at `loc` for an undefined variable or a bad formula.
std::string substitute(const std::string& line, const Variables& vars, const ExpressionContext& ctx,
                       const SourceLoc& loc);

/// Splits a substituted line into words; "..." , '...' and """...""" group words and are removed.
std::vector<std::string> split_words(const std::string& line, const SourceLoc& loc);

/// Reads LAMMPS-style input decks line by line, following `include` files.
class DeckReader {
 public:
  explicit DeckReader(const std::filesystem::path& deck);

  /// The next non-empty command, or nullopt at the end of the top-level deck.
  std::optional<Command> next(const Variables& vars, const ExpressionContext& ctx);

  /// Continues reading from `file` until it ends, then returns to the current deck.
  void include(const std::string& file, const SourceLoc& from);

 private:
  struct Open {
    std::filesystem::path path;
    std::ifstream in;
    int line = 0;
  };
  void push(const std::filesystem::path& path, const SourceLoc* from);
  std::vector<std::unique_ptr<Open>> stack_;
};

}  // namespace molstep::md::script
