// SPDX-License-Identifier: MIT
// fix langevin and fix nvt on the GPU: the same trajectories as the CPU to round-off (the
// Langevin random forces come from the same counter-based generator, the Nose-Hoover chain from
// the same code), and the canonical ensemble sampled on the GPU. Skipped, with a message, where
// no CUDA device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "molstep/core/counter_rng.hpp"
#include "molstep/io/lammps_data.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/integrators/nose_hoover.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/canonical.hpp"
#include "support/deck_runner.hpp"
#include "support/lj_system.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using namespace molstep;

#define REQUIRE_GPU()                \
  if (md::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device here (or molstep built without CUDA): GPU test skipped"

namespace {

struct Outcome {
  md::System system;
  md::potentials::EnergyVirial ev;
  std::vector<nlohmann::json> thermo;
  double chain_energy = 0.0;  ///< of the first fix nvt, if any
};

// Runs `deck` (text) in `dir` on one device: final state, last energy/virial, thermo rows.
Outcome run_on(const std::string& deck, const fs::path& dir, md::Device device) {
  test::write_file(dir / "in.deck", deck);
  const auto jsonl = dir / "thermo.jsonl";
  Outcome o;
  {
    test::ScopedCwd cwd(dir);
    md::Output out(nullptr, std::nullopt, jsonl);
    md::Simulation sim(out);
    sim.device = device;
    md::script::Interpreter interp(sim, out);
    interp.run_file(dir / "in.deck");
    sim.finish();
    o.system = sim.system;
    o.ev = sim.last_energy_virial();
    for (const auto& f : sim.fixes)
      if (const auto* nh = dynamic_cast<const md::integrators::FixNoseHoover*>(f.get())) {
        o.chain_energy = nh->chain_energy();
        break;
      }
  }
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) o.thermo.push_back(nlohmann::json::parse(line));
  return o;
}

double rms(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
  return std::sqrt(s / (3.0 * static_cast<double>(x.size())));
}

// The deck on both devices: every thermo value, the final energy and virial to `rel` relative;
// every atom's unwrapped position to `rel` of the box length, velocity and force to `rel` of
// their RMS values (atoms matched by id: the GPU sorts them by cell).
void expect_same_trajectory(const std::string& deck, const std::string& name, double rel) {
  const auto cpu = run_on(deck, test::scratch_dir(name + "-cpu"), md::Device::cpu);
  const auto gpu = run_on(deck, test::scratch_dir(name + "-gpu"), md::Device::cuda);

  ASSERT_EQ(gpu.thermo.size(), cpu.thermo.size());
  ASSERT_GE(cpu.thermo.size(), 2u);
  for (std::size_t r = 0; r < cpu.thermo.size(); ++r)
    for (const auto& item : cpu.thermo[r].items()) {
      const std::string& key = item.key();
      if (!item.value().is_number()) continue;
      ASSERT_TRUE(gpu.thermo[r].contains(key)) << key;
      const double want = item.value().get<double>(), got = gpu.thermo[r].at(key).get<double>();
      EXPECT_NEAR(got, want, rel * std::max(std::fabs(want), 1.0)) << "thermo row " << r << " " << key;
    }

  EXPECT_NEAR(gpu.ev.energy, cpu.ev.energy, rel * std::fabs(cpu.ev.energy));
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(gpu.ev.virial[k], cpu.ev.virial[k], rel * std::fabs(cpu.ev.virial[0]) + 1e-300) << "virial " << k;
  EXPECT_NEAR(gpu.chain_energy, cpu.chain_energy, rel * std::max(std::fabs(cpu.chain_energy), 1.0));

  const auto& a = cpu.system.atoms;
  const auto& b = gpu.system.atoms;
  ASSERT_EQ(b.size(), a.size());
  std::map<std::int64_t, std::size_t> at;
  for (std::size_t j = 0; j < b.size(); ++j) at[b.id[j]] = j;
  ASSERT_EQ(at.size(), a.size());
  const double vrms = rms(a.vx, a.vy, a.vz), frms = rms(a.fx, a.fy, a.fz);
  ASSERT_GT(vrms, 0.0);
  ASSERT_GT(frms, 0.0);
  int reported = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t j = at.at(a.id[i]);
    bool bad = false;
    for (int d = 0; d < 3; ++d) {
      const double dx = gpu.system.unwrapped(j, d) - cpu.system.unwrapped(i, d);
      bad = bad || !(std::fabs(dx) <= rel * cpu.system.box.length(d));
    }
    const double dv[3] = {b.vx[j] - a.vx[i], b.vy[j] - a.vy[i], b.vz[j] - a.vz[i]};
    const double df[3] = {b.fx[j] - a.fx[i], b.fy[j] - a.fy[i], b.fz[j] - a.fz[i]};
    for (int d = 0; d < 3; ++d) bad = bad || !(std::fabs(dv[d]) <= rel * vrms) || !(std::fabs(df[d]) <= rel * frms);
    if (bad && reported++ < 5)
      ADD_FAILURE() << "atom " << a.id[i] << ": GPU x " << gpu.system.unwrapped(j, 0) << " v " << b.vx[j] << " f "
                    << b.fx[j] << ", CPU x " << cpu.system.unwrapped(i, 0) << " v " << a.vx[i] << " f " << a.fx[i];
  }
  EXPECT_EQ(reported, 0) << "atoms whose GPU state differs from the CPU's by more than " << rel;
}

// 500 atoms of two types with masses 1 and 2 (the Langevin terms are per type), disordered.
std::string two_type_setup(const std::string& name) {
  const auto dir = test::scratch_dir(name + "-data");
  io::write_lammps_data(dir / "two.data", test::disordered_lj_system(5, 0.05), 0);
  return "units lj\nread_data " + (dir / "two.data").string() +
         "\nmass 1 1.0\nmass 2 2.0\nvelocity all create 1.2 4928459 loop geom\n"
         "pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\npair_coeff 2 2 0.8 1.0\n"
         "neighbor 0.3 bin\nneigh_modify every 1 delay 0 check yes\ntimestep 0.005\nthermo 50\n";
}

const char* kFcc500 =
    "units lj\nlattice fcc 0.8442\nregion box block 0 5 0 5 0 5\ncreate_box 1 box\ncreate_atoms 1 box\n"
    "mass 1 1.0\nvelocity all create 1.5 87287 loop geom\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0 2.5\n"
    "pair_modify shift yes\nneighbor 0.3 bin\nneigh_modify every 1 delay 0 check yes\ntimestep 0.005\nthermo 50\n";

// Over 200 steps round-off grows by a few orders of magnitude from 1e-16; 1e-9 leaves a wide
// margin while any real difference (a wrong random number, a missed or misplaced kick, a wrong
// chain step) shows at 1e-3 or more.
constexpr double kRel = 1e-9;

}  // namespace

// The generator the GPU now shares with the CPU still gives the values it always gave.
TEST(CudaFixes, CounterRngValuesAreUnchanged) {
  const core::CounterRng rng(48279);
  EXPECT_EQ(rng.uniform(1, 0, 0), 0x1.1d16bbe95a4cap-1);
  EXPECT_EQ(rng.uniform(500, 12345, 2), 0x1.b68ae5aa80868p-2);
  EXPECT_EQ(rng.uniform(7, 1, 1), 0x1.f224e4102c5d6p-1);
  EXPECT_EQ(core::CounterRng(1).uniform(0, 0, 0), 0x1.be4e7957b48c2p-1);
}

TEST(CudaFixes, LangevinMatchesCpu) {
  REQUIRE_GPU();
  // A ramped target (the amplitude changes every step) and two masses.
  expect_same_trajectory(two_type_setup("cuda-langevin") +
                             "fix 1 all nve\nfix 2 all langevin 1.0 1.5 0.5 48279\nrun 200\n",
                         "cuda-langevin", kRel);
}

TEST(CudaFixes, LangevinFirstAndTwoRunsMatchCpu) {
  REQUIRE_GPU();
  // The fixes in the other order, and a second run (whose setup adds the Langevin force again
  // and restarts the ramp).
  expect_same_trajectory(std::string(kFcc500) +
                             "fix 1 all langevin 1.5 0.8 0.2 777\nfix 2 all nve\nrun 100\nrun 100\n",
                         "cuda-langevin2", kRel);
}

TEST(CudaFixes, NoseHooverMatchesCpu) {
  REQUIRE_GPU();
  // Ramped target, four-thermostat chain, and a second run continuing the chain.
  expect_same_trajectory(std::string(kFcc500) + "fix 1 all nvt temp 1.0 1.2 0.2 tchain 4\nrun 120\nrun 80\n",
                         "cuda-nvt", kRel);
}

TEST(CudaFixes, NoseHooverTwoTypesMatchesCpu) {
  REQUIRE_GPU();
  expect_same_trajectory(two_type_setup("cuda-nvt2") + "fix 1 all nvt temp 1.0 1.0 0.5\nrun 200\n", "cuda-nvt2", kRel);
}

TEST(CudaFixes, NoseHooverWithLangevinMatchesCpu) {
  REQUIRE_GPU();
  // A Langevin force at post_force keeps the kick out of the force kernel: nvt kicks itself.
  expect_same_trajectory(std::string(kFcc500) +
                             "fix 1 all nvt temp 1.0 1.0 0.5\nfix 2 all langevin 1.0 1.0 2.0 4242\nrun 200\n",
                         "cuda-nvt-langevin", kRel);
}

// The canonical-ensemble check of tests/md/test_thermostats.cpp, run on the GPU.

TEST(CudaFixes, LangevinSamplesTheCanonicalEnsembleOnGpu) {
  REQUIRE_GPU();
  const auto m = test::sample_temperature("fix 1 all nve\nfix 2 all langevin 1.0 1.0 0.5 48279\n", "cuda-langevin-nvt", true);
  const double n = 500.0, dof = 3.0 * n - 3.0;
  test::expect_canonical(m, 3.0 * n / dof, 2.0 * 3.0 * n / (dof * dof));
}

TEST(CudaFixes, NoseHooverChainSamplesTheCanonicalEnsembleOnGpu) {
  REQUIRE_GPU();
  const auto m = test::sample_temperature("fix 1 all nvt temp 1.0 1.0 0.5\n", "cuda-nvt-canonical", true);
  const double dof = 3.0 * 500.0 - 3.0;
  test::expect_canonical(m, 1.0, 2.0 / dof);
}

// The chain's extended energy (particles plus thermostat) is conserved on the GPU as on the CPU
// (tests/md/test_thermostats.cpp), which checks where the kicks, the kinetic energy and the
// scalings fall within the step.
TEST(CudaFixes, NoseHooverChainConservesItsExtendedEnergyOnGpu) {
  REQUIRE_GPU();
  const auto dir = test::scratch_dir("cuda-nvt-conserved");
  test::write_file(dir / "in.nvt",
                   "units lj\nlattice fcc 0.8442\nregion box block 0 5 0 5 0 5\ncreate_box 1 box\n"
                   "create_atoms 1 box\nmass 1 1.0\nvelocity all create 1.5 87287 loop geom\n"
                   "pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0 2.5\npair_modify shift yes\n"
                   "neigh_modify every 1 delay 0 check yes\ntimestep 0.002\nfix 1 all nvt temp 1.0 1.0 0.2\n"
                   "run 0\n");
  test::ScopedCwd cwd(dir);
  md::Output out(nullptr, std::nullopt, std::nullopt);
  md::Simulation sim(out);
  sim.device = md::Device::cuda;
  md::script::Interpreter interp(sim, out);
  interp.run_file(dir / "in.nvt");
  const auto& chain = dynamic_cast<const md::integrators::FixNoseHoover&>(*sim.fixes.at(0));
  md::Thermo thermo;
  thermo.norm = false;
  const auto extended = [&] { return *thermo.value("etotal", sim.thermo_state()) + chain.chain_energy(); };
  const double h0 = extended();
  double worst = 0.0, t_max = 0.0;
  for (int block = 0; block < 10; ++block) {
    sim.run(500);
    worst = std::max(worst, std::fabs(extended() - h0) / std::fabs(h0));
    t_max = std::max(t_max, *thermo.value("temp", sim.thermo_state()));
  }
  RecordProperty("max_relative_change", std::to_string(worst));
  EXPECT_LT(worst, 2e-4);
  EXPECT_LT(t_max, 1.3);
}
