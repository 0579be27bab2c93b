// SPDX-License-Identifier: MIT
// Same input, same output on any thread count: the final state written by write_data must be
// byte-identical for 1 and 2 OpenMP threads, for deterministic and stochastic dynamics alike.
#include <gtest/gtest.h>
#include <omp.h>

#include <fstream>
#include <sstream>

#include "support/deck_runner.hpp"
#include "support/paths.hpp"

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string final_state(const std::string& thermostat, int threads) {
  const auto dir = molstep::test::scratch_dir("det-" + std::to_string(threads));
  molstep::test::write_file(dir / "in.det",
                            "units lj\n"
                            "lattice fcc 0.8442\n"
                            "region box block 0 10 0 10 0 10\n"
                            "create_box 1 box\n"
                            "create_atoms 1 box\n"
                            "mass 1 1.0\n"
                            "velocity all create 1.44 87287 loop geom\n"
                            "pair_style lj/cut 2.5\n"
                            "pair_coeff 1 1 1.0 1.0 2.5\n"
                            "neighbor 0.3 bin\n"
                            "neigh_modify every 1 delay 0 check yes\n"
                            "fix 1 all nve\n" +
                                thermostat +
                                "thermo 50\n"
                                "run 200\n"
                                "write_data final.data\n");
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  molstep::test::run_deck(dir / "in.det", dir);
  omp_set_num_threads(saved);
  return slurp(dir / "final.data");
}

}  // namespace

TEST(Determinism, NveIsBitIdenticalOnOneAndTwoThreads) {
  const auto one = final_state("", 1);
  ASSERT_GT(one.size(), 100000u);
  EXPECT_TRUE(one == final_state("", 2)) << "final states differ between 1 and 2 threads";
}

TEST(Determinism, LangevinIsBitIdenticalOnOneAndTwoThreads) {
  const std::string fix = "fix 2 all langevin 1.0 1.0 0.5 48279\n";
  EXPECT_TRUE(final_state(fix, 1) == final_state(fix, 2)) << "final states differ between 1 and 2 threads";
}
