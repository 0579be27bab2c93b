// SPDX-License-Identifier: MIT
// Commands that steer the deck itself: variables, include, print.
#include "molstep/md/script/interpreter.hpp"

namespace molstep::md::script {

namespace {

void cmd_variable(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 2) a.expect_count(2, 2, "NAME index|string|equal|delete VALUE...");
  in.vars.define(a.at(0, "name"), a.at(1, "style"), std::vector<std::string>(a.words().begin() + 2, a.words().end()));
}

void cmd_include(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "FILE");
  in.include(a.at(0, "file"), a.loc());
}

void cmd_print(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "\"TEXT\"");
  in.out.line(substitute(a.at(0, "text"), in.vars, in.context(), a.loc()));
}

}  // namespace

const std::vector<CommandEntry>& control_commands() {
  static const std::vector<CommandEntry> table = {
      {"variable", cmd_variable},
      {"include", cmd_include},
      {"print", cmd_print},
  };
  return table;
}

}  // namespace molstep::md::script
