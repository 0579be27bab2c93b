// SPDX-License-Identifier: MIT
// Neighbour lists against a brute-force minimum-image search, the rebuild schedule, and the
// slab decomposition the threaded pair loop relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "molstep/core/error.hpp"
#include "support/lj_system.hpp"

using namespace molstep;

namespace {

// All pairs (id_a < id_b) closer than rc under the minimum image convention.
std::set<std::pair<std::int64_t, std::int64_t>> brute_force_pairs(const md::System& s, double rc) {
  std::set<std::pair<std::int64_t, std::int64_t>> out;
  const auto& a = s.atoms;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      double d[3] = {a.x[i] - a.x[j], a.y[i] - a.y[j], a.z[i] - a.z[j]};
      for (int k = 0; k < 3; ++k) d[k] -= s.box.length(k) * std::round(d[k] / s.box.length(k));
      if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < rc * rc)
        out.insert({std::min(a.id[i], a.id[j]), std::max(a.id[i], a.id[j])});
    }
  return out;
}

std::map<std::pair<std::int64_t, std::int64_t>, int> listed_pairs(const md::System& s, const md::neighbor::Neighbor& nb) {
  std::map<std::pair<std::int64_t, std::int64_t>, int> count;
  const auto& l = nb.list();
  for (std::size_t i = 0; i < l.nlocal; ++i)
    for (std::uint32_t k = l.offsets[i]; k < l.offsets[i + 1]; ++k) {
      const auto a = s.atoms.id[i], b = s.atoms.id[nb.owner(l.neighbors[k])];
      ++count[{std::min(a, b), std::max(a, b)}];
    }
  return count;
}

}  // namespace

TEST(NeighborList, HalfListHoldsEveryPairOnce) {
  auto sys = test::disordered_lj_system(5, 0.25);
  md::neighbor::Neighbor nb;
  nb.rebuild(sys, 2.5);
  const auto expected = brute_force_pairs(sys, 2.8);
  const auto got = listed_pairs(sys, nb);
  EXPECT_EQ(got.size(), expected.size());
  for (const auto& p : expected) {
    const auto it = got.find(p);
    ASSERT_NE(it, got.end()) << "missing pair " << p.first << "-" << p.second;
    EXPECT_EQ(it->second, 1);
  }
}

TEST(NeighborList, FullListHoldsEveryPairTwice) {
  auto sys = test::disordered_lj_system(5, 0.25);
  md::neighbor::Neighbor nb;
  nb.settings.full = true;
  nb.rebuild(sys, 2.5);
  const auto expected = brute_force_pairs(sys, 2.8);
  const auto got = listed_pairs(sys, nb);
  EXPECT_EQ(got.size(), expected.size());
  for (const auto& [p, n] : got) {
    EXPECT_EQ(n, 2);
    EXPECT_TRUE(expected.count(p));
  }
}

TEST(NeighborList, NewtonOffListsEveryImagePairFromBothSides) {
  auto sys = test::disordered_lj_system(5, 0.25);
  md::neighbor::Neighbor nb;
  nb.settings.newton = false;
  nb.rebuild(sys, 2.5);
  const auto expected = brute_force_pairs(sys, 2.8);
  EXPECT_EQ(listed_pairs(sys, nb).size(), expected.size());
}

TEST(NeighborList, SlabsAreThickEnoughForRaceFreeHalfLoops) {
  auto sys = test::disordered_lj_system(8, 0.1);
  md::neighbor::Neighbor nb;
  nb.rebuild(sys, 2.5);
  const auto& l = nb.list();
  ASSERT_GE(l.slabs.size(), 3u);
  // Slab of each owned atom; a pair may only reach the same or the next slab.
  std::vector<std::size_t> slab(l.nlocal);
  for (std::size_t s = 0; s + 1 < l.slabs.size(); ++s)
    for (std::size_t i = l.slabs[s]; i < l.slabs[s + 1]; ++i) slab[i] = s;
  for (std::size_t i = 0; i < l.nlocal; ++i)
    for (std::uint32_t k = l.offsets[i]; k < l.offsets[i + 1]; ++k) {
      const std::uint32_t j = l.neighbors[k];
      if (j >= l.nlocal) continue;
      EXPECT_TRUE(slab[j] == slab[i] || slab[j] == slab[i] + 1) << i << " " << j;
    }
}

TEST(Neighbor, RebuildScheduleFollowsNeighModify) {
  auto sys = test::disordered_lj_system(5, 0.0);
  md::neighbor::Neighbor nb;
  nb.settings.every = 5;
  nb.settings.delay = 10;
  nb.settings.check = false;
  nb.rebuild(sys, 2.5);
  std::vector<int> due;
  for (int step = 1; step <= 20; ++step)
    if (nb.due(sys)) due.push_back(step);
  EXPECT_EQ(due, (std::vector<int>{10, 15, 20}));

  md::neighbor::Neighbor checked;
  checked.rebuild(sys, 2.5);
  EXPECT_FALSE(checked.due(sys));
  sys.atoms.x[7] += 0.151;  // more than half the 0.3 skin
  EXPECT_TRUE(checked.due(sys));
}

TEST(Neighbor, RefusesCutoffBeyondHalfTheBox) {
  auto sys = test::disordered_lj_system(3, 0.0);  // box 5.04
  md::neighbor::Neighbor nb;
  EXPECT_THROW(nb.rebuild(sys, 2.5), molstep::Error);
  EXPECT_NO_THROW(nb.rebuild(sys, 2.2));
}

TEST(Neighbor, WrapsAtomsAndCountsImages) {
  auto sys = test::disordered_lj_system(4, 0.0);
  const double L = sys.box.length(0);
  sys.atoms.x[0] = -0.25;
  sys.atoms.y[0] = L + 0.5;
  const auto id = sys.atoms.id[0];
  md::neighbor::Neighbor nb;
  nb.rebuild(sys, 2.5);
  const std::size_t i = test::index_of(sys, id);
  EXPECT_DOUBLE_EQ(sys.atoms.x[i], L - 0.25);
  EXPECT_EQ(sys.atoms.ix[i], -1);
  EXPECT_DOUBLE_EQ(sys.atoms.y[i], 0.5);
  EXPECT_EQ(sys.atoms.iy[i], 1);
  EXPECT_DOUBLE_EQ(sys.unwrapped(i, 0), -0.25);
}
