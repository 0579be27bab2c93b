// SPDX-License-Identifier: MIT
#include "support/canonical.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/deck_runner.hpp"
#include "support/paths.hpp"

namespace molstep::test {

TemperatureMoments sample_temperature(const std::string& fix, const std::string& name, bool on_gpu) {
  const auto dir = molstep::test::scratch_dir(name);
  molstep::test::write_file(dir / "in.thermostat",
                            "units lj\n"
                            "lattice fcc 0.8442\n"
                            "region box block 0 5 0 5 0 5\n"
                            "create_box 1 box\n"
                            "create_atoms 1 box\n"
                            "mass 1 1.0\n"
                            "velocity all create 1.0 87287 loop geom\n"
                            "pair_style lj/cut 2.5\n"
                            "pair_coeff 1 1 1.0 1.0 2.5\n"
                            "neighbor 0.3 bin\n"
                            "neigh_modify every 1 delay 0 check yes\n"
                            "timestep 0.005\n" +
                                fix +
                                "thermo 20\n"
                                "thermo_style custom step temp\n"
                                "run 80000\n");
  const auto rows = molstep::test::run_deck(dir / "in.thermostat", dir, {}, {}, on_gpu);
  // Skip 5000 steps of equilibration, then blocks of 100 samples (2000 steps, 2000 dt = 10 tau
  // against a thermostat time of 0.5 tau).
  std::vector<double> t;
  for (const auto& r : rows)
    if (r.at("step").get<long>() > 5000) t.push_back(r.at("temp").get<double>());
  const std::size_t block = 100, nblocks = t.size() / block;
  std::vector<double> bm, bv;
  for (std::size_t b = 0; b < nblocks; ++b) {
    double s = 0.0, s2 = 0.0;
    for (std::size_t k = b * block; k < (b + 1) * block; ++k) {
      s += t[k];
      s2 += t[k] * t[k];
    }
    bm.push_back(s / block);
    bv.push_back(s2 / block - (s / block) * (s / block));
  }
  const auto stats = [](const std::vector<double>& v) {
    double m = 0.0, m2 = 0.0;
    for (double x : v) m += x;
    m /= static_cast<double>(v.size());
    for (double x : v) m2 += (x - m) * (x - m);
    return std::pair{m, std::sqrt(m2 / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()))};
  };
  const auto [mean, mean_se] = stats(bm);
  const auto [var, var_se] = stats(bv);
  // Within-block variances are biased low by the variance of the block mean; correct for it.
  return {mean, mean_se, var * block / (block - 1.0), var_se};
}

void expect_canonical(const TemperatureMoments& m, double mean, double var) {
  ::testing::Test::RecordProperty("mean", std::to_string(m.mean));
  ::testing::Test::RecordProperty("variance", std::to_string(m.var));
  EXPECT_NEAR(m.mean, mean, 4.0 * m.mean_se) << "mean " << m.mean << " expected " << mean;
  EXPECT_NEAR(m.var, var, 4.0 * m.var_se) << "variance " << m.var << " expected " << var;
  EXPECT_LT(m.var_se / var, 0.05) << "the run is too short to test the variance";
}

}  // namespace molstep::test
