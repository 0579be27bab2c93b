// SPDX-License-Identifier: MIT
// The proxy apps' standard problems (examples/proxy) reproduce the step-0 energies that CoMD
// and miniMD print, and LAMMPS's output for the same problems (tests/data/eam_peers: outputs
// and the commands that made them).
#include <gtest/gtest.h>

#include <cmath>

#include "support/deck_runner.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kExamples = fs::path(MOLSTEP_TEST_DATA).parent_path().parent_path() / "examples" / "proxy";
const fs::path kPeers = molstep::test::data_dir() / "eam_peers";

// Step-0 thermo row of an example deck (run 0), run from the deck's folder so its relative
// potential path resolves.
nlohmann::json step_zero(const std::string& deck, const std::string& n) {
  const auto dir = molstep::test::scratch_dir("proxy-" + deck);
  const auto rows = molstep::test::run_deck(kExamples / deck, kExamples, {{"steps", {"0"}}, {"n", {n}}},
                                            dir / "thermo.jsonl");
  return rows.at(0);
}

double lammps_step_zero(const std::string& log, const std::string& column) {
  const auto t = molstep::test::load_peer_thermo(kPeers / (log + ".thermo.json"));
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == column) return t.rows.at(0)[c];
  throw std::runtime_error("no column " + column + " in " + log);
}

// Sums of 10^5-10^6 pair and embedding terms taken in different orders (molstep's cell order,
// LAMMPS's and CoMD's own) agree to about 1e-10 relative, not to the last bit.
constexpr double kSumOrder = 2e-10;

}  // namespace

// CoMD prints "-1.243619295058" eV/atom (tests/data/eam_peers/comd.lj.out).
TEST(ProxyApps, CoMDLennardJonesInitialEnergy) {
  const auto row = step_zero("in.comd.lj", "20");
  EXPECT_NEAR(row.at("pe").get<double>(), -1.243619295058, kSumOrder * 1.25);
  EXPECT_NEAR(row.at("pe").get<double>(), lammps_step_zero("log.lammps.comd.lj", "pe"), kSumOrder * 1.25);
  // CoMD's initial total energy, -1.166063303458 eV/atom, is PE + 3/2 kB T with its own kB
  // (8.6173324e-5 eV/K); molstep uses LAMMPS's (8.617343e-5), 9.5e-8 eV/atom more kinetic energy.
  EXPECT_NEAR(row.at("ke").get<double>(), 1.5 * 8.617343e-5 * 600.0, 1e-12);
  EXPECT_NEAR(row.at("etotal").get<double>() - 1.5 * (8.617343e-5 - 8.6173324e-5) * 600.0, -1.166063303458,
              kSumOrder * 1.25);
}

// CoMD prints "-3.538079224691" eV/atom with -e (Cu_u6.eam); pair_style eam/comd reproduces it.
TEST(ProxyApps, CoMDEamInitialEnergy) {
  const auto row = step_zero("in.comd.eam", "20");
  EXPECT_NEAR(row.at("pe").get<double>(), -3.538079224691, kSumOrder * 3.5);
  EXPECT_NEAR(row.at("etotal").get<double>() - 1.5 * (8.617343e-5 - 8.6173324e-5) * 600.0, -3.460523233091,
              kSumOrder * 3.5);
}

// miniMD prints "-6.773368" (per atom, 7 digits) for its default LJ problem.
TEST(ProxyApps, MiniMDLennardJonesInitialEnergy) {
  const auto row = step_zero("in.lj.miniMD", "32");
  EXPECT_NEAR(row.at("pe").get<double>(), -6.773368, 5e-7);
  EXPECT_NEAR(row.at("pe").get<double>(), lammps_step_zero("log.lammps.minimd.lj", "pe"), kSumOrder * 6.8);
  EXPECT_NEAR(row.at("press").get<double>(), lammps_step_zero("log.lammps.minimd.lj", "press"), kSumOrder * 5.0);
}

// miniMD prints U = -3.554527e+06 in its units (1048575.97 x eV/atom), that is -3.389861 eV/atom.
TEST(ProxyApps, MiniMDEamInitialEnergy) {
  const auto row = step_zero("in.eam.miniMD", "32");
  EXPECT_NEAR(row.at("pe").get<double>(), -3.554527e6 / 1048575.97, 1e-6);
  EXPECT_NEAR(row.at("pe").get<double>(), lammps_step_zero("log.lammps.minimd.eam", "pe"), kSumOrder * 3.4);
  EXPECT_NEAR(row.at("press").get<double>(), lammps_step_zero("log.lammps.minimd.eam", "press"), kSumOrder * 1.7e5);
}
