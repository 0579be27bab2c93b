// SPDX-License-Identifier: MIT
#include "molstep/md/script/interpreter.hpp"

#include <algorithm>

namespace molstep::md::script {

namespace {

const CommandEntry* find_command(const std::string& name) {
  for (const auto* table : {&setup_commands(), &run_commands(), &control_commands()})
    for (const auto& e : *table)
      if (name == e.name) return &e;
  return nullptr;
}

std::string known_commands() {
  std::vector<std::string> names;
  for (const auto* table : {&setup_commands(), &run_commands(), &control_commands()})
    for (const auto& e : *table) names.emplace_back(e.name);
  std::sort(names.begin(), names.end());
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

ExpressionContext Interpreter::context() const {
  ExpressionContext ctx;
  ctx.variable = [this](const std::string& name) { return vars.number(name, context()); };
  ctx.keyword = [this](const std::string& name) -> std::optional<double> {
    if (!sim.system.box_defined && name != "step" && name != "atoms") return std::nullopt;
    return sim.thermo.value(name, sim.thermo_state());
  };
  return ctx;
}

void Interpreter::execute(const Command& cmd) {
  const core::ArgReader args(cmd.name, cmd.args, cmd.loc);
  const CommandEntry* entry = find_command(cmd.name);
  if (!entry) args.fail("unknown command (known: " + known_commands() + ")");
  try {
    entry->run(*this, args);
  } catch (const Error& e) {
    if (!e.loc().file.empty()) throw;
    // Library errors may already name the command ("run: no mass set ...").
    const std::string& m = e.message();
    if (m.rfind(cmd.name + ": ", 0) == 0) throw Error(cmd.loc, m);
    args.fail(m);
  }
}

void Interpreter::include(const std::string& file, const SourceLoc& from) {
  if (!reader_) throw Error(from, "include: no deck is being read");
  reader_->include(file, from);
}

void Interpreter::run_file(const std::filesystem::path& deck) {
  DeckReader reader(deck);
  DeckReader* previous = reader_;
  reader_ = &reader;
  try {
    while (auto cmd = reader.next(vars, context())) execute(*cmd);
  } catch (...) {
    reader_ = previous;
    throw;
  }
  reader_ = previous;
}

}  // namespace molstep::md::script
