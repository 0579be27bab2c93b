// SPDX-License-Identifier: MIT
// Frame-parallel `molstep analyze` under mpirun: the same results as one process. Skipped where
// molstep was built without MPI or mpirun is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "support/paths.hpp"

namespace fs = std::filesystem;
using namespace molstep;

#ifdef MOLSTEP_HAVE_MPI
namespace {

// A 500-atom LJ liquid, 21 frames.
void write_trajectory(const fs::path& dir) {
  test::write_file(dir / "in.deck", R"(units lj
lattice fcc 0.8442
region box block 0 5 0 5 0 5
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
fix 1 all nve
dump t all xtc 5 run.xtc
run 100
)");
  const std::string cmd = "cd " + dir.string() + " && " + test::molstep_binary().string() +
                          " md in.deck --device cpu --log none --quiet";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
}

int run(const fs::path& dir, const std::string& launcher, const std::string& queries, const std::string& out) {
  const std::string cmd = "cd " + dir.string() + " && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                          launcher + " " + test::molstep_binary().string() + " analyze run.xtc --device cpu " +
                          queries + " --out " + out + " > " + out + ".log 2>&1";
  return std::system(cmd.c_str());
}

}  // namespace
#endif

TEST(AnalysisMpi, FrameParallelRunMatchesOneProcess) {
#ifndef MOLSTEP_HAVE_MPI
  GTEST_SKIP() << "molstep built without MPI: test skipped";
#else
  if (std::system("command -v mpirun > /dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun: test skipped";
  const auto dir = test::scratch_dir("analysis_mpi");
  write_trajectory(dir);
  const std::string q = "-q rdf:rmax=2.5,bins=40 -q rg -q com -q inertia -q dipole -q sdh:width=0.05 -q mass";
  ASSERT_EQ(run(dir, "", q, "one"), 0);
  ASSERT_EQ(run(dir, "mpirun -np 3 --oversubscribe", q, "three"), 0) << test::read_data_lines(dir / "three.log");
  for (const auto* f : {"rdf.csv", "rg.csv", "com.csv", "inertia.csv", "dipole.csv", "sdh.csv", "mass.csv"}) {
    ASSERT_TRUE(fs::exists(dir / "three" / f)) << f;
    EXPECT_EQ(test::read_data_lines(dir / "one" / f), test::read_data_lines(dir / "three" / f)) << f;
  }
  // A query that needs every frame's atoms on one rank is refused with a reason.
  EXPECT_NE(run(dir, "mpirun -np 2 --oversubscribe", "-q msd", "msd"), 0);
  std::ifstream log(dir / "msd.log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("frame-parallel"), std::string::npos) << text;
#endif
}
