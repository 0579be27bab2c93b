// SPDX-License-Identifier: MIT
// The GPU run loop against the CPU one (the reference) and against LAMMPS's stored outputs.
// Skipped, with a message, where no CUDA device is present.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "molstep/core/counter_rng.hpp"
#include "molstep/io/lammps_data.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/lattice.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/deck_runner.hpp"
#include "support/lj_system.hpp"
#include "support/gpu_compare.hpp"
#include "support/paths.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;
using namespace molstep;

namespace {

const fs::path kPeers = test::data_dir() / "eam_peers";

}  // namespace

TEST(Cuda, LennardJonesMatchesCpu) {
  REQUIRE_GPU();
  // A disordered two-type configuration (a perfect lattice has no forces to compare).
  const auto dir = test::scratch_dir("cuda-lj-data");
  io::write_lammps_data(dir / "dis.data", test::disordered_lj_system(8, 0.1), 0);
  test::expect_gpu_matches_cpu("units lj\nread_data " + (dir / "dis.data").string() +
                  "\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\npair_coeff 2 2 0.5 1.2\npair_modify shift yes\n"
                  "fix 1 all nve\nrun 0\n",
              "cuda-lj", 1e-12);
}

// Mixed precision: single-precision pair terms against the double CPU reference.
TEST(Cuda, MixedPrecisionLennardJonesWithinOnePartIn1e5) {
  REQUIRE_GPU();
  const auto dir = test::scratch_dir("cuda-ljmixed-data");
  io::write_lammps_data(dir / "dis.data", test::disordered_lj_system(8, 0.1), 0);
  test::expect_gpu_matches_cpu("units lj\nread_data " + (dir / "dis.data").string() +
                  "\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\npair_coeff 2 2 0.5 1.2\npair_modify shift yes\n"
                  "fix 1 all nve\nrun 0\n",
              "cuda-ljmixed", 1e-5, md::Precision::mixed);
}

TEST(Cuda, MixedPrecisionEamWithinOnePartIn1e5) {
  REQUIRE_GPU();
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eamalloy").string() +
                  "\npair_style eam/alloy\npair_coeff * * " + (kPeers / "CuNi.eam.alloy").string() +
                  " Cu Ni\nneighbor 0.7 bin\nfix 1 all nve\nrun 0\n",
              "cuda-eammixed", 1e-5, md::Precision::mixed);
}

TEST(Cuda, MixedPrecisionNeedsTheGpu) {
  const auto dir = test::scratch_dir("cpu-mixed");
  EXPECT_THROW(test::run_deck_text("units lj\nlattice fcc 0.8442\nregion box block 0 4 0 4 0 4\ncreate_box 1 box\n"
                        "create_atoms 1 box\nmass 1 1.0\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\nrun 0\n",
                        dir, md::Device::cpu, md::Precision::mixed),
               Error);
}

TEST(Cuda, EamFuncflMatchesCpu) {
  REQUIRE_GPU();
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eam").string() + "\npair_style eam\npair_coeff 1 1 " +
                  (kPeers / "Cu_u3.eam").string() + "\nneighbor 1.0 bin\nfix 1 all nve\nrun 0\n",
              "cuda-eam", 1e-12);
}

TEST(Cuda, EamAlloyMatchesCpu) {
  REQUIRE_GPU();
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eamalloy").string() +
                  "\npair_style eam/alloy\npair_coeff * * " + (kPeers / "CuNi.eam.alloy").string() +
                  " Cu Ni\nneighbor 0.7 bin\nfix 1 all nve\nrun 0\n",
              "cuda-eamalloy", 1e-12);
}

TEST(Cuda, StatesAgreeAfterDynamics) {
  REQUIRE_GPU();
  // 50 steps with rebuilds: the trajectories separate only by the growth of round-off.
  test::expect_gpu_matches_cpu("units lj\nlattice fcc 0.8442\nregion box block 0 8 0 8 0 8\ncreate_box 1 box\ncreate_atoms 1 box\n"
              "mass 1 1.0\nvelocity all create 1.44 87287 loop geom\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\n"
              "neigh_modify every 1 delay 0 check yes\nfix 1 all nve\nthermo 10\nrun 50\n",
              "cuda-dyn", 1e-9);
}

namespace {

void compare_with_lammps(const fs::path& folder, const std::string& deck, const std::string& log, double tol) {
  const auto dir = test::scratch_dir("cuda-peer-" + deck);
  const auto ours = test::run_deck(folder / deck, folder, {}, dir / "thermo.jsonl", true);
  const auto peer = test::load_peer_thermo(folder / (log + ".thermo.json"));
  ASSERT_EQ(ours.size(), peer.rows.size());
  for (std::size_t r = 0; r < peer.rows.size(); ++r)
    for (std::size_t c = 1; c < peer.columns.size(); ++c) {
      const double want = peer.rows[r][c], got = ours[r].at(peer.columns[c]).get<double>();
      EXPECT_LE(std::fabs(got - want) / std::max(std::fabs(want), 1e-12), tol)
          << deck << " row " << r << " " << peer.columns[c] << ": GPU " << got << " LAMMPS " << want;
    }
}

}  // namespace

TEST(Cuda, LammpsBenchLjOnGpu) {
  REQUIRE_GPU();
  compare_with_lammps(test::data_dir() / "lammps", "in.lj", "log.lj.100", 5e-8);
  compare_with_lammps(test::data_dir() / "lammps", "in.lj.hp", "log.lj.hp.100", 1e-10);
}

TEST(Cuda, LammpsMixtureOnGpu) {
  REQUIRE_GPU();
  compare_with_lammps(test::data_dir() / "lammps", "in.mix", "log.mix", 1e-8);
}

TEST(Cuda, LammpsBenchEamOnGpu) {
  REQUIRE_GPU();
  compare_with_lammps(kPeers, "in.eam", "log.eam", 5e-8);
  compare_with_lammps(kPeers, "in.eam.hp", "log.eam.hp", 1e-9);
  compare_with_lammps(kPeers, "in.eam.alloy", "log.eam.alloy", 1e-8);
}

// ---- device-side list decisions and CUDA graphs ------------------------------------------------

namespace {

// An implosion: 864 atoms on a dilute fcc lattice flowing towards the centre of the box at
// `squeeze` times their distance from it (plus a random part up to `spread`/2), so that the
// middle is squeezed to liquid density and beyond, where atoms have far more neighbours than the
// list's first slot count (guessed from the mean density): the GPU list overflows in the middle
// of the run, on steps it replays from graphs without waiting, and must grow.
struct Implosion {
  std::string units;
  double lattice;  ///< make_lattice's scale: LJ's reduced density, or metal's lattice constant
  double mass, squeeze, spread;
  std::string rest;  ///< pair style, neighbour settings, timestep, thermo
};

// LJ: density 0.3 (18 neighbours within the list cutoff), squeezed to liquid density within
// about a time unit; the list's first slot count is 49.
const Implosion kLjImplosion{"lj", 0.3, 1.0, 0.4, 0.2,
                             "pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\nneighbor 0.3 bin\n"
                             "neigh_modify every 1 delay 0 check yes\ntimestep 0.002\nthermo 250\n"};

std::string implosion_setup(const std::string& name, const Implosion& im = kLjImplosion) {
  md::System s;
  s.units = core::unit_system(im.units);
  const auto lat = md::make_lattice("fcc", im.lattice, s.units);
  core::Box box;
  box.hi = {6 * lat.constant, 6 * lat.constant, 6 * lat.constant};
  s.define_box(box, 1);
  s.mass = {0.0, im.mass};
  s.mass_set = {false, true};
  md::create_atoms_on_lattice(lat, box, 1, s.atoms);
  const core::CounterRng rng(31337);
  for (std::size_t i = 0; i < s.atoms.size(); ++i) {
    const auto id = static_cast<std::uint64_t>(s.atoms.id[i]);
    double* x[3] = {&s.atoms.x[i], &s.atoms.y[i], &s.atoms.z[i]};
    double* v[3] = {&s.atoms.vx[i], &s.atoms.vy[i], &s.atoms.vz[i]};
    for (int d = 0; d < 3; ++d) {
      const auto dd = static_cast<std::uint32_t>(d);
      *x[d] += 0.05 * (2.0 * rng.uniform(id, 0, dd) - 1.0);
      *v[d] = -im.squeeze * (*x[d] - 0.5 * (box.lo[d] + box.hi[d])) + im.spread * (rng.uniform(id, 1, dd) - 0.5);
    }
  }
  const auto dir = test::scratch_dir(name + "-data");
  io::write_lammps_data(dir / "implosion.data", s, 0);
  return "units " + im.units + "\nread_data " + (dir / "implosion.data").string() + "\n" + im.rest;
}

// Copper (Cu_u3) at a lattice constant of 4.6 A (mean density half the solid's; 59 list slots
// at first), squeezed at 0.5/ps: its middle passes the solid's density within a few hundred
// femtosecond steps.
std::string eam_implosion_setup(const std::string& name) {
  return implosion_setup(name, Implosion{"metal", 4.6, 63.546, 0.5, 2.0,
                                         "pair_style eam\npair_coeff 1 1 " + (kPeers / "Cu_u3.eam").string() +
                                             "\nneighbor 1.0 bin\nneigh_modify every 1 delay 0 check yes\n"
                                             "timestep 0.001\nthermo 200\n"});
}

// Two runs of `deck` on the GPU, kernel by kernel and from graphs, end in the same bits: every
// atom's state, the energy, virial and thermo rows, and the neighbour-list builds counted.
void expect_graphs_change_nothing(const std::string& deck, const std::string& name) {
  const auto plain = [&] {
    const test::ScopedTuning off(test::TuningEnv{{"MOLSTEP_CUDA_GRAPH", "0"}});
    return test::run_deck_text(deck, test::scratch_dir(name + "-plain"), md::Device::cuda);
  }();
  const auto graphs = [&] {
    const test::ScopedTuning on(test::TuningEnv{{"MOLSTEP_CUDA_GRAPH", "1"}});
    return test::run_deck_text(deck, test::scratch_dir(name + "-graphs"), md::Device::cuda);
  }();
  EXPECT_NE(plain.printed.find("kernel by kernel (MOLSTEP_CUDA_GRAPH=0)"), std::string::npos) << plain.printed;
  EXPECT_GT(test::last_count(graphs.printed, "GPU steps: "), 0) << graphs.printed;
  EXPECT_GT(test::last_count(graphs.printed, "Neighbour list builds: "), 0);
  test::expect_identical_runs(plain, graphs);  // fix nvt's chain too, handed back from the device
}

}  // namespace

// The steps between outputs are replayed from CUDA graphs, with the list's rebuild decided on
// the device; launched kernel by kernel (MOLSTEP_CUDA_GRAPH=0) the run is bit for bit the same.
TEST(Cuda, GraphsGiveTheRunOfPlainLaunches) {
  REQUIRE_GPU();
  const std::string fcc = "units lj\nlattice fcc 0.8442\nregion box block 0 8 0 8 0 8\ncreate_box 1 box\n"
                          "create_atoms 1 box\nmass 1 1.0\nvelocity all create 1.44 87287 loop geom\n"
                          "pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\nfix 1 all nve\n";
  expect_graphs_change_nothing(fcc + "neigh_modify every 1 delay 0 check yes\nthermo 50\nrun 300\n", "graph-check");
  {
    // Every step is a build step here. Kernel by kernel, the build's kernels run (and return at
    // once) at each step that does not build; in a replayed step they are a graph branch the
    // decision skips, so they run idle only at steps launched directly.
    const std::string deck = fcc + "neigh_modify every 1 delay 0 check yes\nthermo 50\nrun 300\n";
    const std::string idle = "GPU list build kernels launched with no build due: ";
    const auto plain = [&] {
      const test::ScopedTuning off(test::TuningEnv{{"MOLSTEP_CUDA_GRAPH", "0"}});
      return test::run_deck_text(deck, test::scratch_dir("graph-branch-plain"), md::Device::cuda);
    }();
    const auto graphs = [&] {
      const test::ScopedTuning on(test::TuningEnv{{"MOLSTEP_CUDA_GRAPH", "1"}});
      return test::run_deck_text(deck, test::scratch_dir("graph-branch"), md::Device::cuda);
    }();
    const long builds = test::last_count(plain.printed, "Neighbour list builds: ");
    const long replayed = test::last_count(graphs.printed, "GPU steps: ");
    ASSERT_GT(builds, 0) << plain.printed;
    ASSERT_GT(replayed, 200) << graphs.printed;
    EXPECT_EQ(test::last_count(plain.printed, idle), 300 - builds) << plain.printed;
    const long graph_idle = test::last_count(graphs.printed, idle);
    EXPECT_GE(graph_idle, 0) << graphs.printed;
    EXPECT_LE(graph_idle, 300 - replayed) << graphs.printed;
  }
  expect_graphs_change_nothing(fcc + "neigh_modify every 20 delay 0 check no\nthermo 100\nrun 300\n", "graph-every");
  expect_graphs_change_nothing(fcc + "neigh_modify every 2 delay 5 check yes\nthermo 0\nrun 150\nrun 150\n",
                               "graph-delay");
  expect_graphs_change_nothing("units metal\nread_data " + (kPeers / "data.forces.eamalloy").string() +
                                   "\npair_style eam/alloy\npair_coeff * * " + (kPeers / "CuNi.eam.alloy").string() +
                                   " Cu Ni\nneighbor 0.7 bin\nneigh_modify every 1 delay 0 check yes\n"
                                   "velocity all create 1200.0 4928459 loop geom\nfix 1 all nve\nthermo 40\nrun 200\n",
                               "graph-eam");
  expect_graphs_change_nothing(implosion_setup("graph-implosion") + "fix 1 all nve\nrun 1000\n", "graph-implosion");
}

// fix langevin and fix nvt keep what changes from step to step on the device (the step count
// that keys the random numbers and ramps the target, the Nose-Hoover chain), so their steps are
// replayed from graphs too, with the same bits as plain launches: with ramped targets, a second
// run (the chain goes on from the first run's, handed back from the device), both together, and
// the implosion whose list overflows on replayed steps (the halted steps must leave the step
// count and the chain alone).
TEST(Cuda, GraphsGiveTheRunOfPlainLaunchesWithThermostats) {
  REQUIRE_GPU();
  const std::string fcc = "units lj\nlattice fcc 0.8442\nregion box block 0 8 0 8 0 8\ncreate_box 1 box\n"
                          "create_atoms 1 box\nmass 1 1.0\nvelocity all create 1.44 87287 loop geom\n"
                          "pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\n"
                          "neigh_modify every 1 delay 0 check yes\nthermo 50\n";
  expect_graphs_change_nothing(fcc + "fix 1 all nve\nfix 2 all langevin 1.0 1.5 0.5 48279\nrun 200\nrun 100\n",
                               "graph-langevin");
  expect_graphs_change_nothing(fcc + "fix 1 all nvt temp 1.0 1.3 0.2 tchain 4\nrun 150\nrun 150\n", "graph-nvt");
  expect_graphs_change_nothing(fcc + "fix 1 all nvt temp 1.0 1.0 0.5\nfix 2 all langevin 1.2 1.0 2.0 4242\nrun 200\n",
                               "graph-nvt-langevin");
  expect_graphs_change_nothing(implosion_setup("graph-implosion-langevin") +
                                   "fix 1 all nve\nfix 2 all langevin 1.0 1.5 0.5 4242\nrun 1000\n",
                               "graph-implosion-langevin");
  expect_graphs_change_nothing(implosion_setup("graph-implosion-nvt") + "fix 1 all nvt temp 1.0 1.2 0.2\nrun 1000\n",
                               "graph-implosion-nvt");
}

// EAM with fix nve: the force kernel of a step whose end state nobody reads also applies the
// next step's first half kick and drift and makes its displacement checks (md::cuda::Drift);
// with MOLSTEP_CUDA_DRIFT=0 they run in kernels of their own. The same arithmetic on the same
// values: the same bits, list builds and prunings, with the list checked at every step, every 3
// steps after a delay (and a second run), not at all (rebuilt every 20), from graphs and kernel
// by kernel, with one and four threads per atom, and through the implosion whose list overflows
// in the middle of the run (the host finishes the halted step from its own first half kick),
// which also ends as the CPU's run does.
TEST(Cuda, EamDriftInTheForceKernelChangesNothing) {
  REQUIRE_GPU();
  const std::string hot = "units metal\nread_data " + (kPeers / "data.forces.eam").string() +
                          "\npair_style eam\npair_coeff 1 1 " + (kPeers / "Cu_u3.eam").string() +
                          "\nneighbor 1.0 bin\nvelocity all create 1600.0 4928459 loop geom\ntimestep 0.002\n"
                          "fix 1 all nve\n";
  const std::string implosion = eam_implosion_setup("drift-implosion") + "fix 1 all nve\n";
  const std::vector<std::pair<std::string, std::string>> decks = {
      {"check", hot + "neigh_modify every 1 delay 0 check yes\nthermo 25\nrun 200\n"},
      {"delay", hot + "neigh_modify every 3 delay 6 check yes\nthermo 40\nrun 100\nrun 100\n"},
      {"every", hot + "neigh_modify every 20 delay 0 check no\nthermo 0\nrun 200\n"},
      {"implosion", implosion + "run 600\n"}};
  const long setup_slots = test::last_count(
      test::run_deck_text(implosion + "run 0\n", test::scratch_dir("drift-implosion-setup"), md::Device::cuda).printed,
      "neighbour list: ");
  for (const auto& [tag, deck] : decks)
    for (const std::string tpa : {"1", "4"})
      for (const std::string graph : {"1", "0"}) {
        SCOPED_TRACE(tag + ", MOLSTEP_CUDA_TPA=" + tpa + ", MOLSTEP_CUDA_GRAPH=" + graph);
        const auto run = [&](const std::string& drift) {
          const test::ScopedTuning t(
              test::TuningEnv{{"MOLSTEP_CUDA_DRIFT", drift}, {"MOLSTEP_CUDA_TPA", tpa}, {"MOLSTEP_CUDA_GRAPH", graph}});
          return test::run_deck_text(deck, test::scratch_dir("drift-" + tag + "-" + tpa + graph + drift),
                                     md::Device::cuda);
        };
        const auto separate = run("0"), fused = run("1");
        test::expect_identical_runs(separate, fused);
        EXPECT_EQ(test::last_count(separate.printed, "pruned at "), test::last_count(fused.printed, "pruned at "));
        EXPECT_GT(test::last_count(fused.printed, "applied by the force kernel at "), 90) << fused.printed;
        EXPECT_EQ(separate.printed.find("applied by the force kernel"), std::string::npos);
        if (tag == "implosion") {
          EXPECT_GT(test::last_count(fused.printed, "neighbour list: "), setup_slots) << "no overflow";
        }
      }
  const auto [cpu, gpu] = test::expect_same_trajectory(implosion + "run 600\n", "drift-implosion-cpu", 1e-7);
  EXPECT_EQ(test::last_count(gpu.printed, "Neighbour list builds: "), test::last_count(cpu.printed, "Neighbour list builds: "));
}

// The list overflows in the middle of a run (implosion_setup): the device halts after the failed
// list pass, the host finds out later, grows the list, lists again and finishes the step, and
// the run goes on as the CPU's does, with the same number of builds. Every fix replays the steps
// between outputs from graphs, and nothing waits for the device between outputs: the halted
// steps leave langevin's and nvt's step count and nvt's chain alone (the ramped targets would
// show a step counted twice or not at all).
TEST(Cuda, ListGrowsInTheMiddleOfARunAsOnTheCpu) {
  REQUIRE_GPU();
  const auto setup_slots = [](const std::string& deck, const std::string& name) {
    const auto r = test::run_deck_text(deck + "run 0\n", test::scratch_dir(name + "-setup"), md::Device::cuda);
    return test::last_count(r.printed, "neighbour list: ");
  };
  for (const auto& [tag, fixes] : {std::pair<std::string, std::string>{"nve", "fix 1 all nve\n"},
                                   {"langevin", "fix 1 all nve\nfix 2 all langevin 1.0 1.0 0.5 4242\n"},
                                   {"nvt", "fix 1 all nvt temp 1.0 1.0 0.2\n"},
                                   {"langevin-ramp", "fix 1 all nve\nfix 2 all langevin 1.0 1.5 0.5 4242\n"},
                                   {"nvt-ramp", "fix 1 all nvt temp 1.0 1.2 0.2\n"}}) {
    const std::string name = "implosion-" + tag;
    const std::string deck = implosion_setup(name) + fixes;
    const auto [cpu, gpu] = test::expect_same_trajectory(deck + "run 1000\n", name, 1e-7);
    EXPECT_EQ(test::last_count(gpu.printed, "Neighbour list builds: "),
              test::last_count(cpu.printed, "Neighbour list builds: "))
        << tag;
    EXPECT_GT(test::last_count(gpu.printed, "neighbour list: "), setup_slots(deck, name)) << tag << ": no overflow";
    EXPECT_GT(test::last_count(gpu.printed, "GPU steps: "), 0) << tag << ": no step replayed from a graph";
  }
}
