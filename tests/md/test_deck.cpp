// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "molstep/core/error.hpp"
#include "molstep/md/script/deck.hpp"
#include "support/paths.hpp"

using namespace molstep::md::script;

namespace {

std::vector<Command> read_all(const std::filesystem::path& deck, Variables& vars) {
  ExpressionContext ctx;
  ctx.variable = [&](const std::string& n) { return vars.number(n, ctx); };
  DeckReader reader(deck);
  std::vector<Command> out;
  while (auto c = reader.next(vars, ctx)) {
    if (c->name == "variable") vars.define(c->args.at(0), c->args.at(1), {c->args.begin() + 2, c->args.end()});
    if (c->name == "include") reader.include(c->args.at(0), c->loc);
    out.push_back(*c);
  }
  return out;
}

}  // namespace

TEST(Deck, CommentsContinuationQuotesAndLines) {
  const auto dir = molstep::test::scratch_dir("deck1");
  molstep::test::write_file(dir / "in.test",
                            "# a comment line\n"
                            "\n"
                            "units lj   # trailing comment\n"
                            "region box block 0 10 &\n"
                            "       0 10 0 10\n"
                            "print \"hash # inside quotes\"\n"
                            "print 'single $x quoted'\n");
  Variables vars;
  const auto cmds = read_all(dir / "in.test", vars);
  ASSERT_EQ(cmds.size(), 4u);
  EXPECT_EQ(cmds[0].name, "units");
  EXPECT_EQ(cmds[0].args, std::vector<std::string>{"lj"});
  EXPECT_EQ(cmds[0].loc.line, 3);
  EXPECT_EQ(cmds[1].args.size(), 8u);
  EXPECT_EQ(cmds[1].loc.line, 4);
  EXPECT_EQ(cmds[2].args, std::vector<std::string>{"hash # inside quotes"});
  EXPECT_EQ(cmds[3].args, std::vector<std::string>{"single $x quoted"});
}

TEST(Deck, SubstitutionFollowsLammps) {
  const auto dir = molstep::test::scratch_dir("deck2");
  molstep::test::write_file(dir / "in.test",
                            "variable x index 2\n"
                            "variable xx equal 20*$x\n"
                            "region box block 0 ${xx} 0 $(v_xx/4) 0 $(2.5:%.1f)\n");
  Variables vars;
  EXPECT_THROW(read_all(dir / "in.test", vars), molstep::Error);  // $(expr:fmt) is not supported
  molstep::test::write_file(dir / "in.test2",
                            "variable x index 2\n"
                            "variable xx equal 20*$x\n"
                            "region box block 0 ${xx} 0 $(v_xx/4) 0 $x\n");
  Variables vars2;
  const auto cmds = read_all(dir / "in.test2", vars2);
  EXPECT_EQ(cmds[2].args, (std::vector<std::string>{"box", "block", "0", "40", "0", "10", "0", "2"}));
}

TEST(Deck, CommandLineIndexVariableWins) {
  const auto dir = molstep::test::scratch_dir("deck3");
  molstep::test::write_file(dir / "in.test", "variable x index 1\nprint $x\n");
  Variables vars;
  vars.define_index("x", {"3"});
  const auto cmds = read_all(dir / "in.test", vars);
  EXPECT_EQ(cmds[1].args, std::vector<std::string>{"3"});
}

TEST(Deck, IncludeReadsTheFileInPlace) {
  const auto dir = molstep::test::scratch_dir("deck4");
  molstep::test::write_file(dir / "part.in", "mass 1 1.0\n");
  molstep::test::write_file(dir / "in.test", "units lj\ninclude part.in\nrun 0\n");
  Variables vars;
  const auto cmds = read_all(dir / "in.test", vars);
  ASSERT_EQ(cmds.size(), 4u);
  EXPECT_EQ(cmds[2].name, "mass");
  EXPECT_EQ(cmds[2].loc.file, (dir / "part.in").string());
  EXPECT_EQ(cmds[3].name, "run");
  EXPECT_EQ(cmds[3].loc.line, 3);
}

TEST(Deck, ErrorsCarryFileAndLine) {
  const auto dir = molstep::test::scratch_dir("deck5");
  molstep::test::write_file(dir / "in.test", "units lj\nprint ${nope}\n");
  Variables vars;
  try {
    read_all(dir / "in.test", vars);
    FAIL() << "expected an error";
  } catch (const molstep::Error& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_NE(std::string(e.what()).find("undefined variable 'nope'"), std::string::npos);
  }
  molstep::test::write_file(dir / "in.quote", "print \"open\n");
  EXPECT_THROW(read_all(dir / "in.quote", vars), molstep::Error);
  EXPECT_THROW(read_all(dir / "missing.in", vars), molstep::Error);
}
