// SPDX-License-Identifier: MIT
// EAM (funcfl and setfl): per-atom forces and energies against LAMMPS's own output on the same
// displaced configurations, forces against finite differences, thermo against LAMMPS runs,
// energy conservation, and malformed potential files.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "molstep/core/error.hpp"
#include "molstep/io/eam_file.hpp"
#include "molstep/io/lammps_data.hpp"
#include "molstep/md/potentials/eam.hpp"
#include "support/deck_runner.hpp"
#include "support/finite_difference.hpp"
#include "support/lj_system.hpp"
#include "support/paths.hpp"

using namespace molstep;
namespace fs = std::filesystem;

namespace {

const fs::path kPeers = test::data_dir() / "eam_peers";

// id -> (fx, fy, fz) from a LAMMPS-style text dump whose columns include id fx fy fz.
std::map<long, std::array<double, 3>> read_dump_forces(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> cols;
  std::map<long, std::array<double, 3>> out;
  while (std::getline(in, line)) {
    if (line.rfind("ITEM: ATOMS", 0) == 0) {
      std::istringstream h(line.substr(11));
      for (std::string c; h >> c;) cols.push_back(c);
      continue;
    }
    if (cols.empty()) continue;
    std::istringstream s(line);
    std::map<std::string, double> v;
    for (const auto& c : cols) s >> v[c];
    out[static_cast<long>(v["id"])] = {v["fx"], v["fy"], v["fz"]};
  }
  return out;
}

struct Case {
  const char* data;
  const char* style;
  const char* coeff;
  const char* lammps_dump;
  double lammps_pe;
};

void expect_matches_lammps(const Case& c) {
  const auto dir = test::scratch_dir(std::string("eamforces-") + c.style);
  test::write_file(dir / "in.forces", std::string("units metal\n") + "read_data " + (kPeers / c.data).string() +
                                          "\npair_style " + c.style + "\npair_coeff " + c.coeff +
                                          "\nneighbor 0.7 bin\nthermo_style custom step pe press\n"
                                          "dump 1 all custom 1 forces.dump id fx fy fz\nrun 0\n");
  const auto rows = test::run_deck(dir / "in.forces", dir);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(rows[0].at("pe").get<double>(), c.lammps_pe, 1e-11 * std::fabs(c.lammps_pe));
  const auto ours = read_dump_forces(dir / "forces.dump");
  const auto theirs = read_dump_forces(kPeers / c.lammps_dump);
  ASSERT_EQ(ours.size(), theirs.size());
  double fmax = 0.0;
  for (const auto& [id, f] : theirs) fmax = std::max({fmax, std::fabs(f[0]), std::fabs(f[1]), std::fabs(f[2])});
  for (const auto& [id, f] : theirs)
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(ours.at(id)[d], f[d], 1e-11 * fmax) << "atom " << id << " component " << d;
}

}  // namespace

TEST(Eam, FuncflForcesAndEnergyMatchLammps) {
  expect_matches_lammps({"data.forces.eam", "eam", ("1 1 " + (kPeers / "Cu_u3.eam").string()).c_str(),
                         "forces.eam.dump", -764.13034367939952});
}

TEST(Eam, SetflAlloyForcesAndEnergyMatchLammps) {
  expect_matches_lammps({"data.forces.eamalloy", "eam/alloy", ("* * " + (kPeers / "CuNi.eam.alloy").string() + " Cu Ni").c_str(),
                         "forces.eamalloy.dump", -758.3439975946535});
}

namespace {

void expect_finite_difference_forces(md::potentials::PairStyle& pair, const char* data) {
  md::System sys;
  sys.units = core::unit_system("metal");
  io::read_lammps_data(kPeers / data, sys);
  pair.init(sys.ntypes, md::potentials::PairModify{});
  // The CuNi box is 14.24 A and the cutoff 6.39 A: a 0.7 A skin keeps the list inside half the box.
  test::expect_forces_match_finite_differences(sys, pair, 0.7, {1, 2, 17, 100, 255});
}

}  // namespace

TEST(Eam, FuncflForcesMatchFiniteDifferences) {
  md::potentials::PairEam pair;
  const SourceLoc loc{"test", 1};
  pair.coeff(core::ArgReader("pair_coeff", {"1", "1", (kPeers / "Cu_u3.eam").string()}, loc), 1);
  expect_finite_difference_forces(pair, "data.forces.eam");
}

TEST(Eam, SetflMixedForcesMatchFiniteDifferences) {
  md::potentials::PairEamAlloy pair;
  const SourceLoc loc{"test", 1};
  pair.coeff(core::ArgReader("pair_coeff", {"*", "*", (kPeers / "CuNi.eam.alloy").string(), "Cu", "Ni"}, loc), 2);
  expect_finite_difference_forces(pair, "data.forces.eamalloy");
}

TEST(Eam, NewtonOffAgreesWithNewtonOn) {
  md::System a;
  a.units = core::unit_system("metal");
  io::read_lammps_data(kPeers / "data.forces.eamalloy", a);
  auto b = a;
  md::potentials::PairEamAlloy pair;
  pair.coeff(core::ArgReader("pair_coeff", {"*", "*", (kPeers / "CuNi.eam.alloy").string(), "Cu", "Ni"}, {"t", 1}), 2);
  pair.init(2, {});
  md::neighbor::Neighbor on, off;
  on.settings.skin = off.settings.skin = 0.7;
  off.settings.newton = false;
  const auto ea = test::compute_pair(a, pair, on);
  const auto eb = test::compute_pair(b, pair, off);
  EXPECT_NEAR(ea.energy, eb.energy, 1e-12 * std::fabs(ea.energy));
  EXPECT_NEAR(ea.virial[0], eb.virial[0], 1e-11 * std::fabs(ea.virial[0]));
  for (std::size_t i = 0; i < a.atoms.size(); ++i) {
    const std::size_t j = test::index_of(b, a.atoms.id[i]);
    EXPECT_NEAR(a.atoms.fx[i], b.atoms.fx[j], 1e-11);
    EXPECT_NEAR(a.atoms.fy[i], b.atoms.fy[j], 1e-11);
  }
}

namespace {

void compare_thermo(const std::string& deck, const std::string& log, double tol) {
  const auto dir = test::scratch_dir("eampeer-" + deck);
  const auto ours = test::run_deck(kPeers / deck, kPeers, {}, dir / "thermo.jsonl");
  const auto peer = test::load_peer_thermo(kPeers / (log + ".thermo.json"));
  ASSERT_EQ(ours.size(), peer.rows.size());
  for (std::size_t r = 0; r < peer.rows.size(); ++r)
    for (std::size_t c = 1; c < peer.columns.size(); ++c) {
      const double want = peer.rows[r][c], got = ours[r].at(peer.columns[c]).get<double>();
      EXPECT_LE(std::fabs(got - want) / std::max(std::fabs(want), 1e-12), tol)
          << deck << " row " << r << " " << peer.columns[c] << ": molstep " << got << " LAMMPS " << want;
    }
}

}  // namespace

// LAMMPS's bench/in.eam, unchanged (32,000 Cu atoms, Cu_u3.eam), 8 significant digits printed.
TEST(EamPeer, BenchEamDeckMatchesToEightDigits) { compare_thermo("in.eam", "log.eam", 5e-8); }
TEST(EamPeer, BenchEamDeckHighPrecision) { compare_thermo("in.eam.hp", "log.eam.hp", 1e-9); }
TEST(EamPeer, CuNiAlloyMatchesToEightDigits) { compare_thermo("in.eam.alloy", "log.eam.alloy", 1e-8); }
TEST(EamPeer, CuU6FuncflMatchesToEightDigits) { compare_thermo("in.eam.u6", "log.eam.u6", 1e-8); }

TEST(Eam, NveConservesEnergy) {
  const auto dir = test::scratch_dir("eam-nve");
  test::write_file(dir / "in.nve", "units metal\nlattice fcc 3.615\nregion box block 0 10 0 10 0 10\n"
                                   "create_box 1 box\ncreate_atoms 1 box\npair_style eam\npair_coeff 1 1 " +
                                       (kPeers / "Cu_u3.eam").string() +
                                       "\nvelocity all create 600.0 87287 loop geom\nneighbor 1.0 bin\n"
                                       "neigh_modify every 1 delay 0 check yes\ntimestep 0.001\nfix 1 all nve\n"
                                       "thermo 100\nrun 3000\n");
  const auto rows = test::run_deck(dir / "in.nve", dir);
  const double e0 = rows.front().at("etotal").get<double>();
  double worst = 0.0;
  for (const auto& r : rows) worst = std::max(worst, std::fabs(r.at("etotal").get<double>() - e0) / std::fabs(e0));
  RecordProperty("max_relative_drift", std::to_string(worst));
  // LAMMPS on the same problem (tests/data/eam_peers/log.eam.nve): 3.0e-6 over 10,000 steps.
  EXPECT_LT(worst, 1e-5);
}

TEST(EamFiles, MalformedFilesNameTheLineAndProblem) {
  const auto dir = test::scratch_dir("eamfiles");
  std::ifstream src(kPeers / "Cu_u3.eam");
  std::vector<std::string> lines;
  for (std::string l; std::getline(src, l);) lines.push_back(l);
  const auto write_lines = [&](const fs::path& p, std::size_t n, const std::string& replace_line3 = "") {
    std::ofstream out(p);
    for (std::size_t k = 0; k < n && k < lines.size(); ++k) out << (k == 3 && !replace_line3.empty() ? replace_line3 : lines[k]) << '\n';
  };
  const auto message = [](auto&& fn) {
    try {
      fn();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  write_lines(dir / "truncated.eam", 50);
  const auto m1 = message([&] { io::read_funcfl(dir / "truncated.eam"); });
  EXPECT_NE(m1.find("truncated.eam:50: file ends after"), std::string::npos) << m1;
  EXPECT_NE(m1.find("values of"), std::string::npos) << m1;
  write_lines(dir / "token.eam", lines.size(), "  1.0 2.0 abc 4.0 5.0");
  const auto m2 = message([&] { io::read_funcfl(dir / "token.eam"); });
  EXPECT_NE(m2.find("token.eam:4: expected a number in F(rho), found 'abc'"), std::string::npos) << m2;
  const auto m3 = message([] { io::read_funcfl("/nonexistent/Cu.eam"); });
  EXPECT_NE(m3.find("cannot open potential file"), std::string::npos) << m3;

  std::ifstream alloy(kPeers / "CuNi.eam.alloy");
  std::vector<std::string> al;
  for (std::string l; std::getline(alloy, l);) al.push_back(l);
  {
    std::ofstream out(dir / "count.eam.alloy");
    for (std::size_t k = 0; k < al.size(); ++k) out << (k == 3 ? "    3  Ni  Cu" : al[k]) << '\n';
  }
  const auto m4 = message([&] { io::read_setfl(dir / "count.eam.alloy"); });
  EXPECT_NE(m4.find("count.eam.alloy:4: expected 3 element names after the count, found 2"), std::string::npos) << m4;
  md::potentials::PairEamAlloy pair;
  const auto m5 = message([&] {
    pair.coeff(core::ArgReader("pair_coeff", {"*", "*", (kPeers / "CuNi.eam.alloy").string(), "Cu", "Al"}, {"in.x", 9}), 2);
  });
  EXPECT_NE(m5.find("in.x:9: pair_coeff: element 'Al' is not in"), std::string::npos) << m5;
}
