// SPDX-License-Identifier: MIT
// The GPU run loop against the CPU one (the reference) and against LAMMPS's stored outputs.
// Skipped, with a message, where no CUDA device is present.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "molstep/io/lammps_data.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/deck_runner.hpp"
#include "support/lj_system.hpp"
#include "support/gpu_compare.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using namespace molstep;

#define REQUIRE_GPU()                  \
  if (md::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device here (or molstep built without CUDA): GPU test skipped"

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
