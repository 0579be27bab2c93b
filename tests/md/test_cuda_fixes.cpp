// SPDX-License-Identifier: MIT
// fix langevin and fix nvt on the GPU: the same trajectories as the CPU to round-off (the
// Langevin random forces come from the same counter-based generator, the Nose-Hoover chain from
// the same code, run on the device: integrators/nose_hoover_chain.hpp), and the canonical
// ensemble sampled on the GPU. Skipped, with a message, where no CUDA device is present.
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
#include "support/gpu_compare.hpp"
#include "support/lj_system.hpp"
#include "support/paths.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;
using namespace molstep;

namespace {

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
  test::expect_same_trajectory(two_type_setup("cuda-langevin") +
                             "fix 1 all nve\nfix 2 all langevin 1.0 1.5 0.5 48279\nrun 200\n",
                         "cuda-langevin", kRel);
}

TEST(CudaFixes, LangevinFirstAndTwoRunsMatchCpu) {
  REQUIRE_GPU();
  // The fixes in the other order, and a second run (whose setup adds the Langevin force again
  // and restarts the ramp).
  test::expect_same_trajectory(std::string(kFcc500) +
                             "fix 1 all langevin 1.5 0.8 0.2 777\nfix 2 all nve\nrun 100\nrun 100\n",
                         "cuda-langevin2", kRel);
}

TEST(CudaFixes, NoseHooverMatchesCpu) {
  REQUIRE_GPU();
  // Ramped target, four-thermostat chain, and a second run continuing the chain.
  test::expect_same_trajectory(std::string(kFcc500) + "fix 1 all nvt temp 1.0 1.2 0.2 tchain 4\nrun 120\nrun 80\n",
                         "cuda-nvt", kRel);
}

TEST(CudaFixes, NoseHooverTwoTypesMatchesCpu) {
  REQUIRE_GPU();
  test::expect_same_trajectory(two_type_setup("cuda-nvt2") + "fix 1 all nvt temp 1.0 1.0 0.5\nrun 200\n", "cuda-nvt2", kRel);
}

TEST(CudaFixes, NoseHooverWithLangevinMatchesCpu) {
  REQUIRE_GPU();
  // A Langevin force at post_force keeps the kick out of the force kernel: nvt kicks itself.
  test::expect_same_trajectory(std::string(kFcc500) +
                             "fix 1 all nvt temp 1.0 1.0 0.5\nfix 2 all langevin 1.0 1.0 2.0 4242\nrun 200\n",
                         "cuda-nvt-langevin", kRel);
}

// Neither fix computes anything on the host between outputs: the step count, the ramped
// targets and the Nose-Hoover chain live on the device, so the steps between outputs are
// replayed from CUDA graphs (tests/md/test_cuda.cpp checks they give the bits of plain launches).
TEST(CudaFixes, ThermostatStepsAreReplayedFromGraphs) {
  REQUIRE_GPU();
  const test::ScopedTuning graphs(test::TuningEnv{{"MOLSTEP_CUDA_GRAPH", "1"}});
  for (const auto& [tag, fixes] :
       {std::pair<std::string, std::string>{"langevin", "fix 1 all nve\nfix 2 all langevin 1.0 1.5 0.5 48279\n"},
        {"nvt", "fix 1 all nvt temp 1.0 1.2 0.2 tchain 4\n"},
        {"nvt-langevin", "fix 1 all nvt temp 1.0 1.0 0.5\nfix 2 all langevin 1.0 1.0 2.0 4242\n"}}) {
    const auto r = test::run_deck_text(std::string(kFcc500) + fixes + "run 200\n",
                                       test::scratch_dir("cuda-graph-" + tag), md::Device::cuda);
    EXPECT_EQ(r.printed.find("kernel by kernel ("), std::string::npos) << tag << "\n" << r.printed;
    // 200 steps: 4 thermo rows, 3 sampled steps and the first of each kind run directly.
    EXPECT_GT(test::last_count(r.printed, "GPU steps: "), 180) << tag << "\n" << r.printed;
  }
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
