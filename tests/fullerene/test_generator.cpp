// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/canonical.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/expansion.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ipr_roots.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "molstep/fullerene/straight_steps.hpp"

namespace molstep::fullerene {
namespace {

// Isomer counts C20..C100 from the reference table (seed benchmark map; Brinkmann, Goedgebeur and
// McKay 2012). IPR counts C60..C120 as BuckyGen printed them (tests/data/fullerene/README.md).
const std::map<int, std::uint64_t> kAll = {
    {20, 1},      {24, 1},      {26, 1},      {28, 2},      {30, 3},      {32, 6},      {34, 6},
    {36, 15},     {38, 17},     {40, 40},     {42, 45},     {44, 89},     {46, 116},    {48, 199},
    {50, 271},    {52, 437},    {54, 580},    {56, 924},    {58, 1205},   {60, 1812},   {62, 2385},
    {64, 3465},   {66, 4478},   {68, 6332},   {70, 8149},   {72, 11190},  {74, 14246},  {76, 19151},
    {78, 24109},  {80, 31924},  {82, 39718},  {84, 51592},  {86, 63761},  {88, 81738},  {90, 99918},
    {92, 126409}, {94, 153493}, {96, 191839}, {98, 231017}, {100, 285914}};
const std::map<int, std::uint64_t> kIpr = {
    {60, 1},     {62, 0},     {64, 0},     {66, 0},     {68, 0},     {70, 1},     {72, 1},    {74, 1},
    {76, 2},     {78, 5},     {80, 7},     {82, 9},     {84, 24},    {86, 19},    {88, 35},   {90, 46},
    {92, 86},    {94, 134},   {96, 187},   {98, 259},   {100, 450},  {102, 616},  {104, 823}, {106, 1233},
    {108, 1799}, {110, 2355}, {112, 3342}, {114, 4468}, {116, 6063}, {118, 8148}, {120, 10774}};

// Larger isomer spaces take minutes: they run when MOLSTEP_LARGE_TESTS is set.
bool large_tests() { return std::getenv("MOLSTEP_LARGE_TESTS") != nullptr; }

std::uint64_t generate_count(int n, bool ipr) {
  Generator g(GeneratorOptions{n, ipr, 0, 1});
  return g.run([](const PlanarMap&) {});
}

void expect_counts(const std::map<int, std::uint64_t>& table, int lo, int hi, bool ipr) {
  for (const auto& [n, count] : table) {
    if (n >= lo && n <= hi) {
      EXPECT_EQ(generate_count(n, ipr), count) << (ipr ? "IPR C" : "C") << n;
    }
  }
}

TEST(FullereneGenerator, CountsAllIsomersC20ToC76) { expect_counts(kAll, 20, 76, false); }

TEST(FullereneGenerator, CountsIprIsomersC60ToC100) { expect_counts(kIpr, 60, 100, true); }

TEST(FullereneGenerator, CountsAllIsomersC78ToC100Large) {
  if (!large_tests()) GTEST_SKIP() << "set MOLSTEP_LARGE_TESTS=1 to count C78..C100";
  expect_counts(kAll, 78, 100, false);
}

TEST(FullereneGenerator, CountsIprIsomersC102ToC120Large) {
  if (!large_tests()) GTEST_SKIP() << "set MOLSTEP_LARGE_TESTS=1 to count IPR C102..C120";
  expect_counts(kIpr, 102, 120, true);
}

/// Degrees 5/6, twelve 5s, every neighbour list free of repeats and symmetric, every corner a
/// triangle with consistent orientation.
void expect_fullerene_dual(const PlanarMap& m, int n_atoms) {
  ASSERT_EQ(m.nv, n_atoms / 2 + 2);
  int pentagons = 0;
  for (int v = 0; v < m.nv; ++v) {
    ASSERT_TRUE(m.deg[v] == 5 || m.deg[v] == 6);
    pentagons += m.deg[v] == 5;
    for (int i = 0; i < m.deg[v]; ++i) {
      const int w = m.adj[v][i];
      const int x = m.adj[v][(i + 1) % m.deg[v]];
      ASSERT_NE(w, v);
      ASSERT_GE(m.index_of(w, v), 0);
      ASSERT_EQ(m.slot_of(w, v), m.index_of(w, v));
      ASSERT_EQ(m.slot_of(v, w), i);
      // Triangle v, w, x: around w, v comes right after x.
      ASSERT_EQ(m.adj[w][(m.index_of(w, x) + 1) % m.deg[w]], v);
      for (int j = 0; j < i; ++j) ASSERT_NE(m.adj[v][j], w);
    }
  }
  EXPECT_EQ(pentagons, 12);
}

TEST(FullereneGenerator, EveryIsomerIsAFullereneAndNoTwoAreIsomorphic) {
  for (const int n : {40, 50, 56}) {
    std::set<std::string> codes;
    Generator g(GeneratorOptions{n, false, 0, 1});
    g.run([&](const PlanarMap& m) {
      expect_fullerene_dual(m, n);
      codes.insert(canonical_code(as_triangulation(m)));
    });
    EXPECT_EQ(codes.size(), kAll.at(n)) << "C" << n;
  }
}

// The roots of the search, the (5,0) nanotubes up to C500 among them, are fullerene duals.
// Their neighbour lists used to come from a geometric sort alone, which misordered them from
// C120 on: C140 was counted 5 isomers too many and the C120 nanotube was written broken.
TEST(FullereneGenerator, SeedsAreFullerenesUpToTheLargestSize) {
  const int largest = 2 * PlanarMap::kMaxVertices - 4;
  const std::vector<Generator::Subtree> seeds = Generator(GeneratorOptions{largest, false, 0, 1}).seeds();
  EXPECT_EQ(seeds.size(), 1U + (PlanarMap::kMaxVertices - 12) / 5 + 1);  // C28-Td, C20 .. C500
  for (const Generator::Subtree& seed : seeds) {
    SCOPED_TRACE("seed of " + std::to_string(seed.root.nv) + " faces");
    expect_fullerene_dual(seed.root, 2 * seed.root.nv - 4);
    EXPECT_NO_THROW(validate(as_triangulation(seed.root)));
  }
}

std::vector<std::string> codes_of(const GeneratorOptions& options, bool only_ipr) {
  std::vector<std::string> codes;
  Generator(options).run([&](const PlanarMap& m) {
    if (!only_ipr || is_ipr(m)) codes.push_back(canonical_code(as_triangulation(m)));
  });
  return codes;
}

// --ipr searches within IPR fullerenes up to C160 (ipr_search.cpp) and, past that, the whole
// space pruned where no IPR isomer can lie below (dead(), the last levels' pairs of adjacent
// pentagons). Both must give exactly the IPR isomers of the whole search: the pruned one in its
// order, the one within IPR fullerenes in its own.
TEST(FullereneGenerator, IprSearchesGiveTheIprIsomersOfTheWholeSearch) {
  // C96 is the first size with an irreducible nanotube whose only IPR reductions are long rows that
  // wind round it (their expansions do not exist for the search).
  for (const int n : {84, 96}) {
    const std::vector<std::string> whole = codes_of(GeneratorOptions{n, false, 0, 1}, true);
    GeneratorOptions pruned{n, true, 0, 1};
    pruned.ipr_whole_search = true;
    EXPECT_EQ(codes_of(pruned, false), whole) << "C" << n;
    std::vector<std::string> within = codes_of(GeneratorOptions{n, true, 0, 1}, false);
    EXPECT_EQ(within.size(), kIpr.at(n)) << "C" << n;
    std::vector<std::string> sorted_whole = whole;
    std::sort(within.begin(), within.end());
    std::sort(sorted_whole.begin(), sorted_whole.end());
    EXPECT_EQ(within, sorted_whole) << "C" << n;
  }
}

// The IPR isomers of C110 and C120 with every shortcut of the search, and with one turned off
// (`off` clears it): the same isomers, each once (the counts are the published ones).
void expect_same_ipr_isomers_without(bool GeneratorOptions::*off) {
  for (const int n : {110, 120}) {
    std::vector<std::string> with = codes_of(GeneratorOptions{n, true, 0, 1}, false);
    GeneratorOptions plain{n, true, 0, 1};
    plain.*off = false;
    std::vector<std::string> without = codes_of(plain, false);
    EXPECT_EQ(with.size(), kIpr.at(n)) << "C" << n;
    std::sort(with.begin(), with.end());
    std::sort(without.begin(), without.end());
    EXPECT_EQ(with, without) << "C" << n;
  }
}

// BuckyGen's bound on the long expansions of an IPR fullerene with a B00 reduction (ipr_search.cpp)
// leaves out only expansions whose children are not canonical: the search with it gives the same
// isomers as the search that tries every expansion.
TEST(FullereneGenerator, IprLongEndsBoundLosesNoIsomer) {
  expect_same_ipr_isomers_without(&GeneratorOptions::ipr_long_ends);
}

// The parent's blocked rows (Generator::IprLasting) turn children down before they are built: the
// same isomers come out without them, where the children's own tests find those rows.
TEST(FullereneGenerator, IprBlockedRowsLoseNoIsomer) {
  expect_same_ipr_isomers_without(&GeneratorOptions::ipr_blocked_rows);
}

// The search within IPR fullerenes starts from the irreducible ones: the stored list must be
// exactly those of the whole search (recomputed here up to C90; bench/fullerene_irreducible_ipr.cpp
// does it up to C160, as MOLSTEP_LARGE_TESTS does up to C110).
TEST(FullereneGenerator, IrreducibleIprListIsComplete) {
  const int last = large_tests() ? 110 : 90;
  std::vector<std::string> stored;
  for (const Spiral& s : irreducible_ipr_fullerenes())
    if (s.atoms <= last) stored.push_back(format_spiral(s));
  std::vector<std::string> found;
  for (int n = 60; n <= last; n += 2) {
    GeneratorOptions whole{n, true, 0, 1};
    whole.ipr_whole_search = true;
    Generator(whole).run([&](const PlanarMap& m) {
      if (!reduces_to_smaller_ipr(m))
        found.push_back(format_spiral(canonical_general_spiral(as_triangulation(m))));
    });
  }
  // The same spirals, each once (the order is the search's, which its canonical choices set).
  std::sort(found.begin(), found.end());
  std::sort(stored.begin(), stored.end());
  EXPECT_EQ(found, stored);
  // Every stored spiral is its isomer's canonical one and names an IPR fullerene.
  for (const Spiral& s : irreducible_ipr_fullerenes()) {
    const Triangulation t = triangulation_from_spiral(s);
    EXPECT_EQ(canonical_general_spiral(t), s) << format_spiral(s);
    EXPECT_TRUE(is_ipr(as_planar_map(t))) << format_spiral(s);
  }
}

// Past the exhaustive list the irreducible IPR fullerenes are grown: nanotubes one ring longer
// (ipr_rings.cpp). Grown from the list up to C112 alone, size after size from what they grow
// into, they must give exactly the exhaustive list from C114 to C160, where every irreducible IPR
// fullerene is such a nanotube. Growing from C100 misses two at C108 and C112 that are not.
TEST(FullereneGenerator, IrreducibleIprTubesGrowIntoTheExhaustiveList) {
  std::vector<Spiral> known;
  for (const Spiral& s : irreducible_ipr_fullerenes())
    if (s.atoms <= 112) known.push_back(s);
  int grown_total = 0;
  for (int n = 114; n <= kIrreducibleIprComplete; n += 2) {
    std::vector<std::string> stored;
    for (const Spiral& s : irreducible_ipr_fullerenes())
      if (s.atoms == n) stored.push_back(format_spiral(s));
    std::sort(stored.begin(), stored.end());
    std::vector<std::string> grown;
    for (const Spiral& s : irreducible_ipr_grown(known, n)) {
      grown.push_back(format_spiral(s));
      known.push_back(s);
    }
    EXPECT_EQ(grown, stored) << "C" << n;
    grown_total += static_cast<int>(grown.size());
  }
  EXPECT_EQ(grown_total, 28);
  std::vector<Spiral> from_c100;
  for (const Spiral& s : irreducible_ipr_fullerenes())
    if (s.atoms <= 100) from_c100.push_back(s);
  EXPECT_EQ(irreducible_ipr_grown(from_c100, 108).size(), 1U);
  // Past the list: grown ones, each an irreducible IPR fullerene under its canonical name.
  const std::vector<Spiral> up_to = irreducible_ipr_fullerenes_up_to(180);
  std::vector<Spiral> past;
  for (const Spiral& s : up_to)
    if (s.atoms > kIrreducibleIprComplete) past.push_back(s);
  EXPECT_EQ(up_to.size(), irreducible_ipr_fullerenes().size() + past.size());
  EXPECT_EQ(past.size(), 10U);
  for (const Spiral& s : past) {
    const Triangulation t = triangulation_from_spiral(s);
    EXPECT_EQ(canonical_general_spiral(t), s) << format_spiral(s);
    EXPECT_TRUE(is_ipr(as_planar_map(t))) << format_spiral(s);
    EXPECT_FALSE(reduces_to_smaller_ipr(as_planar_map(t))) << format_spiral(s);
  }
}

// Whether a reduction is one within IPR fullerenes is read off the map; a row longer than
// kRowsAlwaysValid is contracted on a copy as well, but only when that reading passes. The answer
// must be contracting a copy's, except for rows whose expansion would walk a vertex twice (its
// corners and targets not distinct and off the row), on every reduction of up to 10 faces of
// every IPR isomer of C100 and C110.
TEST(FullereneGenerator, ReductionWithinIprReadOffTheMapAgreesWithContracting) {
  int checked = 0;
  int long_rows = 0;
  PlanarMap scratch;
  PlanarMap reduced;
  std::array<int, PlanarMap::kMaxVertices> path{};
  std::array<int, PlanarMap::kMaxVertices> target{};
  std::array<int, 2> corners{};
  const auto walks_a_vertex_twice = [&](const PlanarMap& g, const RowOp& row) {
    if (!row_slides(g, row, path.data(), target.data(), corners)) return false;
    std::set<int> seen(path.begin(), path.begin() + row.m + 1);
    bool repeat = !seen.insert(corners[0]).second || !seen.insert(corners[1]).second;
    for (int j = 0; j <= row.m; ++j)
      repeat = !seen.insert(target[static_cast<std::size_t>(j)]).second || repeat;
    return repeat;
  };
  for (const int n : {100, 110})
    Generator(GeneratorOptions{n, true, 0, 1}).run([&](const PlanarMap& g) {
      for_each_reduction(g, 10, [&](const RowOp& row) {
        reduced.copy_from(g);
        const bool contracted = contract(reduced, row) && is_ipr(reduced);
        if (reduces_within_ipr(g, row, scratch)) {
          EXPECT_TRUE(contracted);
          ++checked;
          if (row.size() > kRowsAlwaysValid) ++long_rows;
        } else if (contracted) {
          EXPECT_TRUE(walks_a_vertex_twice(g, row))
              << "C" << n << " row of " << row.size() << " from " << row.r0;
        }
        return true;
      });
    });
  EXPECT_GT(checked, 10000);
  EXPECT_GT(long_rows, 100);
}

// PentagonRings::after reads the same four neighbours as walking round the pentagon, and
// PentagonNeighbours counts the pentagons next to each face, on every C60 isomer; VertexSet::put
// adds one face and no other.
TEST(FullereneGenerator, PentagonRingsAndCountsMatchTheMap) {
  PentagonRings rings{};
  PentagonNeighbours near{};
  int views = 0;
  Generator(GeneratorOptions{60, false, 0, 1}).run([&](const PlanarMap& g) {
    rings.fill(g);
    near.fill(g);
    for (int v = 0; v < g.nv; ++v) {
      int count = 0;
      for (int i = 0; i < g.deg[v]; ++i) count += g.deg[g.adj[v][i]] == 5 ? 1 : 0;
      EXPECT_EQ(near.count[static_cast<std::size_t>(v)], count) << "face " << v;
    }
    for (const int p : g.pentagons)
      for (int k = 0; k < 5; ++k)
        for (const int s : {1, -1}) {
          int bits = 0;
          for (int i = 1; i <= 4; ++i) bits = bits << 1 | (g.deg[g.at(p, k, i * s)] == 5 ? 1 : 0);
          EXPECT_EQ(PentagonRings::after(rings.of[static_cast<std::size_t>(p)], k, s), bits)
              << "pentagon " << p << " slot " << k << " s " << s;
          ++views;
        }
  });
  EXPECT_EQ(views, 1812 * 12 * 5 * 2);
  for (int v = 0; v < PlanarMap::kMaxVertices; ++v) {
    VertexSet one;
    one.put(v);
    for (int w = 0; w < PlanarMap::kMaxVertices; ++w) ASSERT_EQ(one.has(w), w == v) << v << " " << w;
  }
}

// corners_clear_of_pentagons is a necessary condition of reduces_within_ipr, on every view of up
// to 8 faces of every IPR isomer of C100 (and it turns many views down).
TEST(FullereneGenerator, CornersNextToAPentagonMeanNoReductionWithinIpr) {
  PlanarMap scratch;
  int turned_down = 0;
  int reducing = 0;
  PentagonNeighbours near;
  Generator(GeneratorOptions{100, true, 0, 1}).run([&](const PlanarMap& g) {
    near.fill(g);
    for_each_reduction(g, 8, [&](const RowOp& row, int end, const std::array<int, 2>& corners) {
      const bool reduces = reduces_within_ipr(g, row, scratch);
      if (!corners_clear_of_pentagons(g, near, row, end, corners)) {
        EXPECT_FALSE(reduces) << "row of " << row.size() << " from " << row.r0;
        ++turned_down;
      }
      reducing += reduces ? 1 : 0;
      return true;
    });
  });
  EXPECT_GT(turned_down, 10000);
  EXPECT_GT(reducing, 1000);
}

TEST(FullereneGenerator, PartsPartitionTheIsomerSpace) {
  std::set<std::string> codes;
  std::uint64_t total = 0;
  for (int part = 0; part < 3; ++part) {
    Generator g(GeneratorOptions{56, false, part, 3});
    total += g.run([&](const PlanarMap& m) { codes.insert(canonical_code(as_triangulation(m))); });
  }
  EXPECT_EQ(total, kAll.at(56));
  EXPECT_EQ(codes.size(), kAll.at(56));
  EXPECT_EQ(count_isomers(60, false, 2), kAll.at(60));
  EXPECT_EQ(count_isomers(70, true, 2), kIpr.at(70));
  // Counted by parts, on one thread or as tasks on several, the parts add up to the whole.
  for (const auto& [n, ipr, parts] : {std::tuple{64, false, 5}, std::tuple{80, true, 3}})
    for (const int threads : {1, 3}) {
      std::uint64_t sum = 0;
      for (int part = 0; part < parts; ++part) {
        const std::uint64_t here = count_isomers(n, ipr, threads, part, parts);
        EXPECT_EQ(here, count_isomers(n, ipr, 1, part, parts)) << "C" << n << " part " << part;
        sum += here;
      }
      EXPECT_EQ(sum, (ipr ? kIpr : kAll).at(n)) << "C" << n << " on " << threads << " threads";
    }
}

// IPR C130's parts are dealt out at C90: the nodes up to Generator::kPartCapReach faces below
// (C84-C88) are numbered, hand their expansions past C90 to the part of their number, and in the
// other parts do not try them. The parts still add up (a version that gave such a child to the
// part of the nodes dealt out so far, not to its parent's, counted 9,498).
TEST(FullereneGenerator, IprPartsWithJumpsPastTheForkAddUp) {
  std::uint64_t sum = 0;
  for (int part = 0; part < 7; ++part) sum += count_isomers(130, true, 1, part, 7);
  EXPECT_EQ(sum, 39393U);
}

// Past C150 the IPR parts are dealt out at C110 (kMaxSplitFacesIpr), not 20 faces short of the
// target: they still add up (BuckyGen's count).
TEST(FullereneGenerator, IprPartsForkedAtTheCapAddUpLarge) {
  if (!large_tests()) GTEST_SKIP() << "set MOLSTEP_LARGE_TESTS=1 to count IPR C152 in parts";
  static_assert(152 / 2 + 2 - 20 > Generator::kMaxSplitFacesIpr);
  std::uint64_t sum = 0;
  for (int part = 0; part < 4; ++part) sum += count_isomers(152, true, 2, part, 4);
  EXPECT_EQ(sum, 404667U);
}

TEST(FullereneGenerator, ExpansionIsUndoneByItsReduction) {
  int checked = 0;
  Generator g(GeneratorOptions{44, false, 0, 1});
  g.run([&](const PlanarMap& h) {
    for_each_expansion(h, 8, [&](const Expansion& e, const VertexSet&) {
      PlanarMap child;
      child.copy_from(h);
      RowOp row;
      if (!expand(child, e, row)) return;
      std::array<int, PlanarMap::kMaxVertices> path{};
      ASSERT_TRUE(walk_row(child, row, path.data()));
      const RowOp back = reversed(child, row);
      ASSERT_TRUE(walk_row(child, back, path.data()));
      ASSERT_EQ(path[back.m], row.r0);
      PlanarMap undone;
      undone.copy_from(child);
      ASSERT_TRUE(contract(undone, row));
      undone.nv = h.nv;  // the row was numbered after h's vertices
      for (int v = 0; v < h.nv; ++v) {
        ASSERT_EQ(undone.deg[v], h.deg[v]);
        const int shift = undone.index_of(v, h.adj[v][0]);
        ASSERT_GE(shift, 0);
        for (int i = 0; i < h.deg[v]; ++i) ASSERT_EQ(undone.adj[v][(i + shift) % h.deg[v]], h.adj[v][i]);
      }
      ++checked;
    });
  });
  EXPECT_GT(checked, 10000);
}

// BuckyGen's bound that the search relies on (generator.cpp, search): a fullerene with three
// L1 reductions, or three B00, no two of which share an end, has no expansion of more than 3
// faces whose child lacks a smaller reduction, so no such child is canonical. Below C140 every
// fullerene has a reduction of at most 3 faces, so the check takes maps of C136 whose children
// of 4 to 7 faces (C144 to C150) could need more: the IPR isomers of part 1 of 64 (no L0
// reduction; 940 of the 949 have three such reductions), and every such expansion of each
// (307,848 children). (The other 9 pass too: this shows the bound safe, not needed.)
TEST(FullereneGenerator, ThreeIndependentShortReductionsLeaveEveryLongerChildASmallerOne) {
  const auto reduces = [](const PlanarMap& g, const RowOp& c) {
    PlanarMap copy;
    copy.copy_from(g);
    return contract(copy, c);
  };
  const auto three_apart = [](const std::vector<std::array<int, 2>>& ends) {
    const auto apart = [](const std::array<int, 2>& a, const std::array<int, 2>& b) {
      return a[0] != b[0] && a[0] != b[1] && a[1] != b[0] && a[1] != b[1];
    };
    for (std::size_t i = 0; i < ends.size(); ++i)
      for (std::size_t j = i + 1; j < ends.size(); ++j)
        for (std::size_t k = j + 1; k < ends.size(); ++k)
          if (apart(ends[i], ends[j]) && apart(ends[i], ends[k]) && apart(ends[j], ends[k])) return true;
    return false;
  };
  int maps = 0;
  int children = 0;
  const auto check = [&](const PlanarMap& h) {
    std::array<std::vector<std::array<int, 2>>, 2> ends;  // L1, B00
    bool has_l0 = false;
    for_each_reduction(h, 3, [&](const RowOp& c, int r_m) {
      if (!reduces(h, c)) return true;
      if (c.size() == 2) has_l0 = true;
      if (c.size() == 3) ends[c.bend < 0 ? 0 : 1].push_back({c.r0, r_m});
      return true;
    });
    if (has_l0 || (!three_apart(ends[0]) && !three_apart(ends[1]))) return;
    ++maps;
    for_each_expansion(h, 7, [&](const Expansion& e, const VertexSet&) {
      if (e.size() < 4) return;
      PlanarMap child;
      child.copy_from(h);
      RowOp row;
      if (!expand(child, e, row)) return;
      bool smaller = false;
      for_each_reduction(child, e.size() - 1, [&](const RowOp& c) {
        smaller = reduces(child, c);
        return !smaller;
      });
      EXPECT_TRUE(smaller) << "C" << 2 * h.nv - 4 << ": an expansion of " << e.size() << " faces from " << e.a0;
      ++children;
    });
  };
  // IPR isomers have no L0 reduction: a part of the IPR isomers of C136.
  Generator gen(GeneratorOptions{136, true, 0, 64});
  gen.run(check);
  EXPECT_GT(maps, 900);
  EXPECT_GT(children, 300000);
}

// for_each_expansion_once lists each expansion exactly once (the search within IPR fullerenes
// relies on it): from one end of its new row, or from the only end whose walk lists it when a
// long straight row winds round the map so that the other end's path repeats a vertex. The
// description from the other end is read off the child (the new row seen from its other end,
// whose corners and targets are the other description's a_0, z and path); for_each_expansion
// must list it exactly when undone_by_listed_expansion says so, and the once-walk must list one
// description of each pair. Checked on every isomer of C44 (where long rows wind round the whole
// map), the IPR isomers of C90 and the irreducible IPR fullerenes up to C130 (nanotubes, where
// long rows wind round the tube), sizes 3 to 10, and 11 to 14 on the tubes of C114.
// for_each_expansion walks from each pentagon's straight paths and bends only where a straight
// walk from a pentagon crosses the way back (StraightWalks); the IPR listing also skips starts and
// bends whose children cannot be IPR. Both are checked against every description tried one by
// one: pentagon a0, neighbour t0, orientation, length and bend, the path walked and accepted when
// its faces, a0 and z are distinct and z is a pentagon.
TEST(FullereneGenerator, ExpansionsAreThePathsThatWalk) {
  using Description = std::tuple<int, int, int, int, int, int>;  // a0, t0, s, m, bend, z
  const auto tried = [](const PlanarMap& h, int min_size, int max_size) {
    std::set<Description> found;
    for (const int a0 : h.pentagons)
      for (int k = 0; k < 5; ++k)
        for (const int s : {1, -1})
          for (int m = std::max(1, min_size - 1); m <= max_size - 1; ++m)
            for (int b = -1; b < m; b = b < 0 ? 1 : b + 1) {  // straight, then bent at 1..m-1
              std::vector<int> path{h.adj[a0][k]};
              int prev = a0;
              for (int j = 0; j < m; ++j) {
                const int cur = path.back();
                path.push_back(h.at(cur, h.index_of(cur, prev), (j == b ? 2 : 3) * s));
                prev = cur;
              }
              const int z = h.at(path[m], h.index_of(path[m], prev), (b < 0 ? 2 : 3) * s);
              std::set<int> faces(path.begin(), path.end());
              faces.insert(a0);
              if (faces.size() != path.size() + 1 || faces.contains(z) || h.deg[z] != 5) continue;
              found.insert(Description{a0, path[0], s, m, b, z});
            }
    return found;
  };
  int checked = 0;
  int ipr_children = 0;
  const auto check = [&](const PlanarMap& h, int min_size, int max_size) {
    std::set<Description> walked;
    for_each_expansion(h, min_size, max_size, 0xfff, [&](const Expansion& e, const VertexSet&) {
      ASSERT_TRUE(walked.insert(Description{e.a0, e.t0, e.s, e.m, e.bend, e.z}).second);
    });
    ASSERT_EQ(walked, tried(h, min_size, max_size)) << "nv " << h.nv << " sizes " << min_size << "-" << max_size;
    checked += static_cast<int>(walked.size());
    if (!is_ipr(h)) return;
    std::set<Description> once;
    for_each_expansion_once(h, min_size, max_size, [&](const Expansion& e, const VertexSet&) {
      if (!new_pentagon_meets_one(h, e)) once.insert(Description{e.a0, e.t0, e.s, e.m, e.bend, e.z});
    });
    std::set<Description> ipr;
    for_each_ipr_expansion_once(
        h, min_size, max_size, ~std::uint64_t{0}, [](const Expansion&) { return true; },
        [&](const Expansion& e, const VertexSet&) { ipr.insert(Description{e.a0, e.t0, e.s, e.m, e.bend, e.z}); });
    ASSERT_EQ(ipr, once) << "nv " << h.nv << " sizes " << min_size << "-" << max_size;
    ipr_children += static_cast<int>(ipr.size());
    // With some sizes left out (as the IPR search leaves out the dead ones), the rest are listed.
    if (max_size > 64) return;  // sizes then cover them all
    for (const std::uint64_t sizes : {std::uint64_t{0b101100}, std::uint64_t{0x1555}, std::uint64_t{1} << (max_size - 1)}) {
      std::set<Description> some;
      for_each_ipr_expansion_once(
          h, min_size, max_size, sizes, [](const Expansion&) { return true; },
          [&](const Expansion& e, const VertexSet&) { some.insert(Description{e.a0, e.t0, e.s, e.m, e.bend, e.z}); });
      std::set<Description> expected;
      for (const Description& d : ipr)
        if ((sizes >> std::get<3>(d) & 1U) != 0) expected.insert(d);
      ASSERT_EQ(some, expected) << "nv " << h.nv << " sizes mask " << sizes;
    }
  };
  Generator(GeneratorOptions{44, false, 0, 1}).run([&](const PlanarMap& h) {
    check(h, 2, 10);
    check(h, 3, 6);
  });
  Generator(GeneratorOptions{90, true, 0, 1}).run([&](const PlanarMap& h) { check(h, 3, 12); });
  for (const Spiral& s : irreducible_ipr_fullerenes()) {
    if (s.atoms > 130) continue;
    const PlanarMap h = as_planar_map(triangulation_from_spiral(s));
    check(h, 3, 14);
    check(h, 3, s.atoms / 2 + 2);
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(ipr_children, 1000);
}

TEST(FullereneGenerator, ExpansionsListedOnceListEachExpansionOnce) {
  using Description = std::tuple<int, int, int, int, int>;  // a0, t0, s, m, bend
  const auto description = [](const Expansion& e) { return Description{e.a0, e.t0, e.s, e.m, e.bend}; };
  int checked = 0;
  int from_one_end = 0;  // expansions whose other end's walk does not list them
  const auto listed = [&](const PlanarMap& h, int size, bool once) {
    std::map<Description, int> found;
    const auto add = [&](const Expansion& e, const VertexSet&) { ++found[description(e)]; };
    if (once)
      for_each_expansion_once(h, size, size, add);
    else
      for_each_expansion(h, size, size, 0xfff, add);
    return found;
  };
  const auto check = [&](const PlanarMap& h, int min_size, int max_size) {
    for (int size = min_size; size <= max_size; ++size) {
      const auto both = listed(h, size, false);
      const auto once = listed(h, size, true);
      for (const auto& [d, n] : once) {
        ASSERT_EQ(n, 1);
        ASSERT_TRUE(both.contains(d));
      }
      for (const auto& [d, n] : both) {
        ASSERT_EQ(n, 1);
        const auto [a0, t0, s, m, bend] = d;
        PlanarMap child;
        child.copy_from(h);
        RowOp row;
        ASSERT_TRUE(expand(child, Expansion{a0, t0, s, m, bend, -1}, row));
        ASSERT_TRUE(undone_by_listed_expansion(child, row));
        const RowOp back = reversed(child, row);
        std::array<int, PlanarMap::kMaxVertices> path{};
        std::array<int, PlanarMap::kMaxVertices> target{};
        std::array<int, 2> corners{};
        ASSERT_TRUE(row_slides(child, back, path.data(), target.data(), corners));
        ASSERT_EQ(corners[1], a0);
        const Description other{corners[0], target[0], back.s, back.m, back.bend};
        const bool listed_there = undone_by_listed_expansion(back, path.data(), target.data(), corners);
        ASSERT_EQ(both.contains(other), listed_there) << "nv " << h.nv << " size " << size;
        if (!listed_there) ++from_one_end;
        const int times = static_cast<int>(once.contains(d)) + static_cast<int>(listed_there && once.contains(other));
        ASSERT_EQ(times, 1) << "nv " << h.nv << " size " << size << " a0 " << a0 << " t0 " << t0;
        ++checked;
      }
    }
  };
  Generator(GeneratorOptions{44, false, 0, 1}).run([&](const PlanarMap& h) { check(h, 3, 10); });
  Generator(GeneratorOptions{90, true, 0, 1}).run([&](const PlanarMap& h) { check(h, 3, 10); });
  for (const Spiral& s : irreducible_ipr_fullerenes()) {
    if (s.atoms > 130) continue;
    const PlanarMap h = as_planar_map(triangulation_from_spiral(s));
    check(h, 3, 10);
    if (s.atoms == 114) check(h, 11, 14);
  }
  EXPECT_GT(checked, 40000);
  EXPECT_GT(from_one_end, 0);  // the winding rows were met
}

// kRowsAlwaysListed: the searches take every reduction of up to 4 faces that they meet as one
// its parent's walks list (longer ones are checked): on every isomer of C20 to C60, each such
// reduction contracts to a fullerene and is undone by a listed expansion. At 5 faces the first
// exceptions are the C30 nanotube's (a seed: never tested as a child), so they are checked from
// there on.
TEST(FullereneGenerator, ReductionsOfUpToFourFacesAreUndoneByListedExpansions) {
  int checked = 0;
  int five_unlisted = 0;
  for (int atoms = 20; atoms <= 60; atoms += 2) {
    if (atoms == 22) continue;
    Generator(GeneratorOptions{atoms, false, 0, 1}).run([&](const PlanarMap& g) {
      for_each_reduction(g, kRowsAlwaysListed + 1, [&](const RowOp& row) {
        PlanarMap reduced;
        reduced.copy_from(g);
        if (row.size() > kRowsAlwaysListed) {
          if (contract(reduced, row) && !undone_by_listed_expansion(g, row)) ++five_unlisted;
          return true;
        }
        EXPECT_TRUE(contract(reduced, row));
        EXPECT_TRUE(undone_by_listed_expansion(g, row));
        ++checked;
        return true;
      });
    });
  }
  EXPECT_GT(checked, 100000);
  EXPECT_EQ(five_unlisted, 4);  // the C30 nanotube's
}

// old_neighbours_of_new_ends names exactly the old vertices next to the child's new row ends:
// every expansion of 3 to 10 faces of every isomer of C44 and of the IPR isomers of C90.
TEST(FullereneGenerator, OldNeighboursOfNewEndsAreTheChildsOwn) {
  int checked = 0;
  const auto check = [&](const PlanarMap& h) {
    for_each_expansion(h, 3, 10, 0xfff, [&](const Expansion& e, const VertexSet&) {
      PlanarMap child;
      child.copy_from(h);
      RowOp row;
      ASSERT_TRUE(expand(child, e, row));
      std::array<int, PlanarMap::kMaxVertices> path{};
      ASSERT_TRUE(walk_row(child, row, path.data()));
      VertexSet expected;
      for (const int end : {path[0], path[static_cast<std::size_t>(row.m)]})
        for (int i = 0; i < child.deg[end]; ++i)
          if (child.adj[end][i] < h.nv) expected.add(child.adj[end][i]);
      VertexSet named;
      old_neighbours_of_new_ends(h, e, named);
      ASSERT_EQ(named.words, expected.words) << "nv " << h.nv << " m " << e.m << " bend " << e.bend;
      // The walk names the path's last two vertices; without them the path is walked again.
      ASSERT_GE(e.tm, 0);
      Expansion unnamed = e;
      unnamed.tm = unnamed.tm_prev = -1;
      VertexSet walked;
      old_neighbours_of_new_ends(h, unnamed, walked);
      ASSERT_EQ(walked.words, expected.words);
      ++checked;
    });
  };
  Generator(GeneratorOptions{44, false, 0, 1}).run(check);
  Generator(GeneratorOptions{90, true, 0, 1}).run(check);
  EXPECT_GT(checked, 100000);
}

/// Calls check(h) on every IPR isomer of C90 and every irreducible IPR fullerene up to C110.
template <class F>
void on_ipr_c90_and_irreducible_up_to_c110(F&& check) {
  Generator(GeneratorOptions{90, true, 0, 1}).run(check);
  for (const Spiral& s : irreducible_ipr_fullerenes())
    if (s.atoms <= 110) check(as_planar_map(triangulation_from_spiral(s)));
}

// The IPR search turns down an expansion whose child is not IPR before its rewritten vertices are
// put together (new_pentagon_meets_one, which reads two faces): exactly the children is_ipr
// turns down, for every expansion of 3 to 10 faces of the IPR isomers of C90 and of the
// irreducible IPR fullerenes up to C110.
TEST(FullereneGenerator, NewPentagonsMeetOneExactlyWhenTheChildIsNotIpr) {
  int ipr = 0;
  int not_ipr = 0;
  const auto check = [&](const PlanarMap& h) {
    for_each_expansion_once(h, 3, 10, [&](const Expansion& e, const VertexSet&) {
      PlanarMap child;
      child.copy_from(h);
      RowOp row;
      ASSERT_TRUE(expand(child, e, row));
      const bool child_ipr = is_ipr(child);
      ASSERT_EQ(new_pentagon_meets_one(h, e), !child_ipr) << "nv " << h.nv << " m " << e.m << " bend " << e.bend;
      ++(child_ipr ? ipr : not_ipr);
    });
  };
  on_ipr_c90_and_irreducible_up_to_c110(check);
  EXPECT_GT(ipr, 1000);
  EXPECT_GT(not_ipr, 10000);
}

// The IPR search's prune (IprLasting): a parent's reduction within IPR fullerenes of up to 5
// faces is still one in every IPR child whose expansion rewrites none of its faces and brings
// neither corner next to a new pentagon, even when the expansion rewrites the corners. Every
// such pair on the IPR isomers of C90 and the irreducible IPR fullerenes up to C110, expansions
// of 3 to 8 faces.
TEST(FullereneGenerator, ParentReductionsLastWhenOnlyTheirCornersAreRewritten) {
  struct Kept {
    RowOp view;
    RowOp back;  // the other view
    VertexSet row;
    std::array<int, 2> corners;
  };
  int checked = 0;
  int corners_rewritten = 0;
  PlanarMap scratch;
  const auto check = [&](const PlanarMap& h) {
    std::vector<Kept> kept;
    for_each_reduction(h, 5, [&](const RowOp& c, int end) {
      std::array<int, 5> path{};
      std::array<int, 5> target{};
      std::array<int, 2> corners{};
      if (c.size() < 3 || end < c.r0 || !row_slides(h, c, path.data(), target.data(), corners)) return true;
      if (!reduces_within_ipr(h, c, path.data(), target.data(), corners, scratch)) return true;
      Kept k{c, reversed(c, path.data()), {}, corners};
      EXPECT_TRUE(same_view(k.back, reversed(h, c)));
      for (int j = 0; j <= c.m; ++j) k.row.add(path[static_cast<std::size_t>(j)]);
      kept.push_back(k);
      return true;
    });
    for_each_expansion(h, 3, 8, 0xfff, [&](const Expansion& e, const VertexSet& changed) {
      VertexSet next;
      old_neighbours_of_new_ends(h, e, next);
      for (const int p : h.pentagons)
        if (p != e.a0 && p != e.z && next.has(p)) return;  // the child is not IPR
      PlanarMap child;
      child.copy_from(h);
      RowOp row;
      ASSERT_TRUE(expand(child, e, row));
      ASSERT_TRUE(is_ipr(child));
      for (const Kept& k : kept) {
        if (k.row.meets(changed) || next.has(k.corners[0]) || next.has(k.corners[1])) continue;
        EXPECT_TRUE(reduces_within_ipr(child, k.view, scratch)) << "nv " << h.nv << " a0 " << e.a0;
        // Its other view too (ipr_search's rivals compete from both ends).
        EXPECT_TRUE(reduces_within_ipr(child, k.back, scratch)) << "nv " << h.nv << " a0 " << e.a0;
        if (changed.has(k.corners[0]) || changed.has(k.corners[1])) ++corners_rewritten;
        ++checked;
      }
    });
  };
  on_ipr_c90_and_irreducible_up_to_c110(check);
  EXPECT_GT(checked, 10000);
  EXPECT_GT(corners_rewritten, 1000);
}

/// An expansion as a listing hands it out: its description, path ends and rewritten faces.
using ListedExpansion = std::tuple<int, int, int, int, int, int, int, int, std::vector<std::uint64_t>>;
/// A listing's f that appends each expansion to `out`.
auto record(std::vector<ListedExpansion>& out) {
  return [&out](const Expansion& e, const VertexSet& changed) {
    out.emplace_back(e.a0, e.t0, e.s, e.m, e.bend, e.z, e.tm, e.tm_prev,
                     std::vector<std::uint64_t>(changed.words.begin(), changed.words.end()));
  };
}

/// LongEnds of h with the given sizes and its sets drawn at random: a third of the pentagons in
/// `any`, half in `near`, half of the faces in `close` and a third in `through`.
LongEnds random_long_ends(const PlanarMap& h, int min_size, int far_size, std::mt19937& rng) {
  LongEnds ends;
  ends.min_size = min_size;
  ends.far_size = far_size;
  for (const int p : h.pentagons) {
    if (rng() % 3 == 0) ends.any.add(p);
    if (rng() % 2 == 0) ends.near.add(p);
  }
  for (int v = 0; v < h.nv; ++v) {
    if (rng() % 2 == 0) ends.close.add(v);
    if (rng() % 3 == 0) ends.through.add(v);
  }
  return ends;
}

// With LongEnds, for_each_ipr_expansion_once lists the expansions shorter than min_size as it
// does without, and the longer ones only when an end qualifies for their size (a straight
// expansion's other end leaves z along the strip beside the path, a bent one's along the same
// path backwards), each once and from a qualifying end. LongEnds drawn at random on the IPR
// isomers of C90 and the irreducible IPR fullerenes up to C110, expansions of 3 to 12 faces.
TEST(FullereneGenerator, IprLongEndsListEachQualifyingExpansionOnce) {
  std::mt19937 rng(2026);
  std::size_t long_listed = 0;
  std::size_t long_left_out = 0;
  on_ipr_c90_and_irreducible_up_to_c110([&](const PlanarMap& h) {
    // An expansion whichever end lists it: each end with its path's first face, its size and the
    // faces it rewrites.
    using Key = std::tuple<std::pair<int, int>, std::pair<int, int>, int, std::vector<std::uint64_t>>;
    const auto other_first = [&h](const Expansion& e) {
      return e.bend >= 0 ? e.tm : h.at(e.tm, h.index_of(e.tm, e.tm_prev), e.s);
    };
    const auto key = [&](const Expansion& e, const VertexSet& changed) {
      std::pair<int, int> here{e.a0, e.t0};
      std::pair<int, int> there{e.z, other_first(e)};
      if (there < here) std::swap(here, there);
      return Key{here, there, e.m, std::vector<std::uint64_t>(changed.words.begin(), changed.words.end())};
    };
    const auto all = [](const Expansion&) { return true; };
    for (const auto& [min_size, far_size] : {std::pair{4, 0}, std::pair{5, 0}, std::pair{4, 5}, std::pair{4, 7}}) {
      const LongEnds ends = random_long_ends(h, min_size, far_size, rng);
      std::map<Key, int> expected;
      for_each_ipr_expansion_once(h, 3, 12, ~std::uint64_t{0}, all, [&](const Expansion& e, const VertexSet& c) {
        if (e.size() < ends.min_size || ends.reach(e.a0, e.t0) >= e.size() || ends.reach(e.z, other_first(e)) >= e.size())
          ++expected[key(e, c)];
        else
          ++long_left_out;
      });
      std::map<Key, int> listed;
      for_each_ipr_expansion_once(
          h, 3, 12, ~std::uint64_t{0}, all,
          [&](const Expansion& e, const VertexSet& c) {
            ++listed[key(e, c)];
            if (e.size() < ends.min_size) return;
            EXPECT_GE(ends.reach(e.a0, e.t0), e.size()) << "listed from an end that does not qualify";
            ++long_listed;
          },
          VertexSet{}, &ends);
      for (const auto& [k, n] : expected) ASSERT_EQ(n, 1) << "listed twice without LongEnds";
      ASSERT_EQ(listed, expected) << "nv " << h.nv << " sizes " << min_size << ", " << far_size;
    }
  });
  EXPECT_GT(long_listed, 10000U);
  EXPECT_GT(long_left_out, 10000U);
}

/// A listing's pre that records each expansion it is asked about in `asked` and turns down every
/// `every`-th.
auto asking(std::vector<int>& asked, std::size_t every) {
  return [&asked, every](const Expansion& e) {
    asked.push_back(((e.a0 * 1000 + e.t0) * 4 + (e.s > 0 ? 2 : 0)) * 16 + e.bend + 1);
    return asked.size() % every != 0;
  };
}

// Near the target the search lists its expansions with for_each_ipr_short_expansion_once: the
// same expansions as the general listing, in the same order, with the same rewritten faces and
// path ends, pre asked for each the same way; for every size up to kShortExpansionMax, with some
// sizes left out (as dead ones are), with LongEnds (drawn at random) and without.
TEST(FullereneGenerator, IprShortListingIsTheGeneralOne) {
  std::mt19937 rng(11);
  std::size_t listed = 0;
  std::size_t with_ends = 0;
  on_ipr_c90_and_irreducible_up_to_c110([&](const PlanarMap& h) {
    const auto pre = [](std::vector<int>& asked) { return asking(asked, 5); };
    const LongEnds ends = random_long_ends(h, 4, 5 + static_cast<int>(rng() % 2), rng);
    for (int max_size = 3; max_size <= kShortExpansionMax; ++max_size)
      for (const std::uint64_t sizes : {~std::uint64_t{0}, std::uint64_t{1} << (max_size - 1),
                                        std::uint64_t{0b100110100}})
        for (const LongEnds* bound : std::array<const LongEnds*, 2>{nullptr, &ends}) {
          std::vector<ListedExpansion> general;
          std::vector<ListedExpansion> fast;
          std::vector<int> asked_general;
          std::vector<int> asked_fast;
          for_each_ipr_expansion_once(h, 3, max_size, sizes, pre(asked_general), record(general), VertexSet{}, bound);
          for_each_ipr_short_expansion_once(h, 3, max_size, sizes, pre(asked_fast), record(fast), VertexSet{}, bound);
          EXPECT_EQ(asked_fast, asked_general) << "up to " << max_size << " sizes " << sizes;
          ASSERT_EQ(fast.size(), general.size()) << "up to " << max_size << " sizes " << sizes;
          for (std::size_t i = 0; i < fast.size(); ++i) EXPECT_EQ(fast[i], general[i]) << "expansion " << i;
          listed += fast.size();
          if (bound != nullptr) with_ends += fast.size();
        }
  });
  EXPECT_GT(listed, 20000U);
  EXPECT_GT(with_ends, 5000U);
}

// Three faces short of the target the search lists its expansions with
// for_each_ipr_size3_expansion_once: the same as the general listing of 3 faces, in the same
// order, with the same rewritten faces and path ends, pre asked for each the same way.
TEST(FullereneGenerator, IprSize3ListingIsTheGeneralOne) {
  std::size_t listed = 0;
  on_ipr_c90_and_irreducible_up_to_c110([&](const PlanarMap& h) {
    const auto pre = [](std::vector<int>& asked) { return asking(asked, 3); };
    std::vector<ListedExpansion> general;
    std::vector<ListedExpansion> fast;
    std::vector<int> asked_general;
    std::vector<int> asked_fast;
    for_each_ipr_expansion_once(h, 3, 3, ~std::uint64_t{0}, pre(asked_general), record(general));
    for_each_ipr_size3_expansion_once(h, pre(asked_fast), record(fast));
    EXPECT_EQ(asked_fast, asked_general);
    ASSERT_EQ(fast.size(), general.size());
    for (std::size_t i = 0; i < fast.size(); ++i) EXPECT_EQ(fast[i], general[i]) << "expansion " << i;
    listed += fast.size();
  });
  EXPECT_GT(listed, 600U);
}

/// Two maps with the same faces, the same lists slot for slot and the same pentagon list.
void expect_same_map(const PlanarMap& a, const PlanarMap& b) {
  ASSERT_EQ(a.nv, b.nv);
  ASSERT_EQ(a.pentagons, b.pentagons);
  for (int v = 0; v < a.nv; ++v) {
    ASSERT_EQ(a.deg[v], b.deg[v]) << "vertex " << v;
    for (int i = 0; i < a.deg[v]; ++i) ASSERT_EQ(a.adj[v][i], b.adj[v][i]) << "vertex " << v << " slot " << i;
  }
}

/// expand(h, e) against expand_by_splits(h, e): both fail, or both succeed with the same map and
/// row. Returns whether they succeeded.
bool expect_expand_as_splits(const PlanarMap& h, const Expansion& e) {
  PlanarMap fast;
  fast.copy_from(h);
  RowOp fast_row;
  const bool fast_ok = expand(fast, e, fast_row);
  PlanarMap general;
  general.copy_from(h);
  RowOp general_row;
  const bool general_ok = expand_by_splits(general, e, general_row);
  EXPECT_EQ(fast_ok, general_ok);
  if (!fast_ok || !general_ok) return false;
  EXPECT_TRUE(same_view(fast_row, general_row));
  expect_same_map(fast, general);
  return !::testing::Test::HasFailure();
}

TEST(FullereneGenerator, L0ExpansionsShortPathWritesTheGeneralPathsMaps) {
  // expand() takes an L0 expansion with its far end z set by a short path; without z it writes
  // the lists out as for any other row. Both must leave the map the splits leave, slot for slot:
  // the order of the isomers depends on it. Every L0 expansion of every isomer of C30 (where a
  // path's ends sit close together), C40, C50 and C60.
  int checked = 0;
  for (const int atoms : {30, 40, 50, 60}) {
    Generator g(GeneratorOptions{atoms, false, 0, 1});
    g.run([&](const PlanarMap& h) {
      for_each_expansion(h, 2, [&](const Expansion& e, const VertexSet&) {
        ASSERT_EQ(e.m, 1);
        ASSERT_GE(e.z, 0);
        ASSERT_TRUE(expect_expand_as_splits(h, e));
        Expansion without_z = e;
        without_z.z = -1;
        ASSERT_TRUE(expect_expand_as_splits(h, without_z));
        ++checked;
      });
    });
  }
  EXPECT_GT(checked, 20000);
}

// expand() writes out the lists that its splits leave (expansion.cpp, expand_written_out), and
// splits only when a path face gives over an earlier one: the two must agree, slot for slot, on
// every expansion, straight and bent, in both orientations, and must turn down the same
// descriptions that are no expansion (the listed ones one face shorter or longer: z no pentagon,
// or a path or the faces beside it running into each other). Every expansion of 3 to 12 faces
// of every isomer of C30 (where paths and the faces beside them run into each other) and C44, and
// of 3 to 14 faces of the IPR isomers of C90 and the irreducible IPR fullerenes up to C110 (long
// rows round nanotubes).
TEST(FullereneGenerator, WrittenOutExpansionMatchesSplits) {
  int made = 0;
  int failed = 0;
  int bent = 0;
  const auto check = [&](const PlanarMap& h, int max_size) {
    for_each_expansion(h, 3, max_size, 0xfff, [&](const Expansion& e, const VertexSet&) {
      ASSERT_TRUE(expect_expand_as_splits(h, e));
      ++made;
      if (e.bend >= 0) ++bent;
      for (const int dm : {-1, 1}) {
        Expansion other = e;
        other.m += dm;
        other.z = other.tm = other.tm_prev = -1;
        if (other.m < 1 || (other.bend >= 0 && other.bend >= other.m)) continue;
        if (!expect_expand_as_splits(h, other)) ++failed;
        ASSERT_FALSE(::testing::Test::HasFailure());
      }
    });
  };
  for (const int atoms : {30, 44}) Generator(GeneratorOptions{atoms, false, 0, 1}).run([&](const PlanarMap& h) { check(h, 12); });
  on_ipr_c90_and_irreducible_up_to_c110([&](const PlanarMap& h) { check(h, 14); });
  EXPECT_FALSE(::testing::Test::HasFailure());
  EXPECT_GT(made, 100000);
  EXPECT_GT(bent, made / 4);
  EXPECT_GT(failed, 0);  // descriptions that are no expansion: the splits turn them down, and so must expand()
}

/// Same expansion: same start, direction, shape and length.
bool same_expansion(const Expansion& a, const Expansion& b) {
  return a.a0 == b.a0 && a.t0 == b.t0 && a.s == b.s && a.m == b.m && a.bend == b.bend && a.z == b.z;
}

// for_each_reduction lists exactly the rows walk_row accepts (tried here one by one: every
// pentagon r0, neighbour r1, orientation, length and bend), each view once, with its far end and
// its corners.
TEST(FullereneGenerator, ReductionsAreTheRowsThatWalk) {
  std::array<int, PlanarMap::kMaxVertices> path{};
  std::array<int, PlanarMap::kMaxVertices> target{};
  std::array<int, 2> slid_corners{};
  std::uint64_t rows = 0;
  const auto check = [&](const PlanarMap& g, int max_size) {
    std::set<std::tuple<int, int, int, int, int>> walked;
    for (const int r0 : g.pentagons)
      for (int k = 0; k < 5; ++k)
        for (const int s : {1, -1})
          for (int m = 1; m < max_size; ++m)
            for (int bend = -1; bend < m; ++bend) {
              if (bend == 0) continue;
              const RowOp row{r0, g.adj[r0][static_cast<std::size_t>(k)], s, m, bend};
              if (walk_row(g, row, path.data())) walked.emplace(row.r0, row.r1, row.s, row.m, row.bend);
            }
    std::set<std::tuple<int, int, int, int, int>> listed;
    for_each_reduction(g, max_size, [&](const RowOp& c, int end, const std::array<int, 2>& corners) {
      EXPECT_TRUE(listed.emplace(c.r0, c.r1, c.s, c.m, c.bend).second) << "a view listed twice";
      EXPECT_TRUE(row_slides(g, c, path.data(), target.data(), slid_corners));
      EXPECT_EQ(path[static_cast<std::size_t>(c.m)], end);
      EXPECT_EQ(corners, slid_corners);
      return true;
    });
    EXPECT_EQ(listed, walked) << g.nv << " vertices, rows of up to " << max_size;
    rows += listed.size();
    // Told how many pentagons lie next to each face, the listing skips only what lists nothing.
    PentagonNeighbours near;
    near.fill(g);
    std::set<std::tuple<int, int, int, int, int>> with_near;
    for_each_reduction(
        g, max_size,
        [&](const RowOp& c) {
          with_near.emplace(c.r0, c.r1, c.s, c.m, c.bend);
          return true;
        },
        &near);
    EXPECT_EQ(with_near, listed) << g.nv << " vertices, rows of up to " << max_size;
  };
  Generator(GeneratorOptions{44, false, 0, 1}).run([&](const PlanarMap& g) {
    for (const int max_size : {2, 3, 4, 7}) check(g, max_size);
  });
  Generator(GeneratorOptions{96, true, 0, 1}).run([&](const PlanarMap& g) {
    for (const int max_size : {3, 4, 5, 12}) check(g, max_size);
  });
  EXPECT_GT(rows, 10000U);
}

// A view kept from one map and tried on another (the IPR search's rejector, turned down the
// previous sibling) may name a face past the other map's end, whose slots still hold what the
// earlier map left there (IPR C130 tries 53 such views, C140 123): it is no row of that map. Here
// a child's new row seen from its far end, tried on each smaller sibling built in the same map.
// Without walk_row's bound on r0 these views pass its first checks on the stale slots
// (stale_rows) and fail only later, by the chance of what the slots hold.
TEST(FullereneGenerator, AViewOfAFacePastTheMapIsNoRow) {
  std::array<int, PlanarMap::kMaxVertices> path{};
  PlanarMap scratch;
  PlanarMap g;
  int tried = 0;
  int stale_rows = 0;  // views whose first checks the stale slots would pass
  const auto check = [&](const PlanarMap& h) {
    std::vector<Expansion> all;
    for_each_expansion_once(h, 3, 7, [&](const Expansion& e, const VertexSet&) { all.push_back(e); });
    for (const Expansion& big : all) {
      g.copy_from(h);
      RowOp row;
      if (!expand(g, big, row)) continue;
      const RowOp back = reversed(g, row);  // from the new row's last face
      for (const Expansion& small : all) {
        if (small.size() >= big.size()) continue;
        g.copy_from(h);
        RowOp small_row;
        if (!expand(g, small, small_row)) continue;
        ASSERT_GE(back.r0, g.nv);
        EXPECT_FALSE(walk_row(g, back, path.data()));
        EXPECT_FALSE(reduces_within_ipr(g, back, scratch));
        ++tried;
        // Without the bound on r0, the walk would go on into the stale slots: they still say r0
        // is a pentagon next to r1.
        if (g.deg[back.r0] == 5 && g.index_of(back.r0, back.r1) >= 0) ++stale_rows;
      }
    }
  };
  int maps = 0;
  Generator(GeneratorOptions{80, true, 0, 1}).run([&](const PlanarMap& h) {
    if (++maps <= 3) check(h);
  });
  EXPECT_GT(tried, 1000);
  EXPECT_GT(stale_rows, 100);
}

TEST(FullereneGenerator, StraightStepsAreReadOffTheMap) {
  // Each entry against the map's own lists, one directed edge at a time; the table is reused from
  // map to map, as the walks reuse it, so a stale entry would show.
  auto steps = std::make_unique<StraightSteps>();
  std::uint64_t edges = 0;
  const auto check = [&](const PlanarMap& g) {
    steps->fill(g);
    for (int v = 0; v < g.nv; ++v)
      for (int in = 0; in < g.deg[v]; ++in)
        for (const int s : {1, -1}) {
          const StraightSteps::Step step = steps->after(v, in, s);
          const int next = g.at(v, in, 3 * s);
          ASSERT_EQ(step.next, next) << "vertex " << v << " from position " << in << ", orientation " << s;
          ASSERT_EQ(step.next_in, g.index_of(next, v));
          ASSERT_EQ(step.one, g.at(v, in, s));
          ASSERT_EQ(step.two, g.at(v, in, 2 * s));
          ++edges;
        }
  };
  for (const int n : {44, 60}) Generator(GeneratorOptions{n, false, 0, 1}).run(check);
  Generator(GeneratorOptions{100, true, 0, 1}).run(check);
  EXPECT_GT(edges, 500000U);
}

TEST(FullereneGenerator, FastEnumeratorsAgreeWithTheGeneralOnes) {
  int maps = 0;
  Generator g(GeneratorOptions{50, false, 0, 1});
  g.run([&](const PlanarMap& h) {
    // L0 reductions: every view once, in pairs of a view and its reverse, with their ids.
    std::vector<RowOp> slow;
    for_each_reduction(h, 2, [&](const RowOp& c) {
      slow.push_back(c);
      return true;
    });
    std::vector<RowOp> fast;
    std::vector<int> ids;
    const auto id_names = [&h](const RowOp& c, int id) {
      return h.pentagons[static_cast<std::size_t>(id / 10)] == c.r0 &&
             h.adj[c.r0][static_cast<std::size_t>(l0_view_slot(id))] == c.r1 && (id % 2 == 0) == (c.s > 0);
    };
    for_each_l0_row(h, [&](const RowOp& v, int v_id, const RowOp& w, int w_id) {
      EXPECT_LT(v.r0, w.r0);
      EXPECT_TRUE(same_view(w, reversed(h, v)));
      EXPECT_TRUE(id_names(v, v_id));
      EXPECT_TRUE(id_names(w, w_id));
      fast.push_back(v);
      fast.push_back(w);
      ids.push_back(v_id);
      ids.push_back(w_id);
      return true;
    });
    EXPECT_EQ(fast.size(), slow.size());
    for (const RowOp& c : slow)
      EXPECT_EQ(std::count_if(fast.begin(), fast.end(), [&c](const RowOp& f) { return same_view(f, c); }), 1);
    // With a hook that takes the pairs of every third first view id: the others, in the same
    // order, and the hook asked for every view (those with a corner that is a pentagon too).
    std::vector<int> asked;
    std::vector<int> rest;
    for_each_l0_row(
        h,
        [&](int v_id) {
          asked.push_back(v_id);
          return v_id % 3 == 0;
        },
        [&](const RowOp&, int v_id, const RowOp&, int w_id) {
          rest.push_back(v_id);
          rest.push_back(w_id);
          return true;
        });
    std::vector<int> want;
    for (std::size_t i = 0; i < ids.size(); i += 2)
      if (ids[i] % 3 != 0) want.insert(want.end(), {ids[i], ids[i + 1]});
    EXPECT_EQ(rest, want);
    for (std::size_t i = 0; i < ids.size(); i += 2)
      EXPECT_EQ(std::count(asked.begin(), asked.end(), ids[i]), 1);
    std::sort(ids.begin(), ids.end());
    EXPECT_TRUE(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
    // L0 expansions: each once, from its smaller end, its other end the same expansion.
    std::vector<std::pair<Expansion, VertexSet>> all_l0;
    for_each_expansion(h, 2, [&](const Expansion& e, const VertexSet& changed) { all_l0.emplace_back(e, changed); });
    std::size_t listed = 0;
    for_each_l0_expansion(h, [&](const Expansion& e, const VertexSet& changed) {
      ++listed;
      EXPECT_LT(e.a0, e.z);
      const Expansion back = other_end(h, e);
      int found = 0;
      for (const auto& [f, fchanged] : all_l0) {
        if (same_expansion(f, e)) {
          EXPECT_EQ(fchanged.words, changed.words);
        }
        if (same_expansion(f, back)) found += fchanged.words == changed.words ? 1 : 0;
      }
      EXPECT_EQ(found, 1);
    });
    EXPECT_EQ(2 * listed, all_l0.size());
    // L1 and B00 expansions: the same list.
    std::vector<std::pair<Expansion, VertexSet>> size3;
    for_each_expansion(h, 3, 3, 0xfff,
                       [&](const Expansion& e, const VertexSet& changed) { size3.emplace_back(e, changed); });
    std::size_t j = 0;
    for_each_size3_expansion(h, 0xfff, [&](const Expansion& e, const VertexSet& changed) {
      ASSERT_LT(j, size3.size());
      EXPECT_TRUE(same_expansion(e, size3[j].first));
      EXPECT_EQ(changed.words, size3[j].second.words);
      ++j;
    });
    EXPECT_EQ(j, size3.size());
    // Listed once from the legs: the same expansions from their smaller pentagon, in the same
    // order, which are exactly half of them (each is met from both ends).
    FirstLegs legs;
    legs.fill(h);
    std::size_t k = 0;
    std::size_t once = 0;
    for_each_size3_expansion_once(
        h, legs, FirstLegs::kAll, [](int, int, int) { return true; }, [](const int*, int) { return true; },
        [&](const Expansion& e, const VertexSet& changed) {
          while (k < size3.size() && size3[k].first.a0 > size3[k].first.z) ++k;
          ASSERT_LT(k, size3.size());
          EXPECT_TRUE(same_expansion(e, size3[k].first));
          EXPECT_EQ(changed.words, size3[k].second.words);
          ++k;
          ++once;
        });
    EXPECT_EQ(2 * once, size3.size());
    // index_of agrees with a plain search.
    for (int v = 0; v < h.nv; ++v)
      for (int w = 0; w < h.nv; ++w) {
        int plain = -1;
        for (int k = 0; k < h.deg[v]; ++k)
          if (h.adj[v][k] == w) plain = k;
        EXPECT_EQ(h.index_of(v, w), plain);
      }
    ++maps;
  });
  EXPECT_EQ(maps, 271);
}

TEST(FullereneGenerator, LockstepCodeComparisonAgreesWithFullCodes) {
  // Every pair of roots (arc and orientation) of every C40 isomer, and of C60: the sign of
  // bfs_compare is that of comparing the two complete codes, and 0 exactly when they are equal.
  int pairs = 0;
  int equal = 0;
  for (const int n : {40, 60}) {
    Generator g(GeneratorOptions{n, false, 0, 1});
    g.run([&](const PlanarMap& m) {
      struct Root {
        int v, w, s;
      };
      std::vector<Root> roots;
      for (int v = 0; v < m.nv; ++v)
        for (int i = 0; i < m.deg[v]; ++i)
          for (const int s : {1, -1}) roots.push_back({v, m.adj[v][i], s});
      std::vector<std::string> codes;
      std::vector<std::uint8_t> out(static_cast<std::size_t>(bfs_code_length(m.nv)));
      for (const Root& r : roots) {
        bfs_code(m, r.v, r.w, r.s, nullptr, out.data());
        codes.emplace_back(out.begin(), out.end());
      }
      // A sample of the pairs: each root against a few others spread over the list.
      for (std::size_t a = 0; a < roots.size(); ++a)
        for (std::size_t b = a % 7; b < roots.size(); b += 29) {
          const int cmp = bfs_compare(m, roots[a].v, roots[a].w, roots[a].s, roots[b].v, roots[b].w, roots[b].s);
          const int want = codes[a] < codes[b] ? -1 : (codes[a] == codes[b] ? 0 : 1);
          ASSERT_EQ(cmp < 0 ? -1 : (cmp == 0 ? 0 : 1), want) << "C" << n;
          ++pairs;
          equal += want == 0;
        }
    });
  }
  EXPECT_GT(pairs, 100000);
  EXPECT_GT(equal, 1000);  // automorphisms (and a root against itself) are among them
}

TEST(FullereneGenerator, RejectsImpossibleSizes) {
  for (const int n : {18, 21, 22, 0, 1000}) EXPECT_THROW(check_atom_count(n), Error) << n;
  EXPECT_THROW(Generator(GeneratorOptions{60, false, 3, 3}), Error);
}

}  // namespace
}  // namespace molstep::fullerene
