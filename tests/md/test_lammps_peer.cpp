// SPDX-License-Identifier: MIT
// molstep on LAMMPS's own decks against LAMMPS's stored output (tests/data/lammps, see its
// README for the commands that produced it).
#include <gtest/gtest.h>

#include <cmath>

#include "support/deck_runner.hpp"
#include "support/paths.hpp"

namespace {

// Runs `deck` and compares every thermo row with LAMMPS's `log`: every quantity but the step
// must agree to `tol` relative up to step `until`, and to `late_tol` after it.
void compare(const std::string& deck, const std::string& log, double tol, long until = -1, double late_tol = 0.0) {
  const auto dir = molstep::test::scratch_dir("peer-" + deck);
  const auto data = molstep::test::data_dir() / "lammps";
  // Decks read their data files relative to their own folder, so run them there; they write
  // nothing but the thermo copy, which goes to the scratch folder.
  const auto ours = molstep::test::run_deck(data / deck, data, {}, dir / "thermo.jsonl");
  const auto peer = molstep::test::load_peer_thermo(data / (log + ".thermo.json"));
  ASSERT_EQ(ours.size(), peer.rows.size()) << deck;
  for (std::size_t r = 0; r < peer.rows.size(); ++r) {
    const auto step = static_cast<long>(peer.rows[r][0]);
    const double rel_tol = until < 0 || step <= until ? tol : late_tol;
    EXPECT_EQ(ours[r].at("step").get<long>(), step);
    for (std::size_t c = 1; c < peer.columns.size(); ++c) {
      const std::string& key = peer.columns[c];
      const double want = peer.rows[r][c];
      const double got = ours[r].at(key).get<double>();
      const double scale = std::max(std::fabs(want), 1e-12);
      EXPECT_LE(std::fabs(got - want) / scale, rel_tol)
          << deck << " step " << step << " " << key << ": molstep " << got << " LAMMPS " << want;
    }
  }
}

}  // namespace

// bench/in.lj unchanged: 32,000 atoms, 100 steps, default thermo (8 significant digits printed).
TEST(LammpsPeer, BenchLjDeckMatchesToEightDigits) { compare("in.lj", "log.lj.100", 5e-8); }
// The same run printed with 15 digits: agreement is far better than 8 digits.
TEST(LammpsPeer, BenchLjDeckHighPrecision) { compare("in.lj.hp", "log.lj.hp.100", 1e-10); }
// 1,000 steps: chaos amplifies round-off; 8 digits at step 100, 5 at step 1000.
TEST(LammpsPeer, BenchLjDeckThousandSteps) { compare("in.lj.1000", "log.lj.1000", 1e-8, 100, 1e-5); }
// Two types from a data file with velocities, explicit cross terms and a per-pair cutoff.
TEST(LammpsPeer, TwoTypeMixtureFromDataFile) { compare("in.mix", "log.mix", 1e-8); }
TEST(LammpsPeer, GeometricMixing) { compare("in.mix.geom", "log.mix.geom", 1e-8); }
TEST(LammpsPeer, ArithmeticMixing) { compare("in.mix.arith", "log.mix.arith", 1e-8); }
// Metal units (argon-like), thermo_modify norm no.
TEST(LammpsPeer, MetalUnits) { compare("in.metal", "log.metal", 1e-8); }
TEST(LammpsPeer, NewtonOff) { compare("in.lj.newtonoff", "log.lj.newtonoff", 1e-8); }

// NVE energy conservation: 4,000-atom LJ liquid, 10,000 steps of dt 0.005 (LAMMPS drifts 1e-5).
TEST(LammpsPeer, NveDriftBelowFiveTimesTenToMinusFive) {
  const auto data = molstep::test::data_dir() / "lammps";
  const auto dir = molstep::test::scratch_dir("nve4000");
  const auto rows = molstep::test::run_deck(data / "in.nve4000", dir);
  ASSERT_EQ(rows.size(), 11u);
  const double e0 = rows.front().at("etotal").get<double>();
  double worst = 0.0;
  for (const auto& r : rows) worst = std::max(worst, std::fabs(r.at("etotal").get<double>() - e0) / std::fabs(e0));
  RecordProperty("max_relative_drift", std::to_string(worst));
  EXPECT_LT(worst, 5e-5);
}
