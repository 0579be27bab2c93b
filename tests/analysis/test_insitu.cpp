// SPDX-License-Identifier: MIT
// In-situ analysis (`analyze` in a deck) against the same queries run afterwards over a dump of
// the same run, and the trajectory dump styles against their readers.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "molstep/core/error.hpp"
#include "molstep/io/trajectory.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "support/deck_runner.hpp"
#include "support/paths.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;
using namespace molstep;

namespace {

// A small LJ melt that writes a full-precision custom dump, trajectories in three formats, and
// runs five queries in situ every 10 steps.
std::string deck(const std::string& extra = "") {
  return R"(units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 5 0 5 0 5
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify every 20 delay 0 check no
fix 1 all nve
dump d all custom 10 run.dump id type x y z
dump x all xyz 10 run.xyz
dump c all dcd 10 run.dcd
dump t all xtc 10 run.xtc
analyze a 10 select low "index 0-99" out insitu rdf:rmax=2.4,bins=60 rg:sel=low com sdh:width=0.05 inertia
thermo 50
)" + extra + "run 100\n";
}


void expect_same_results(const fs::path& a, const fs::path& b) {
  for (const auto* q : {"rdf.csv", "rg.csv", "com.csv", "sdh.csv", "inertia.csv"}) {
    ASSERT_TRUE(fs::exists(a / q)) << a / q;
    ASSERT_TRUE(fs::exists(b / q)) << b / q;
    EXPECT_EQ(test::read_data_lines(a / q), test::read_data_lines(b / q)) << q;
  }
}

int analyze(const fs::path& dir, const std::string& traj, const std::string& device) {
  const std::string cmd = "cd " + dir.string() + " && " + test::molstep_binary().string() + " analyze " + traj + " --dt 0.005" +
                          " --device " + device + " -s low='index 0-99' -q rdf:rmax=2.4,bins=60 -q rg:sel=low -q com" +
                          " -q sdh:width=0.05 -q inertia --out posthoc > analyze.out 2>&1";
  return std::system(cmd.c_str());
}

void run_and_compare(const std::string& name, bool gpu) {
  const auto dir = test::scratch_dir(name);
  test::write_file(dir / "in.deck", deck());
  test::run_deck(dir / "in.deck", dir, {}, {}, gpu);
  for (const auto* f : {"run.dump", "run.xyz", "run.dcd", "run.xtc", "insitu/summary.json"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  }
  // The full-precision dump holds the very doubles the in-situ queries saw.
  ASSERT_EQ(analyze(dir, "run.dump", gpu ? "cuda" : "cpu"), 0) << test::molstep_binary();
  expect_same_results(dir / "insitu", dir / "posthoc");
}

}  // namespace

TEST(AnalysisInSitu, MatchesPostHocAnalysisOfTheDumpOnTheCpu) { run_and_compare("insitu_cpu", false); }

TEST(AnalysisInSitu, MatchesPostHocAnalysisOfTheDumpOnTheGpu) {
  REQUIRE_GPU();
  run_and_compare("insitu_gpu", true);
}

TEST(AnalysisInSitu, TrajectoryDumpsReadBackAsTheRun) {
  const auto dir = test::scratch_dir("insitu_formats");
  test::write_file(dir / "in.deck", deck());
  test::run_deck(dir / "in.deck", dir);
  auto ref = io::open_trajectory(dir / "run.dump");
  for (const auto* name : {"run.xyz", "run.dcd", "run.xtc"}) {
    auto reader = io::open_trajectory(dir / name);
    auto exact = io::open_trajectory(dir / "run.dump");
    core::Frame f, g;
    int frames = 0;
    // XTC keeps 1/1000 nm = 0.01 length units; DCD single precision; XYZ full digits.
    const double tol = std::string(name) == "run.xtc" ? 0.0051 : std::string(name) == "run.dcd" ? 1e-5 : 1e-12;
    while (exact->next(g)) {
      ASSERT_TRUE(reader->next(f)) << name << " frame " << frames;
      ASSERT_EQ(f.natoms(), g.natoms());
      for (std::size_t i = 0; i < g.natoms(); ++i) {
        ASSERT_NEAR(f.x[i], g.x[i], tol) << name << " frame " << frames << " atom " << i;
        ASSERT_NEAR(f.z[i], g.z[i], tol) << name << " frame " << frames << " atom " << i;
      }
      ++frames;
    }
    EXPECT_FALSE(reader->next(f)) << name;
    EXPECT_EQ(frames, 11) << name;
  }
}

TEST(AnalysisInSitu, BadAnalyzeCommandsNameTheDeckLine) {
  const auto dir = test::scratch_dir("insitu_errors");
  for (const auto& [line, message] : std::vector<std::pair<std::string, std::string>>{
           {"analyze b 0 rg\n", "interval"},
           {"analyze b 10\n", "usage"},
           {"analyze b 10 nosuch\n", "nosuch"},
           {"analyze b 10 rdf:bisn=3\n", "bisn"},
           {"analyze b 10 select s\n", "expression"},
           {"dump q all pdb 10 x.pdb\n", "pdb"},
       }) {
    test::write_file(dir / "in.deck", deck(line));
    try {
      test::run_deck(dir / "in.deck", dir);
      ADD_FAILURE() << "no error for: " << line;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("in.deck:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}
