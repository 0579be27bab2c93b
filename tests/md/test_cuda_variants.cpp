// SPDX-License-Identifier: MIT
// The opt-in GPU kernel variants (gpu::Tuning: MOLSTEP_CUDA_LIST, _TPA, _SORT, _PAD, _BINS, _PRUNE) against the
// CPU reference, as tests/md/test_cuda.cpp checks the default kernels: energies, virials and
// forces agree to 1e-12 relative in double (forces relative to the RMS force), 1e-5 in mixed
// precision. The GPU cases are skipped, with a message, where no CUDA device is present; the
// parsing of the variables is checked everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "molstep/gpu/launch.cuh"
#include "molstep/io/lammps_data.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/deck_runner.hpp"
#include "support/lj_system.hpp"
#include "support/gpu_compare.hpp"
#include "support/paths.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;
using namespace molstep;

namespace {

using Env = test::TuningEnv;
using test::ScopedTuning;

struct Variant {
  std::string name;
  Env env;
  bool half;
  int tpa;
  bool sort;
  int pad;
  bool full_bins = false;
  double prune = gpu::Tuning::kDefaultPrune;
  gpu::Tuning::TableMemory eam_tables = gpu::Tuning::TableMemory::force;
  int table_block = gpu::Tuning::kDefaultTableBlock;
  gpu::Tuning::ListOrder list_order = gpu::Tuning::ListOrder::automatic;
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"Default", {}, false, 0, true, 0},
      {"ExplicitDefaults",
       {{"MOLSTEP_CUDA_LIST", "full"},
        {"MOLSTEP_CUDA_TPA", "auto"},
        {"MOLSTEP_CUDA_SORT", "1"},
        {"MOLSTEP_CUDA_PAD", "0"},
        {"MOLSTEP_CUDA_BINS", "half"}},
       false, 0, true, 0},
      {"HalfList", {{"MOLSTEP_CUDA_LIST", "half"}}, true, 0, true, 0},
      {"Tpa1", {{"MOLSTEP_CUDA_TPA", "1"}}, false, 1, true, 0},
      {"Tpa2", {{"MOLSTEP_CUDA_TPA", "2"}}, false, 2, true, 0},
      {"Tpa4", {{"MOLSTEP_CUDA_TPA", "4"}}, false, 4, true, 0},
      {"Tpa8", {{"MOLSTEP_CUDA_TPA", "8"}}, false, 8, true, 0},
      {"HalfListTpa4", {{"MOLSTEP_CUDA_LIST", "half"}, {"MOLSTEP_CUDA_TPA", "4"}}, true, 4, true, 0},
      {"NoSort", {{"MOLSTEP_CUDA_SORT", "0"}}, false, 0, false, 0},
      {"NoSortHalfList", {{"MOLSTEP_CUDA_SORT", "0"}, {"MOLSTEP_CUDA_LIST", "half"}}, true, 0, false, 0},
      {"Pad32", {{"MOLSTEP_CUDA_PAD", "32"}}, false, 0, true, 32},
      {"Pad100", {{"MOLSTEP_CUDA_PAD", "100"}}, false, 0, true, 100},
      {"Pad128Tpa2", {{"MOLSTEP_CUDA_PAD", "128"}, {"MOLSTEP_CUDA_TPA", "2"}}, false, 2, true, 128},
      {"Everything",
       {{"MOLSTEP_CUDA_LIST", "half"}, {"MOLSTEP_CUDA_TPA", "8"}, {"MOLSTEP_CUDA_SORT", "0"}, {"MOLSTEP_CUDA_PAD", "128"}},
       true, 8, false, 128},
      {"FullBins", {{"MOLSTEP_CUDA_BINS", "full"}}, false, 0, true, 0, true},
      {"FullBinsHalfList", {{"MOLSTEP_CUDA_BINS", "full"}, {"MOLSTEP_CUDA_LIST", "half"}}, true, 0, true, 0, true},
      {"FullBinsNoSort", {{"MOLSTEP_CUDA_BINS", "full"}, {"MOLSTEP_CUDA_SORT", "0"}}, false, 0, false, 0, true},
      {"PruneEveryStep", {{"MOLSTEP_CUDA_PRUNE", "0"}}, false, 0, true, 0, false, 0.0},
      {"PruneWholeSkinTpa1", {{"MOLSTEP_CUDA_PRUNE", "1"}, {"MOLSTEP_CUDA_TPA", "1"}}, false, 1, true, 0, false, 1.0},
      {"PruneWholeSkinHalfList", {{"MOLSTEP_CUDA_PRUNE", "1"}, {"MOLSTEP_CUDA_LIST", "half"}}, true, 0, true, 0, false,
       1.0},
      {"GlobalTables", {{"MOLSTEP_CUDA_TABLES", "global"}}, false, 0, true, 0, false, 0.25, gpu::Tuning::TableMemory::global},
      {"GlobalTablesTpa1", {{"MOLSTEP_CUDA_TABLES", "global"}, {"MOLSTEP_CUDA_TPA", "1"}}, false, 1, true, 0, false, 0.25,
       gpu::Tuning::TableMemory::global},
      {"BothTablesShared", {{"MOLSTEP_CUDA_TABLES", "both"}}, false, 0, true, 0, false, 0.25, gpu::Tuning::TableMemory::both},
      {"BothTablesSharedTpa1HalfList",
       {{"MOLSTEP_CUDA_TABLES", "both"}, {"MOLSTEP_CUDA_TPA", "1"}, {"MOLSTEP_CUDA_LIST", "half"}},
       true, 1, true, 0, false, 0.25, gpu::Tuning::TableMemory::both},
      {"TableBlock96Tpa1", {{"MOLSTEP_CUDA_TABLE_BLOCK", "96"}, {"MOLSTEP_CUDA_TPA", "1"}}, false, 1, true, 0, false,
       0.25, gpu::Tuning::TableMemory::force, 96},
      {"TableBlock384HalfListTpa2",
       {{"MOLSTEP_CUDA_TABLE_BLOCK", "384"}, {"MOLSTEP_CUDA_LIST", "half"}, {"MOLSTEP_CUDA_TPA", "2"}},
       true, 2, true, 0, false, 0.25, gpu::Tuning::TableMemory::force, 384},
      // Lists by partner index for EAM too (the order before lists by distance), and by distance
      // for LJ too, with one thread per atom, unsorted atoms and full-width cells.
      {"IndexOrder", {{"MOLSTEP_CUDA_ORDER", "index"}}, false, 0, true, 0, false, 0.25, gpu::Tuning::TableMemory::force,
       gpu::Tuning::kDefaultTableBlock, gpu::Tuning::ListOrder::index},
      {"DistanceOrderTpa1", {{"MOLSTEP_CUDA_ORDER", "distance"}, {"MOLSTEP_CUDA_TPA", "1"}}, false, 1, true, 0, false,
       0.25, gpu::Tuning::TableMemory::force, gpu::Tuning::kDefaultTableBlock, gpu::Tuning::ListOrder::distance},
      {"DistanceOrderNoSortFullBins",
       {{"MOLSTEP_CUDA_ORDER", "distance"}, {"MOLSTEP_CUDA_SORT", "0"}, {"MOLSTEP_CUDA_BINS", "full"}}, false, 0, false, 0,
       true, 0.25, gpu::Tuning::TableMemory::force, gpu::Tuning::kDefaultTableBlock, gpu::Tuning::ListOrder::distance},
      {"DistanceOrderHalfList", {{"MOLSTEP_CUDA_ORDER", "distance"}, {"MOLSTEP_CUDA_LIST", "half"}}, true, 0, true, 0,
       false, 0.25, gpu::Tuning::TableMemory::force, gpu::Tuning::kDefaultTableBlock, gpu::Tuning::ListOrder::distance},
  };
  return v;
}

const fs::path kPeers = test::data_dir() / "eam_peers";


// The LJ data file of the default tests, but 7^3 fcc cells (1372 atoms: not a multiple of 32,
// so padding changes the stride; 4 cells a side).
std::string lj_deck(const std::string& name, bool slab = false) {
  const auto dir = test::scratch_dir(name + "-data");
  auto s = test::disordered_lj_system(7, 0.1);
  // A slab: the same atoms in a box twice as tall, so the density where the atoms are is twice
  // the mean from which the list's first slot count is guessed, and the list must grow.
  if (slab) s.box.hi[2] = s.box.lo[2] + 2.0 * s.box.length(2);
  io::write_lammps_data(dir / "dis.data", s, 0);
  return "units lj\nread_data " + (dir / "dis.data").string() +
         "\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\npair_coeff 2 2 0.5 1.2\npair_modify shift yes\n"
         "fix 1 all nve\nrun 0\n";
}

class CudaVariant : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    REQUIRE_GPU();
    tuning_.emplace(GetParam().env);
    const auto& t = gpu::tuning();
    ASSERT_EQ(t.half_list, GetParam().half);
    ASSERT_EQ(t.threads_per_atom, GetParam().tpa);
    ASSERT_EQ(t.sort, GetParam().sort);
    ASSERT_EQ(t.pad, GetParam().pad);
    ASSERT_EQ(t.full_bins, GetParam().full_bins);
    ASSERT_EQ(t.prune, GetParam().prune);
    ASSERT_EQ(t.eam_tables, GetParam().eam_tables);
    ASSERT_EQ(t.table_block, GetParam().table_block);
    ASSERT_EQ(t.list_order, GetParam().list_order);
  }
  void TearDown() override { tuning_.reset(); }
  std::string tag(const std::string& what) const { return "cudavar-" + GetParam().name + "-" + what; }

 private:
  std::optional<ScopedTuning> tuning_;
};

}  // namespace

TEST_P(CudaVariant, LennardJonesMatchesCpu) { test::expect_gpu_matches_cpu(lj_deck(tag("lj")), tag("lj"), 1e-12); }

TEST_P(CudaVariant, MixedPrecisionLennardJonesWithinOnePartIn1e5) {
  test::expect_gpu_matches_cpu(lj_deck(tag("ljmixed")), tag("ljmixed"), 1e-5, md::Precision::mixed);
}

// Denser than the mean where the atoms are: the list overflows its first guess and is rebuilt.
TEST_P(CudaVariant, ListGrowsOnOverflow) { test::expect_gpu_matches_cpu(lj_deck(tag("slab"), true), tag("slab"), 1e-12); }

// 2 cells a side for the list (the half list's plain-offset case).
TEST_P(CudaVariant, EamFuncflMatchesCpu) {
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eam").string() + "\npair_style eam\npair_coeff 1 1 " +
                  (kPeers / "Cu_u3.eam").string() + "\nneighbor 1.0 bin\nfix 1 all nve\nrun 0\n",
              tag("eam"), 1e-12);
}

TEST_P(CudaVariant, EamAlloyMatchesCpu) {
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eamalloy").string() +
                  "\npair_style eam/alloy\npair_coeff * * " + (kPeers / "CuNi.eam.alloy").string() +
                  " Cu Ni\nneighbor 0.7 bin\nfix 1 all nve\nrun 0\n",
              tag("eamalloy"), 1e-12);
}

TEST_P(CudaVariant, MixedPrecisionEamWithinOnePartIn1e5) {
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eamalloy").string() +
                  "\npair_style eam/alloy\npair_coeff * * " + (kPeers / "CuNi.eam.alloy").string() +
                  " Cu Ni\nneighbor 0.7 bin\nfix 1 all nve\nrun 0\n",
              tag("eammixed"), 1e-5, md::Precision::mixed);
}

// One element: the force pass reads its tables from the window in shared memory, in float.
TEST_P(CudaVariant, MixedPrecisionEamFuncflWithinOnePartIn1e5) {
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eam").string() +
                                   "\npair_style eam\npair_coeff 1 1 " + (kPeers / "Cu_u3.eam").string() +
                                   "\nneighbor 1.0 bin\nfix 1 all nve\nrun 0\n",
                               tag("eamfuncflmixed"), 1e-5, md::Precision::mixed);
}

// 50 steps with a rebuild check every step (3 cells a side): the kick (a kernel of its own with
// the half list), rebuilds of unsorted atoms and of padded lists; the trajectories separate only
// by the growth of round-off.
TEST_P(CudaVariant, LennardJonesStatesAgreeAfterDynamics) {
  test::expect_gpu_matches_cpu("units lj\nlattice fcc 0.8442\nregion box block 0 6 0 6 0 6\ncreate_box 1 box\ncreate_atoms 1 box\n"
              "mass 1 1.0\nvelocity all create 1.44 87287 loop geom\npair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0\n"
              "neigh_modify every 1 delay 0 check yes\nfix 1 all nve\nthermo 10\nrun 50\n",
              tag("ljdyn"), 1e-9);
}

TEST_P(CudaVariant, EamStatesAgreeAfterDynamics) {
  test::expect_gpu_matches_cpu("units metal\nread_data " + (kPeers / "data.forces.eam").string() + "\npair_style eam\npair_coeff 1 1 " +
                  (kPeers / "Cu_u3.eam").string() +
                  "\nneighbor 1.0 bin\nneigh_modify every 1 delay 0 check yes\nfix 1 all nve\nthermo 10\nrun 20\n",
              tag("eamdyn"), 1e-9);
}

// Copper squeezed to a lattice constant of 2.75 A, hot: the nearest neighbours (1.94 A) lie
// closer than the window of the tables kept in shared memory starts (0.4 of the cutoff, 1.98 A;
// kernels::EamWindow), the second shell inside it, so a warp reads both the global records and
// the window, and thermal motion moves pairs across its edge.
TEST_P(CudaVariant, EamSqueezedPairsBelowTheTableWindowAgree) {
  test::expect_gpu_matches_cpu("units metal\nlattice fcc 2.75\nregion box block 0 5 0 5 0 5\ncreate_box 1 box\n"
                               "create_atoms 1 box\npair_style eam\npair_coeff 1 1 " +
                                   (kPeers / "Cu_u3.eam").string() +
                                   "\nvelocity all create 3000.0 4928459 loop geom\nneighbor 1.0 bin\n"
                                   "neigh_modify every 1 delay 0 check yes\ntimestep 0.001\nfix 1 all nve\n"
                                   "thermo 10\nrun 20\n",
                               tag("eamsqueezed"), 1e-9);
}

// Boxes of 4 list cells (half the list cutoff wide) along one direction, the fewest that a list
// cutoff of half the box allows, and 7 or 10 along the others: each cell of the short direction
// is searched once while the others are searched 2 cells either side, wrapped around the box
// (with MOLSTEP_CUDA_BINS=full: 2 cells along the short direction, 3 or 5 along the others). A
// pair missed or listed twice at a rebuild would separate the trajectories.
TEST_P(CudaVariant, LennardJonesShortBoxesAgreeAfterDynamics) {
  for (const std::string cells : {"4 0 6 0 9", "9 0 4 0 6", "6 0 9 0 4"}) {
    const std::string what = "ljshort" + std::to_string(cells[0] - '0');
    test::expect_gpu_matches_cpu("units lj\nlattice fcc 0.8442\nregion box block 0 " + cells +
                                     "\ncreate_box 1 box\ncreate_atoms 1 box\nmass 1 1.0\n"
                                     "velocity all create 1.44 87287 loop geom\npair_style lj/cut 2.5\n"
                                     "pair_coeff 1 1 1.0 1.0\nneigh_modify every 1 delay 0 check yes\nfix 1 all nve\n"
                                     "thermo 10\nrun 50\n",
                                 tag(what), 1e-9);
  }
}

// EAM's inner lists (MOLSTEP_CUDA_PRUNE): with one thread per atom and any buffer the passes sum
// the same pairs in the same order as when the list is pruned to the cutoff at every step, so a
// hot eam/alloy run that prunes it many times (1600 K, a list check every step) ends in the same
// bits; with four threads per atom (the default for so few atoms) the entries are dealt to the
// lanes by their place in the buffered list, so sums are grouped otherwise and agree to
// round-off. Either way the buffer spares prunings (the run summary counts them).
namespace {
// 200 steps of the 256-atom `data` at 1600 K with `pair` (style and coefficients) and a list
// check every step, skin `skin`.
std::string hot_eam_deck(const std::string& data, const std::string& pair, const std::string& skin) {
  return "units metal\nread_data " + (kPeers / data).string() + "\n" + pair + "\nneighbor " + skin +
         " bin\nneigh_modify every 1 delay 0 check yes\nvelocity all create 1600.0 4928459 loop geom\n"
         "timestep 0.002\nfix 1 all nve\nthermo 25\nrun 200\n";
}
}  // namespace

TEST(CudaPrune, InnerListBufferChangesNoPairs) {
  REQUIRE_GPU();
  const std::string deck = hot_eam_deck(
      "data.forces.eamalloy", "pair_style eam/alloy\npair_coeff * * " + (kPeers / "CuNi.eam.alloy").string() + " Cu Ni",
      "0.7");
  // "pruned at P of E force evaluations" from the run summary.
  const auto prunings = [](const test::DeckResult& r, long& evaluations) {
    const long p = test::last_count(r.printed, "pruned at ");
    evaluations = test::last_count(r.printed, std::to_string(p) + " of ");
    return p;
  };
  for (const std::string tpa : {"1", "auto"}) {
    const auto run = [&](const std::string& prune) {
      const ScopedTuning t(Env{{"MOLSTEP_CUDA_TPA", tpa}, {"MOLSTEP_CUDA_PRUNE", prune}});
      return test::run_deck_text(deck, test::scratch_dir("prune-" + tpa + "-" + prune), md::Device::cuda);
    };
    const auto exact = run("0");
    long evaluations = 0;
    EXPECT_EQ(prunings(exact, evaluations), 201) << exact.printed;  // the setup's and 200 steps'
    EXPECT_EQ(evaluations, 201);
    const long builds = test::last_count(exact.printed, "Neighbour list builds: ");
    EXPECT_GT(builds, 2);
    for (const std::string prune : {"0.25", "1"}) {
      SCOPED_TRACE("MOLSTEP_CUDA_TPA=" + tpa + " MOLSTEP_CUDA_PRUNE=" + prune);
      const auto buffered = run(prune);
      if (tpa == "1") {
        test::expect_identical_runs(exact, buffered);
      } else {
        ASSERT_EQ(exact.thermo.size(), buffered.thermo.size());
        for (std::size_t r = 0; r < exact.thermo.size(); ++r)
          for (const char* key : {"epair", "etotal", "press", "temp"}) {
            const double a = exact.thermo[r][key], b = buffered.thermo[r][key];
            EXPECT_NEAR(a, b, 1e-10 * std::abs(a)) << key << " in row " << r;
          }
        EXPECT_EQ(test::last_count(buffered.printed, "Neighbour list builds: "), builds);
      }
      const long p = prunings(buffered, evaluations);
      EXPECT_EQ(evaluations, 201);
      EXPECT_GT(p, builds) << buffered.printed;
      EXPECT_LT(p, 150) << buffered.printed;
    }
  }
}

// The inner lists are pruned on the device's own decision; the same deck twice gives the same
// bits, with one thread per atom and with four.
TEST(CudaPrune, RunsRepeatExactly) {
  REQUIRE_GPU();
  const std::string deck =
      hot_eam_deck("data.forces.eam", "pair_style eam\npair_coeff 1 1 " + (kPeers / "Cu_u3.eam").string(), "1.0");
  for (const std::string tpa : {"1", "4"}) {
    const ScopedTuning t(Env{{"MOLSTEP_CUDA_TPA", tpa}});
    const auto a = test::run_deck_text(deck, test::scratch_dir("repeat-a-" + tpa), md::Device::cuda);
    const auto b = test::run_deck_text(deck, test::scratch_dir("repeat-b-" + tpa), md::Device::cuda);
    test::expect_identical_runs(a, b);
  }
}

// The tables' window in shared memory holds the global records' coefficients, read by the same
// arithmetic in the same order: a run ends in the same bits either way (one thread per atom and
// four, full lists).
TEST(CudaTables, SharedAndGlobalGiveTheSameBits) {
  REQUIRE_GPU();
  const std::string deck =
      hot_eam_deck("data.forces.eam", "pair_style eam\npair_coeff 1 1 " + (kPeers / "Cu_u3.eam").string(), "1.0");
  for (const std::string tpa : {"1", "4"}) {
    const auto run = [&](const std::string& tables) {
      const ScopedTuning t(Env{{"MOLSTEP_CUDA_TPA", tpa}, {"MOLSTEP_CUDA_TABLES", tables}});
      return test::run_deck_text(deck, test::scratch_dir("tables-" + tables + "-" + tpa), md::Device::cuda);
    };
    const auto global = run("global");
    test::expect_identical_runs(run("force"), global);
    test::expect_identical_runs(run("both"), global);
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, CudaVariant, ::testing::ValuesIn(variants()),
                         [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name; });

// ---- the variables themselves (no GPU needed) --------------------------------------------------

TEST(CudaTuning, DefaultsWhenUnset) {
  const ScopedTuning none(Env{});
  const auto& t = gpu::tuning();
  EXPECT_FALSE(t.full_bins);
  EXPECT_FALSE(t.half_list);
  EXPECT_EQ(t.threads_per_atom, 0);  // auto
  EXPECT_TRUE(t.sort);
  EXPECT_EQ(t.pad, 0);
  EXPECT_TRUE(t.graphs);
  EXPECT_TRUE(t.is_default());
  EXPECT_EQ(t.describe(), "default");
}

// Plain launches are no kernel variant: the run summary names no variant for them; nor is the
// drift in kernels of its own.
TEST(CudaTuning, GraphsOffIsNoKernelVariant) {
  const ScopedTuning off(Env{{"MOLSTEP_CUDA_GRAPH", "0"}});
  EXPECT_FALSE(gpu::tuning().graphs);
  EXPECT_TRUE(gpu::tuning().is_default());
}

TEST(CudaTuning, DriftInItsOwnKernelsIsNoKernelVariant) {
  {
    const ScopedTuning off(Env{{"MOLSTEP_CUDA_DRIFT", "0"}});
    EXPECT_FALSE(gpu::tuning().fuse_drift);
    EXPECT_TRUE(gpu::tuning().is_default());
  }
  const ScopedTuning on(Env{{"MOLSTEP_CUDA_DRIFT", "1"}});
  EXPECT_TRUE(gpu::tuning().fuse_drift);
}

TEST(CudaTuning, ReadsEveryVariable) {
  const ScopedTuning all(
      Env{{"MOLSTEP_CUDA_LIST", "half"}, {"MOLSTEP_CUDA_TPA", "8"}, {"MOLSTEP_CUDA_SORT", "0"}, {"MOLSTEP_CUDA_PAD", "128"}});
  const auto& t = gpu::tuning();
  EXPECT_TRUE(t.half_list);
  EXPECT_EQ(t.threads_per_atom, 8);
  EXPECT_FALSE(t.sort);
  EXPECT_EQ(t.pad, 128);
  EXPECT_FALSE(t.is_default());
  EXPECT_EQ(t.describe(), "half list, 8 threads per atom, atoms not sorted by cell, list stride padded to 128");
}

TEST(CudaTuning, ReadsThePruningBuffer) {
  {
    const ScopedTuning zero(Env{{"MOLSTEP_CUDA_PRUNE", "0"}});
    EXPECT_EQ(gpu::tuning().prune, 0.0);
    EXPECT_FALSE(gpu::tuning().is_default());
    EXPECT_EQ(gpu::tuning().describe(), "EAM inner list buffer 0.00 skin");
  }
  const ScopedTuning quarter(Env{{"MOLSTEP_CUDA_PRUNE", "0.25"}});
  EXPECT_EQ(gpu::tuning().prune, 0.25);
  EXPECT_TRUE(gpu::tuning().is_default());
}

TEST(CudaTuning, ReadsTheTableVariables) {
  {
    const ScopedTuning global(Env{{"MOLSTEP_CUDA_TABLES", "global"}, {"MOLSTEP_CUDA_TABLE_BLOCK", "256"}});
    EXPECT_EQ(gpu::tuning().eam_tables, gpu::Tuning::TableMemory::global);
    EXPECT_EQ(gpu::tuning().table_block, 256);
    EXPECT_FALSE(gpu::tuning().is_default());
    EXPECT_EQ(gpu::tuning().describe(), "EAM tables in global memory, EAM table blocks of 256 threads");
  }
  {
    const ScopedTuning both(Env{{"MOLSTEP_CUDA_TABLES", "both"}});
    EXPECT_EQ(gpu::tuning().eam_tables, gpu::Tuning::TableMemory::both);
    EXPECT_EQ(gpu::tuning().describe(), "EAM tables in shared memory in both passes");
  }
  const ScopedTuning force(Env{{"MOLSTEP_CUDA_TABLES", "force"}, {"MOLSTEP_CUDA_TABLE_BLOCK", "512"}});
  EXPECT_EQ(gpu::tuning().eam_tables, gpu::Tuning::TableMemory::force);
  EXPECT_TRUE(gpu::tuning().is_default());
}

TEST(CudaTuning, ReadsTheListOrder) {
  {
    const ScopedTuning index(Env{{"MOLSTEP_CUDA_ORDER", "index"}});
    EXPECT_EQ(gpu::tuning().list_order, gpu::Tuning::ListOrder::index);
    EXPECT_FALSE(gpu::tuning().is_default());
    EXPECT_EQ(gpu::tuning().describe(), "lists by partner index");
  }
  {
    const ScopedTuning distance(Env{{"MOLSTEP_CUDA_ORDER", "distance"}});
    EXPECT_EQ(gpu::tuning().list_order, gpu::Tuning::ListOrder::distance);
    EXPECT_EQ(gpu::tuning().describe(), "lists by distance");
  }
  const ScopedTuning automatic(Env{{"MOLSTEP_CUDA_ORDER", "auto"}});
  EXPECT_EQ(gpu::tuning().list_order, gpu::Tuning::ListOrder::automatic);
  EXPECT_TRUE(gpu::tuning().is_default());
}

TEST(CudaTuning, PaddingToOneIsTheDefault) {
  const ScopedTuning one(Env{{"MOLSTEP_CUDA_PAD", "1"}});
  EXPECT_TRUE(gpu::tuning().is_default());
}

TEST(CudaTuning, ReadsTheCellWidth) {
  {
    const ScopedTuning full(Env{{"MOLSTEP_CUDA_BINS", "full"}});
    EXPECT_TRUE(gpu::tuning().full_bins);
    EXPECT_FALSE(gpu::tuning().is_default());
    EXPECT_EQ(gpu::tuning().describe(), "list cells as wide as the cutoff");
  }
  const ScopedTuning half(Env{{"MOLSTEP_CUDA_BINS", "half"}});
  EXPECT_FALSE(gpu::tuning().full_bins);
  EXPECT_TRUE(gpu::tuning().is_default());
}

TEST(CudaTuning, RejectsValuesOutsideThoseDocumented) {
  const ScopedTuning none(Env{});
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"MOLSTEP_CUDA_LIST", "halve"}, {"MOLSTEP_CUDA_TPA", "3"},   {"MOLSTEP_CUDA_TPA", "16"},
      {"MOLSTEP_CUDA_SORT", "no"},    {"MOLSTEP_CUDA_PAD", "-32"}, {"MOLSTEP_CUDA_PAD", "32x"},
      {"MOLSTEP_CUDA_GRAPH", "off"},  {"MOLSTEP_CUDA_BINS", "quarter"}, {"MOLSTEP_CUDA_PRUNE", "-0.1"},
      {"MOLSTEP_CUDA_PRUNE", "1.5"},  {"MOLSTEP_CUDA_PRUNE", "0.2x"},  {"MOLSTEP_CUDA_PRUNE", "nan"},
      {"MOLSTEP_CUDA_TABLES", "shared"},  {"MOLSTEP_CUDA_TABLE_BLOCK", "100"}, {"MOLSTEP_CUDA_TABLE_BLOCK", "2048"},
      {"MOLSTEP_CUDA_TABLE_BLOCK", "0"}, {"MOLSTEP_CUDA_ORDER", "nearest"}, {"MOLSTEP_CUDA_DRIFT", "yes"}};
  for (const auto& [name, value] : bad) {
    ::setenv(name.c_str(), value.c_str(), 1);
    try {
      gpu::reload_tuning();
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
    ::unsetenv(name.c_str());
  }
  // A rejected value leaves the variants read before in force.
  EXPECT_TRUE(gpu::tuning().is_default());
}

// Threads per atom by the atom count: a system much smaller than the device's resident threads
// gets groups of 4, one that fills it one thread per atom; MOLSTEP_CUDA_TPA overrides.
TEST(CudaTuning, ThreadsPerAtomFollowTheAtomCount) {
  REQUIRE_GPU();
  {
    const ScopedTuning none(Env{});
    EXPECT_EQ(md::cuda::threads_per_atom(1372), 4);
    EXPECT_EQ(md::cuda::threads_per_atom(100'000'000), 1);
    int last = 4;
    for (std::size_t n = 1000; n < 100'000'000; n *= 2) {
      const int t = md::cuda::threads_per_atom(n);
      EXPECT_TRUE(t == 1 || t == 4) << t;
      EXPECT_LE(t, last) << n << " atoms";
      last = t;
    }
  }
  const ScopedTuning fixed(Env{{"MOLSTEP_CUDA_TPA", "2"}});
  EXPECT_EQ(md::cuda::threads_per_atom(1372), 2);
  EXPECT_EQ(md::cuda::threads_per_atom(100'000'000), 2);
}
