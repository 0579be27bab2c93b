// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "molstep/analysis/selection.hpp"
#include "molstep/core/error.hpp"

using molstep::analysis::SelectionSet;
using molstep::core::Topology;
using Indices = std::vector<std::uint32_t>;

namespace {

// Three SPC waters (atoms 0-8, residues 1-3), then a two-residue peptide fragment (atoms 9-14:
// ALA 4, HSD 5), then a Na+ ion (atom 15, residue 6). Types: O=1, H=2, C=3, N=4, Na=5.
Topology small_topology() {
  Topology t;
  t.name = {"OW", "HW1", "HW2", "OW", "HW1", "HW2", "OW", "HW1", "HW2", "N", "CA", "C", "N", "CA", "CB", "NA"};
  t.resname = {"SOL", "SOL", "SOL", "SOL", "SOL", "SOL", "SOL", "SOL", "SOL",
               "ALA", "ALA", "ALA", "HSD", "HSD", "HSD", "NA"};
  t.resid = {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6};
  t.type = {1, 2, 2, 1, 2, 2, 1, 2, 2, 4, 3, 3, 4, 3, 3, 5};
  t.element = {"O", "H", "H", "O", "H", "H", "O", "H", "H", "N", "C", "C", "N", "C", "C", "Na"};
  return t;
}

Indices eval(SelectionSet& s, const std::string& expr) { return s[s.resolve(expr)].indices; }

// The message of the molstep::Error `expr` throws when defined as `name` (empty: resolve()).
std::string error_of(SelectionSet& s, const std::string& expr, const std::string& name = "S") {
  try {
    if (name.empty()) {
      s.resolve(expr);
    } else {
      s.define(name, expr);
    }
  } catch (const molstep::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(Selection, AllAndNone) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(eval(s, "all").size(), 16u);
  EXPECT_EQ(eval(s, "all").front(), 0u);
  EXPECT_EQ(eval(s, "all").back(), 15u);
  EXPECT_TRUE(eval(s, "none").empty());
}

TEST(Selection, Type) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(eval(s, "type 1"), (Indices{0, 3, 6}));
  EXPECT_EQ(eval(s, "type 4-5"), (Indices{9, 12, 15}));
  EXPECT_EQ(eval(s, "type 1 4:5"), (Indices{0, 3, 6, 9, 12, 15}));
  EXPECT_TRUE(eval(s, "type 7").empty());
}

TEST(Selection, NameWithWildcards) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(eval(s, "name OW"), (Indices{0, 3, 6}));
  EXPECT_EQ(eval(s, "name HW*"), (Indices{1, 2, 4, 5, 7, 8}));
  EXPECT_EQ(eval(s, "name HW?"), (Indices{1, 2, 4, 5, 7, 8}));
  EXPECT_EQ(eval(s, "name ?W1"), (Indices{1, 4, 7}));
  EXPECT_EQ(eval(s, "name C*"), (Indices{10, 11, 13, 14}));
  EXPECT_EQ(eval(s, "name *A"), (Indices{10, 13, 15}));
  EXPECT_EQ(eval(s, "name OW N"), (Indices{0, 3, 6, 9, 12}));
  EXPECT_EQ(eval(s, "name *").size(), 16u);
  EXPECT_TRUE(eval(s, "name ow").empty());  // case-sensitive
}

TEST(Selection, ResnameElementProteinWater) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(eval(s, "resname ALA HSD"), (Indices{9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(eval(s, "resname H*"), (Indices{12, 13, 14}));
  EXPECT_EQ(eval(s, "element O"), (Indices{0, 3, 6}));
  EXPECT_EQ(eval(s, "element N Na"), (Indices{9, 12, 15}));
  EXPECT_EQ(eval(s, "protein"), (Indices{9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(eval(s, "water"), (Indices{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(eval(s, "not protein and not water"), (Indices{15}));
}

TEST(Selection, ResidIndexBynumRanges) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(eval(s, "resid 2"), (Indices{3, 4, 5}));
  EXPECT_EQ(eval(s, "resid 1-2 6"), (Indices{0, 1, 2, 3, 4, 5, 15}));
  EXPECT_EQ(eval(s, "resid 5:6"), (Indices{12, 13, 14, 15}));
  EXPECT_EQ(eval(s, "resid 3-3 2-3"), (Indices{3, 4, 5, 6, 7, 8}));  // overlapping ranges merge
  EXPECT_EQ(eval(s, "index 0-2 15"), (Indices{0, 1, 2, 15}));
  EXPECT_EQ(eval(s, "index 14 3"), (Indices{3, 14}));  // sorted
  EXPECT_EQ(eval(s, "index 0:15").size(), 16u);
  EXPECT_EQ(eval(s, "bynum 1-3"), (Indices{0, 1, 2}));
  EXPECT_EQ(eval(s, "bynum 16"), (Indices{15}));
}

TEST(Selection, NegativeResids) {
  Topology t;
  t.resid = {-3, -2, -1, 0, 1};
  SelectionSet s(t, 5);
  EXPECT_EQ(eval(s, "resid -2--1"), (Indices{1, 2}));
  EXPECT_EQ(eval(s, "resid -3:0"), (Indices{0, 1, 2, 3}));
  EXPECT_EQ(eval(s, "resid -3 1"), (Indices{0, 4}));
}

TEST(Selection, IndexSpansWordBoundaries) {
  SelectionSet s(Topology{}, 300);
  const auto got = eval(s, "index 5-200");
  ASSERT_EQ(got.size(), 196u);
  for (std::uint32_t k = 0; k < got.size(); ++k) EXPECT_EQ(got[k], 5 + k);
  EXPECT_EQ(eval(s, "not index 0-298"), (Indices{299}));
  EXPECT_EQ(eval(s, "not all").size(), 0u);  // no phantom atoms past the end
  EXPECT_EQ(eval(s, "not none").size(), 300u);
}

TEST(Selection, PrecedenceNotAndOr) {
  SelectionSet s(small_topology(), 16);
  // `a or b and c` is `a or (b and c)`.
  EXPECT_EQ(eval(s, "resid 1 or name OW and resid 3"), (Indices{0, 1, 2, 6}));
  EXPECT_EQ(eval(s, "(resid 1 or name OW) and resid 3"), (Indices{6}));
  // `not a and b` is `(not a) and b`.
  EXPECT_EQ(eval(s, "not name OW and resid 1"), (Indices{1, 2}));
  EXPECT_EQ(eval(s, "not (name OW and resid 1)").size(), 15u);
  EXPECT_EQ(eval(s, "not not name OW"), (Indices{0, 3, 6}));
  EXPECT_EQ(eval(s, "name OW and resid 1 or name CA and resid 5"), (Indices{0, 13}));
}

TEST(Selection, ParenthesesWithoutSpaces) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(eval(s, "(name OW)"), (Indices{0, 3, 6}));
  EXPECT_EQ(eval(s, "((name OW)or(name NA))and not(resid 1)"), (Indices{3, 6, 15}));
}

TEST(Selection, ValuesRunUntilNextKeyword) {
  SelectionSet s(small_topology(), 16);
  // `resid` after the names ends the name list; without an operator that is an error.
  EXPECT_EQ(eval(s, "name OW HW1 and resid 1"), (Indices{0, 1}));
  EXPECT_NE(error_of(s, "name OW resid 1").find("expected 'and' or 'or' before 'resid' at column 9"),
            std::string::npos);
}

TEST(Selection, ReferencesToNamedSelections) {
  SelectionSet s(small_topology(), 16);
  const int o = s.define("O", "name OW");
  EXPECT_EQ(o, 0);
  const int o5 = s.define("O12", "O and resid 1-2");
  EXPECT_EQ(s[o5].indices, (Indices{0, 3}));
  EXPECT_EQ(s[o5].name, "O12");
  EXPECT_EQ(s[o5].expression, "O and resid 1-2");
  EXPECT_EQ(eval(s, "not O and water"), (Indices{1, 2, 4, 5, 7, 8}));
  EXPECT_EQ(eval(s, "(O12) or O12"), (Indices{0, 3}));
  EXPECT_EQ(s.resolve("O"), o);  // a name resolves to its definition, not a new selection
  EXPECT_EQ(s.resolve("O12"), o5);
}

TEST(Selection, AnonymousSelectionsAreCachedByText) {
  SelectionSet s(small_topology(), 16);
  const std::size_t before = s.size();
  const int a = s.resolve("name OW and resid 1");
  EXPECT_EQ(s.size(), before + 1);
  EXPECT_EQ(s[a].name, "name OW and resid 1");
  EXPECT_EQ(s[a].expression, "name OW and resid 1");
  EXPECT_EQ(s[a].indices, (Indices{0}));
  EXPECT_EQ(s.resolve("name OW and resid 1"), a);
  EXPECT_EQ(s.size(), before + 1);
  const int b = s.resolve("resid 1 and name OW");  // different text: its own entry
  EXPECT_NE(b, a);
  EXPECT_EQ(s[b].indices, s[a].indices);
}

TEST(Selection, NamesAreCheckedWhenDefined) {
  SelectionSet s(small_topology(), 16);
  s.define("O", "name OW");
  EXPECT_EQ(error_of(s, "name HW1", "O"),
            "selection 'O' is defined twice (first as 'name OW', again as 'name HW1')");
  EXPECT_NE(error_of(s, "all", "water").find("is a keyword"), std::string::npos);
  EXPECT_NE(error_of(s, "all", "a b").find("one word"), std::string::npos);
  try {
    s.define("", "all");
    ADD_FAILURE() << "an empty name was accepted";
  } catch (const molstep::Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no name"), std::string::npos) << e.what();
  }
  // A selection cannot refer to itself: only earlier selections are known.
  EXPECT_NE(error_of(s, "X or name OW", "X").find("unknown keyword 'X' at column 1"), std::string::npos);
}

TEST(Selection, UnknownKeywordQuotesNameExpressionAndColumn) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(error_of(s, "nme OW", "O"),
            "selection 'O': 'nme OW': unknown keyword 'nme' at column 1 (known: all, none, type, name, resname, "
            "resid, index, bynum, element, protein, water, not, and, or)");
  s.define("O", "name OW");
  const auto msg = error_of(s, "O and HW*", "H");
  EXPECT_NE(msg.find("unknown keyword 'HW*' at column 7"), std::string::npos) << msg;
  EXPECT_NE(msg.find("earlier selections: O"), std::string::npos) << msg;
  // Anonymous selections quote their text once.
  EXPECT_EQ(error_of(s, "nme OW", "").rfind("selection 'nme OW': unknown keyword 'nme' at column 1", 0), 0u);
}

TEST(Selection, NumericValueErrors) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(error_of(s, "type x", "T"),
            "selection 'T': 'type x': `type` needs numbers, found 'x' at column 6 (write single numbers or ranges "
            "a-b or a:b)");
  EXPECT_NE(error_of(s, "resid 1-x").find("`resid` needs numbers, found '1-x' at column 7"), std::string::npos);
  EXPECT_NE(error_of(s, "index 1.5").find("`index` needs numbers, found '1.5'"), std::string::npos);
  EXPECT_NE(error_of(s, "resid 5-2").find("range '5-2' at column 7 is empty"), std::string::npos);
}

TEST(Selection, IndexBeyondNatoms) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(error_of(s, "index 0-16", "I"),
            "selection 'I': 'index 0-16': `index` 16 at column 7 is beyond the last atom (index 15; 16 atoms)");
  EXPECT_NE(error_of(s, "bynum 17").find("`bynum` 17 at column 7 is beyond the last atom (bynum 16; 16 atoms)"),
            std::string::npos);
  EXPECT_NE(error_of(s, "bynum 0").find("`bynum` counts atoms from 1, found '0'"), std::string::npos);
  EXPECT_NE(error_of(s, "index -1").find("`index` counts atoms from 0"), std::string::npos);
}

TEST(Selection, SyntaxErrors) {
  SelectionSet s(small_topology(), 16);
  EXPECT_EQ(error_of(s, "", "E"), "selection 'E': '': empty expression; write e.g. 'all' or 'name OW'");
  EXPECT_NE(error_of(s, "   ").find("empty expression"), std::string::npos);
  EXPECT_NE(error_of(s, "(name OW").find("unbalanced parentheses: '(' at column 1 is never closed"),
            std::string::npos);
  EXPECT_NE(error_of(s, "name OW)").find("unbalanced parentheses: ')' at column 8 has no matching '('"),
            std::string::npos);
  EXPECT_NE(error_of(s, "((name OW)").find("unbalanced parentheses: '(' at column 1 is never closed"),
            std::string::npos);
  EXPECT_NE(error_of(s, ")").find("unbalanced parentheses"), std::string::npos);
  EXPECT_NE(error_of(s, "()").find("empty parentheses at column 1"), std::string::npos);
  EXPECT_NE(error_of(s, "name").find("'name' at column 1 needs at least one value, e.g. 'name OW HW*'"),
            std::string::npos);
  EXPECT_NE(error_of(s, "resid and name OW").find("'resid' at column 1 needs at least one value"),
            std::string::npos);
  EXPECT_NE(error_of(s, "type (1)").find("'type' at column 1 needs at least one value"), std::string::npos);
  EXPECT_NE(error_of(s, "name OW and").find("'and' at column 9 needs a selection after it"), std::string::npos);
  EXPECT_NE(error_of(s, "name OW or or all").find("'or' at column 9 needs a selection after it"), std::string::npos);
  EXPECT_NE(error_of(s, "and all").find("'and' at column 1 needs a selection before it"), std::string::npos);
  EXPECT_NE(error_of(s, "not").find("'not' at column 1 needs a selection after it"), std::string::npos);
  EXPECT_NE(error_of(s, "all none").find("expected 'and' or 'or' before 'none' at column 5"), std::string::npos);
  EXPECT_NE(error_of(s, "(all none)").find("expected 'and', 'or' or ')' before 'none' at column 6"),
            std::string::npos);
}

TEST(Selection, MissingTopologyDataSaysWhereToGetIt) {
  Topology only_types;
  only_types.type = {1, 2, 1, 2};
  SelectionSet s(only_types, 4);
  EXPECT_EQ(error_of(s, "name OW", "O"),
            "selection 'O': 'name OW': 'name' needs atom names; load a topology with --top FILE.gro|.pdb");
  EXPECT_NE(error_of(s, "resname SOL").find("'resname' needs residue names; load a topology with --top"),
            std::string::npos);
  EXPECT_NE(error_of(s, "resid 1").find("'resid' needs residue numbers"), std::string::npos);
  EXPECT_NE(error_of(s, "element O").find("'element' needs element symbols"), std::string::npos);
  EXPECT_NE(error_of(s, "protein").find("'protein' needs residue names"), std::string::npos);
  EXPECT_NE(error_of(s, "water").find("'water' needs residue names"), std::string::npos);
  // The whole expression is parsed before the topology is consulted: syntax errors come first.
  EXPECT_NE(error_of(s, "name OW and (").find("unbalanced parentheses"), std::string::npos);
  // Index-based keywords need nothing from the topology.
  EXPECT_EQ(eval(s, "index 1 or bynum 1"), (Indices{0, 1}));

  Topology names;
  names.name = {"OW", "HW1", "HW2"};
  SelectionSet t(names, 3);
  EXPECT_EQ(error_of(t, "type 1", "T"),
            "selection 'T': 'type 1': 'type' needs numeric atom types; load a topology with --top a LAMMPS data "
            "file or a LAMMPS dump with a type column");
  EXPECT_EQ(eval(t, "name OW"), (Indices{0}));
}

TEST(Selection, TopologySizeMismatchIsAnError) {
  Topology names;
  names.name = {"OW", "HW1", "HW2"};
  SelectionSet s(names, 6);
  EXPECT_NE(error_of(s, "name OW").find("the topology has 3 and the trajectory 6 atoms"), std::string::npos);
  EXPECT_EQ(eval(s, "bynum 4-6"), (Indices{3, 4, 5}));
}

TEST(Selection, FourMillionAtomsEvaluateQuickly) {
  // 4M atoms as 1M four-site waters plus a type column: every keyword family once, combined with
  // all operators. Linear passes finish in well under a second even in a debug build; a quadratic
  // one would not finish at all.
  constexpr std::size_t n = 4'000'000;
  Topology t;
  t.name.resize(n);
  t.resname.assign(n, "SOL");
  t.resid.resize(n);
  t.type.resize(n);
  t.element.resize(n);
  const char* site[4] = {"OW", "HW1", "HW2", "MW"};
  const char* elem[4] = {"O", "H", "H", "X"};
  for (std::size_t i = 0; i < n; ++i) {
    t.name[i] = site[i % 4];
    t.element[i] = elem[i % 4];
    t.resid[i] = static_cast<std::int64_t>(i / 4 + 1);
    t.type[i] = static_cast<int>(i % 4 + 1);
  }
  SelectionSet s(std::move(t), n);
  const auto start = std::chrono::steady_clock::now();
  const int o = s.define("O", "name OW");
  EXPECT_EQ(s[o].indices.size(), n / 4);
  const int h = s.define("H", "element H and not name MW");
  EXPECT_EQ(s[h].indices.size(), n / 2);
  EXPECT_EQ(eval(s, "O and resid 1-1000 500000:500009 or type 4 and bynum 1-8").size(), 1010u + 2u);
  EXPECT_EQ(eval(s, "water and not (O or H)").size(), n / 4);
  EXPECT_EQ(eval(s, "index 0-3999999 and not protein").size(), n);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Generous bound: shared CI machines and sanitizer builds are slow, quadratic would take hours.
  EXPECT_LT(seconds, 10.0);
  RecordProperty("seconds", std::to_string(seconds));
  std::printf("4M-atom selections: %.3f s\n", seconds);
}
