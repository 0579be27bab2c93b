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
#include "support/fullerene_isomers.hpp"
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

/// How many orientation-preserving automorphisms `t` has: the order of its rotation group.
int rotations(const Triangulation& t) {
  int count = 0;
  for (int v = 0; v < t.size(); ++v)
    for (int k = 0; k < t.degree[v]; ++k) count += molstep::fullerene::detail::extends_to_isomorphism(t, t, v, k);
  return count;
}

std::string spiral_error(int atoms, const std::array<int, 12>& pentagons) {
  try {
    (void)triangulation_from_spiral(atoms, pentagons);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string spiral_error(const Spiral& spiral) {
  try {
    (void)triangulation_from_spiral(spiral);
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
      EXPECT_EQ(canonical_general_spiral(t), Spiral(t.atoms(), *name));
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
  const std::string usage =
      " (expected N:p1,...,p12 such as 60:1,7,9,11,13,15,18,20,22,24,26,32, or with jumps N:j1,l1,...;p1,...,p12)";
  EXPECT_EQ(parse_error("60 1,7"), "bad spiral '60 1,7': expected ':' after the number of atoms" + usage);
  EXPECT_EQ(parse_error("C:1"), "bad spiral 'C:1': expected the number of atoms at character 2" + usage);
  EXPECT_EQ(parse_error("60:1,7,9"), "bad spiral '60:1,7,9': it has 3 pentagon positions, not 12" + usage);
  EXPECT_EQ(parse_error("60:1,7,9,11,13,15,18,20,22,24,26,32,34"),
            "bad spiral '60:1,7,9,11,13,15,18,20,22,24,26,32,34': it has 13 pentagon positions, not 12" + usage);
  EXPECT_EQ(parse_error("60:1,7,x"), "bad spiral '60:1,7,x': expected a number at character 8" + usage);
  EXPECT_EQ(parse_error("60:1,7 x"), "bad spiral '60:1,7 x': unexpected 'x' at character 8" + usage);
}

// The smallest fullerenes without a face spiral, by their published general spirals. `published`
// is the name as Wirz, Schwerdtfeger and Avery give it (Fullerenes Nanotubes Carbon Nanostruct.
// 26, 607 (2018); the same strings are the examples of their Fullerene program,
// github.com/jamesavery/fullerenes, apps/read-general-spiral.cc): "GS" names start at a pentagon,
// "CS" names anywhere. `gs` and `cs` are the canonical names from pentagon starts and from every
// start in molstep's form; each is the published one where that is the published kind, and the
// C380 CS name is also the spiral that program's apps/c380-paper.cc builds T-C380 from. The
// others are molstep's own results, kept to catch changes.
struct WithoutFaceSpiral {
  const char* published;
  int rotations;  // order of the point group's rotation subgroup: T 12, D3 6
  const char* gs;
  const char* cs;
};
constexpr std::array<WithoutFaceSpiral, 4> kWithoutFaceSpirals{{
    {"[GS: 162,2,186,3; 1,4,5,126,127,136,137,155,162,171,172,186]-C380-fullerene", 12,
     "380:162,2,186,3;1,4,5,126,127,136,137,155,162,171,172,186",
     "380:110,2;45,70,71,82,83,110,119,120,144,184,185,192"},
    {"D3-[GS:171,8,178,9; 1,3,4,5,168,169,170,178,190,191,192,194]-C384-fullerene", 6,
     "384:171,8,178,9;1,3,4,5,168,169,170,178,190,191,192,194",
     "384:49,1;29,30,31,49,145,146,170,171,190,191,192,194"},
    {"D3-[CS:62,1;39,40,41,62,170,171,197,198,218,219,220,222]-C440-fullerene", 6,
     "440:198,9,205,10;1,3,4,5,195,196,197,205,218,219,220,222",
     "440:62,1;39,40,41,62,170,171,197,198,218,219,220,222"},
    {"D3-[GS:297,8,310,9; 1,10,12,14,260,262,264,310,324,326,328,338]-C672-fullerene", 6,
     "672:297,8,310,9;1,10,12,14,260,262,264,310,324,326,328,338",
     "672:142,1;51,53,109,111,220,252,288,302,304,306,320,338"},
}};

TEST(Spiral, FullerenesWithoutFaceSpiralsGetTheirPublishedGeneralSpirals) {
  for (const WithoutFaceSpiral& f : kWithoutFaceSpirals) {
    SCOPED_TRACE(f.published);
    const Triangulation t = triangulation_from_spiral(parse_spiral(f.published));
    ASSERT_NO_THROW(validate(t));
    ASSERT_NO_THROW(validate(dualize(t)));
    EXPECT_EQ(rotations(t), f.rotations);
    // No face spiral from any start: every face, first neighbour and sense runs into itself.
    int face_spirals = 0;
    for (int first = 0; first < t.size(); ++first)
      for (int j = 0; j < t.degree[first]; ++j)
        for (bool clockwise : {true, false})
          face_spirals += spiral_from(t, first, t.adj[first][j], clockwise).has_value();
    EXPECT_EQ(face_spirals, 0);
    EXPECT_EQ(canonical_spiral(t), std::nullopt);

    const Spiral gs = canonical_general_spiral(t, SpiralStarts::pentagons);
    const Spiral cs = canonical_general_spiral(t);
    EXPECT_EQ(format_spiral(gs), f.gs);
    EXPECT_EQ(format_spiral(cs), f.cs);
    for (const Spiral& s : {gs, cs}) {
      const Triangulation back = triangulation_from_spiral(s);
      EXPECT_TRUE(same_fullerene(t, back));
      EXPECT_EQ(general_spiral_from(back, 0, 1, true), s);
      EXPECT_EQ(parse_spiral(format_spiral(s)), s);
    }
    EXPECT_EQ(canonical_general_spiral(mirrored(t)), cs);
    EXPECT_EQ(canonical_general_spiral(relabelled(t, 7)), cs);
  }
}

TEST(Spiral, TetrahedralC100HasFaceSpiralsButNoneFromAPentagon) {
  // Wirz et al.'s example: its GS name needs a jump, its classical (CS) name does not, and
  // molstep's name is the classical one.
  const Triangulation t =
      triangulation_from_spiral(parse_spiral("Td-[GS: 43,2; 1,4,5,26,27,31,32,40,43,47,48,52]-C100-fullerene"));
  ASSERT_NO_THROW(validate(dualize(t)));
  EXPECT_EQ(rotations(t), 12);
  const std::array<int, 12> classical = {2, 8, 9, 23, 24, 28, 29, 37, 41, 45, 46, 52};
  EXPECT_EQ(canonical_spiral(t), classical);
  EXPECT_EQ(canonical_general_spiral(t), Spiral(100, classical));
  EXPECT_EQ(canonical_general_spiral(t, SpiralStarts::pentagons),
            Spiral(100, {1, 4, 5, 26, 27, 31, 32, 40, 43, 47, 48, 52}, {{43, 2}}));
}

TEST(Spiral, GeneralSpiralsFromAnyStartWindBackToTheirFullerene) {
  // C50 (all 271 isomers) and every 100th of the first 2000 isomers of C100 and C200; their
  // nanotube-like isomers make many hexagon starts run into themselves.
  std::vector<Triangulation> isomers = buckygen_isomers("c50.pc");
  for (int atoms : {100, 200}) {
    const auto more = molstep::test::every_nth_isomer(atoms, 2000, 100);
    isomers.insert(isomers.end(), more.begin(), more.end());
  }
  std::mt19937 rng(2024);
  int with_jumps = 0, without_jumps = 0;
  for (std::size_t i = 0; i < isomers.size(); ++i) {
    SCOPED_TRACE(i);
    const Triangulation& t = isomers[i];
    // The canonical name round-trips and does not depend on labels or orientation.
    const Spiral name = canonical_general_spiral(t);
    EXPECT_TRUE(same_fullerene(t, triangulation_from_spiral(name)));
    EXPECT_EQ(canonical_general_spiral(relabelled(t, static_cast<unsigned>(i))), name);
    EXPECT_EQ(canonical_general_spiral(mirrored(t)), name);
    for (int trial = 0; trial < 4; ++trial) {
      const int first = static_cast<int>(rng() % static_cast<unsigned>(t.size()));
      const int second = t.adj[first][rng() % t.degree[first]];
      const bool clockwise = rng() % 2 == 0;
      const Spiral s = general_spiral_from(t, first, second, clockwise);
      // It jumps exactly where the face spiral would run into itself.
      const auto face = spiral_from(t, first, second, clockwise);
      EXPECT_EQ(s.jumps.empty(), face.has_value());
      if (face) {
        EXPECT_EQ(s.pentagons, *face);
      }
      // The wind-up turns clockwise, so an anticlockwise spiral winds up the mirror image.
      const Triangulation back = triangulation_from_spiral(s);
      EXPECT_TRUE(isomorphic_oriented(clockwise ? t : mirrored(t), back)) << format_spiral(s);
      EXPECT_EQ(general_spiral_from(back, 0, 1, true), s);
      EXPECT_EQ(parse_spiral(format_spiral(s)), s);
      ++(s.jumps.empty() ? without_jumps : with_jumps);
    }
  }
  EXPECT_GT(with_jumps, 20);
  EXPECT_GT(without_jumps, 20);
}

TEST(Spiral, BadJumpSpiralsAreRejectedWithTheReason) {
  const std::array<int, 12> p = {1, 4, 5, 126, 127, 136, 137, 155, 162, 171, 172, 186};
  const std::string positions = "1,4,5,126,127,136,137,155,162,171,172,186";
  EXPECT_EQ(spiral_error(Spiral(380, p, {{2, 1}})),
            "spiral 380:2,1;" + positions + ": jump position 2 is outside 3..191");
  EXPECT_EQ(spiral_error(Spiral(380, p, {{192, 1}})),
            "spiral 380:192,1;" + positions + ": jump position 192 is outside 3..191");
  EXPECT_EQ(spiral_error(Spiral(380, p, {{186, 3}, {162, 2}})),
            "spiral 380:186,3,162,2;" + positions + ": jump positions must increase");
  EXPECT_EQ(spiral_error(Spiral(380, p, {{162, 0}, {186, 3}})),
            "spiral 380:162,0,186,3;" + positions + ": the jump at position 162 has length 0, not at least 1");
  const std::string too_far = spiral_error(Spiral(380, p, {{162, 2}, {186, 300}}));
  EXPECT_EQ(too_far.rfind("spiral 380:162,2,186,300;" + positions +
                              " does not close to a fullerene: the jump at face 186 moves 300 faces but only ",
                          0),
            0u)
      << too_far;
  // The published name without its jumps, or with a jump too short, does not close.
  for (const auto& jumps : {std::vector<Jump>{}, std::vector<Jump>{{162, 1}, {186, 3}}}) {
    const std::string e = spiral_error(Spiral(380, p, jumps));
    EXPECT_NE(e.find(" does not close to a fullerene: "), std::string::npos) << e;
  }
}

TEST(Spiral, ParsesAndFormatsJumpSpiralsInBothForms) {
  const Spiral c380(380, {1, 4, 5, 126, 127, 136, 137, 155, 162, 171, 172, 186}, {{162, 2}, {186, 3}});
  EXPECT_EQ(format_spiral(c380), "380:162,2,186,3;1,4,5,126,127,136,137,155,162,171,172,186");
  for (const char* text : {"380:162,2,186,3;1,4,5,126,127,136,137,155,162,171,172,186",
                           " C380 : 162,2, 186,3 ; 1 4 5 126 127 136 137 155 162 171 172 186 ",
                           "[GS: 162,2,186,3; 1,4,5,126,127,136,137,155,162,171,172,186]-C380-fullerene",
                           "T-[CS:162,2,186,3;1,4,5,126,127,136,137,155,162,171,172,186]-C380",
                           "[162,2,186,3; 1,4,5,126,127,136,137,155,162,171,172,186]-c380-Fullerene"})
    EXPECT_EQ(parse_spiral(text), c380) << text;
  EXPECT_EQ(parse_spiral("Ih-[1,7,9,11,13,15,18,20,22,24,26,32]-C60-fullerene"), Spiral(60, kC60Ih));
  EXPECT_EQ(parse_spiral("[GS: 1,7,9,11,13,15,18,20,22,24,26,32]-C60"), Spiral(60, kC60Ih));

  const std::string usage =
      " (expected N:p1,...,p12 such as 60:1,7,9,11,13,15,18,20,22,24,26,32, or with jumps N:j1,l1,...;p1,...,p12)";
  EXPECT_EQ(parse_error("380:162,2,186;1,4,5,126,127,136,137,155,162,171,172,186"),
            "bad spiral '380:162,2,186;1,4,5,126,127,136,137,155,162,171,172,186': the jumps before ';' must be "
            "pairs position,length, but there are 3 numbers" + usage);
  EXPECT_EQ(parse_error("380:162,2;186,3;1,4"),
            "bad spiral '380:162,2;186,3;1,4': a second ';' at character 16 (only the jumps end with ';')" + usage);
  EXPECT_EQ(parse_error("380:162,2;1,4,5"),
            "bad spiral '380:162,2;1,4,5': it has 3 pentagon positions, not 12" + usage);

  const std::string published =
      " (expected [GS: j1,l1,...; p1,...,p12]-CN-fullerene, the jumps and ';' only if there are any)";
  const std::string p12 = "1,4,5,126,127,136,137,155,162,171,172,186";
  EXPECT_EQ(parse_error("[XS: 162,2; " + p12 + "]-C380"),
            "bad spiral '[XS: 162,2; " + p12 + "]-C380': unknown spiral scheme 'XS' (known: GS, CS)" + published);
  EXPECT_EQ(parse_error("[GS 162,2; " + p12 + "]-C380"),
            "bad spiral '[GS 162,2; " + p12 + "]-C380': expected ':' after GS at character 5" + published);
  EXPECT_EQ(parse_error("[GS: " + p12 + "-C380"),
            "bad spiral '[GS: " + p12 + "-C380': expected ']' after the pentagon positions at character 47" +
                published);
  EXPECT_EQ(parse_error("[GS: " + p12 + "]-fullerene"),
            "bad spiral '[GS: " + p12 + "]-fullerene': expected '-C' and the number of atoms after ']' at "
            "character 49" + published);
  EXPECT_EQ(parse_error("[GS: " + p12 + "]-C380-fulerene"),
            "bad spiral '[GS: " + p12 + "]-C380-fulerene': expected 'fullerene' at character 54" + published);
  EXPECT_EQ(parse_error("T [GS: " + p12 + "]-C380"),
            "bad spiral 'T [GS: " + p12 + "]-C380': expected '[' or a point group and '-' at character 3" + published);
}
