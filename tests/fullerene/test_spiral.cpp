// SPDX-License-Identifier: MIT
#include "molstep/fullerene/spiral.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/io/planar_code.hpp"
#include "support/paths.hpp"

using molstep::Error;
using namespace molstep::fullerene;

namespace {

constexpr std::array<int, 12> kC60Ih = {1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32};
constexpr std::array<int, 12> kC70D5h = {1, 7, 9, 11, 13, 15, 27, 29, 31, 33, 35, 37};

std::vector<Triangulation> buckygen_isomers(const std::string& file) {
  molstep::io::PlanarCodeReader reader(molstep::test::data_dir() / "fullerene" / file);
  std::vector<Triangulation> out;
  while (auto g = reader.next()) out.push_back(molstep::io::to_triangulation(*g));
  return out;
}

bool same_fullerene(const Triangulation& a, const Triangulation& b) {
  return isomorphic_oriented(a, b) || isomorphic_oriented(a, mirrored(b));
}

/// `t` with its vertices renumbered by a random permutation and each list rotated.
Triangulation relabelled(const Triangulation& t, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> perm(static_cast<std::size_t>(t.size()));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  Triangulation r;
  r.adj.assign(perm.size(), {-1, -1, -1, -1, -1, -1});
  r.degree.resize(perm.size());
  for (int u = 0; u < t.size(); ++u) {
    const int d = t.degree[u], shift = static_cast<int>(rng() % static_cast<unsigned>(d));
    r.degree[perm[u]] = t.degree[u];
    for (int j = 0; j < d; ++j) r.adj[perm[u]][j] = perm[t.adj[u][(j + shift) % d]];
  }
  return r;
}

std::string spiral_error(int atoms, const std::array<int, 12>& pentagons) {
  try {
    (void)triangulation_from_spiral(atoms, pentagons);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string parse_error(const std::string& text) {
  try {
    (void)parse_spiral(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Spiral, DodecahedronIsAllPentagons) {
  const std::array<int, 12> all = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const Triangulation t = triangulation_from_spiral(20, all);
  EXPECT_EQ(t.size(), 12);
  EXPECT_EQ(t.atoms(), 20);
  EXPECT_EQ(canonical_spiral(t), all);
  // The spiral turns clockwise: face 0 lists 1, 2, 3, 4, 5.
  EXPECT_EQ(t.adj[0], (std::array<int, 6>{1, 2, 3, 4, 5, -1}));
}

TEST(Spiral, BuckminsterfullereneRoundTrip) {
  const Triangulation t = triangulation_from_spiral(60, kC60Ih);
  EXPECT_NO_THROW(validate(t));
  EXPECT_NO_THROW(validate(dualize(t)));
  EXPECT_EQ(spiral_from(t, 0, 1, true), kC60Ih);
  EXPECT_EQ(canonical_spiral(t), kC60Ih);
  // Isolated pentagons: no two degree-5 vertices adjacent.
  for (int u = 0; u < t.size(); ++u)
    for (int j = 0; j < t.degree[u]; ++j)
      EXPECT_FALSE(t.degree[u] == 5 && t.degree[t.adj[u][j]] == 5) << u;
}

TEST(Spiral, BuckyGenIprIsomersHaveTheirPublishedNames) {
  // The only IPR isomers of C60 and C70 (BuckyGen -I): Ih and D5h.
  const auto c60 = buckygen_isomers("c60_ipr.pc");
  ASSERT_EQ(c60.size(), 1u);
  EXPECT_EQ(canonical_spiral(c60[0]), kC60Ih);
  EXPECT_TRUE(same_fullerene(c60[0], triangulation_from_spiral(60, kC60Ih)));
  const auto c70 = buckygen_isomers("c70_ipr.pc");
  ASSERT_EQ(c70.size(), 1u);
  EXPECT_EQ(canonical_spiral(c70[0]), kC70D5h);
  EXPECT_TRUE(same_fullerene(c70[0], triangulation_from_spiral(70, kC70D5h)));
}

TEST(Spiral, EveryBuckyGenIsomerRoundTripsThroughItsCanonicalSpiral) {
  for (const auto& [file, count] : {std::pair{"c40.pc", 40u}, std::pair{"c50.pc", 271u}}) {
    SCOPED_TRACE(file);
    const auto isomers = buckygen_isomers(file);
    ASSERT_EQ(isomers.size(), count);
    std::set<std::array<int, 12>> names;
    for (std::size_t i = 0; i < isomers.size(); ++i) {
      SCOPED_TRACE(i);
      const Triangulation& t = isomers[i];
      const auto name = canonical_spiral(t);
      ASSERT_TRUE(name.has_value());
      names.insert(*name);
      const Triangulation back = triangulation_from_spiral(t.atoms(), *name);
      EXPECT_TRUE(same_fullerene(t, back));
      EXPECT_EQ(canonical_spiral(back), name);
      EXPECT_EQ(spiral_from(back, 0, 1, true), name);
      EXPECT_EQ(canonical_spiral(mirrored(t)), name);
      EXPECT_EQ(canonical_spiral(relabelled(t, static_cast<unsigned>(i))), name);
    }
    // One name per isomer: BuckyGen's isomers are pairwise distinct, and so are the names.
    EXPECT_EQ(names.size(), count);
  }
}

TEST(Spiral, EveryPentagonStartOfIcosahedralC60GivesItsName) {
  // Ih moves any start (pentagon, neighbour, sense) to any other: 12 * 5 * 2 = 120 = |Ih|.
  const Triangulation t = triangulation_from_spiral(60, kC60Ih);
  for (int f = 0; f < t.size(); ++f) {
    if (t.degree[f] == 6) continue;
    for (int j = 0; j < 5; ++j)
      for (bool clockwise : {true, false}) EXPECT_EQ(spiral_from(t, f, t.adj[f][j], clockwise), kC60Ih);
  }
  EXPECT_THROW((void)spiral_from(t, 0, 30, true), Error);
}

TEST(Spiral, StartsThatRunIntoThemselvesGiveNothing) {
  // On the [5,0] nanotube C60 some hexagon starts wind round the tube into their own
  // earlier faces; the pentagon starts at the caps all spiral.
  const Triangulation tube = triangulation_from_spiral(60, {1, 2, 3, 4, 5, 6, 27, 28, 29, 30, 31, 32});
  int failed = 0;
  for (int f = 0; f < tube.size(); ++f)
    for (int j = 0; j < tube.degree[f]; ++j)
      for (bool clockwise : {true, false}) {
        const bool spirals = spiral_from(tube, f, tube.adj[f][j], clockwise).has_value();
        EXPECT_TRUE(spirals || tube.degree[f] == 6) << f;
        failed += !spirals;
      }
  EXPECT_GT(failed, 0);
}

TEST(Spiral, LargeNanotubeWindsUp) {
  // C520: 262 faces, more than planar_code's one-byte limit.
  const Triangulation t = triangulation_from_spiral(520, {1, 2, 3, 4, 5, 6, 257, 258, 259, 260, 261, 262});
  EXPECT_EQ(t.size(), 262);
  EXPECT_NO_THROW(validate(dualize(t)));
  EXPECT_EQ(canonical_spiral(t), (std::array<int, 12>{1, 2, 3, 4, 5, 6, 257, 258, 259, 260, 261, 262}));
}

TEST(Spiral, BadSpiralsAreRejectedWithTheReason) {
  EXPECT_EQ(spiral_error(61, kC60Ih), "spiral 61:1,7,9,11,13,15,18,20,22,24,26,32: the number of atoms must be even");
  EXPECT_EQ(spiral_error(18, kC60Ih), "spiral 18:1,7,9,11,13,15,18,20,22,24,26,32: the smallest fullerene is C20");
  EXPECT_EQ(spiral_error(22, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13}),
            "spiral 22:1,2,3,4,5,6,7,8,9,10,11,13: there is no fullerene C22");
  EXPECT_EQ(spiral_error(2000000000, kC60Ih),
            "spiral 2000000000:1,7,9,11,13,15,18,20,22,24,26,32: molstep handles fullerenes up to C65534 "
            "(planar_code and the GPU code number atoms in 16 bits)");
  EXPECT_EQ(spiral_error(40, kC60Ih),
            "spiral 40:1,7,9,11,13,15,18,20,22,24,26,32: pentagon position 24 is outside 1..22");
  EXPECT_EQ(spiral_error(60, {0, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32}),
            "spiral 60:0,7,9,11,13,15,18,20,22,24,26,32: pentagon position 0 is outside 1..32");
  EXPECT_EQ(spiral_error(60, {1, 9, 7, 11, 13, 15, 18, 20, 22, 24, 26, 32}),
            "spiral 60:1,9,7,11,13,15,18,20,22,24,26,32: pentagon positions must increase");
  // Twelve pentagons first close a dodecahedron with 20 faces still to place.
  EXPECT_EQ(spiral_error(60, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
            "spiral 60:1,2,3,4,5,6,7,8,9,10,11,12 does not close to a fullerene: the cage closes at face 12 of 32");
  // C60-Ih's pentagons in a C80 spiral.
  const std::string e = spiral_error(80, kC60Ih);
  EXPECT_EQ(e.rfind("spiral 80:1,7,9,11,13,15,18,20,22,24,26,32 does not close to a fullerene: ", 0), 0u) << e;
  // A spiral that never closes: every later face fits, but the last face finds the wrong hole.
  for (int last = 13; last <= 32; ++last) {
    std::array<int, 12> p = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, last};
    const std::string m = spiral_error(60, p);
    EXPECT_NE(m.find("does not close to a fullerene"), std::string::npos) << m;
  }
}

TEST(Spiral, ParsesAndFormatsNames) {
  const Spiral c60{60, kC60Ih};
  EXPECT_EQ(format_spiral(c60), "60:1,7,9,11,13,15,18,20,22,24,26,32");
  EXPECT_EQ(parse_spiral("60:1,7,9,11,13,15,18,20,22,24,26,32"), c60);
  EXPECT_EQ(parse_spiral("C60:1,7,9,11,13,15,18,20,22,24,26,32"), c60);
  EXPECT_EQ(parse_spiral(" C60 : 1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32 "), c60);
  EXPECT_EQ(parse_spiral("c60: 1 7 9 11 13 15 18 20 22 24 26 32"), c60);
  EXPECT_EQ(parse_spiral(format_spiral(c60)), c60);
  const std::string usage = " (expected N:p1,...,p12 such as 60:1,7,9,11,13,15,18,20,22,24,26,32)";
  EXPECT_EQ(parse_error("60 1,7"), "bad spiral '60 1,7': expected ':' after the number of atoms" + usage);
  EXPECT_EQ(parse_error("C:1"), "bad spiral 'C:1': expected the number of atoms at character 2" + usage);
  EXPECT_EQ(parse_error("60:1,7,9"), "bad spiral '60:1,7,9': it has 3 pentagon positions, not 12" + usage);
  EXPECT_EQ(parse_error("60:1,7,9,11,13,15,18,20,22,24,26,32,34"),
            "bad spiral '60:1,7,9,11,13,15,18,20,22,24,26,32,34': more than 12 pentagon positions, or stray text "
            "at character 37" + usage);
  EXPECT_EQ(parse_error("60:1,7,x"), "bad spiral '60:1,7,x': expected a pentagon position at character 8" + usage);
}
