// SPDX-License-Identifier: MIT
// Langevin and Nose-Hoover chain runs sample the canonical ensemble: the instantaneous kinetic
// temperature has the canonical mean and variance. Tolerance: four standard errors, estimated
// from the scatter of block averages (blocks much longer than the thermostat's correlation
// time), so a correct thermostat fails by chance about once in 10^4 runs.
#include <gtest/gtest.h>

#include <cmath>

#include "molstep/md/integrators/nose_hoover.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/deck_runner.hpp"
#include "support/paths.hpp"

namespace {

struct Moments {
  double mean, mean_se, var, var_se;
};

Moments sample_temperature(const std::string& fix, const std::string& name) {
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
  const auto rows = molstep::test::run_deck(dir / "in.thermostat", dir);
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

// Mean and variance within four standard errors of the canonical values, and a run long enough
// for the variance test to mean something.
void expect_canonical(const Moments& m, double mean, double var) {
  ::testing::Test::RecordProperty("mean", std::to_string(m.mean));
  ::testing::Test::RecordProperty("variance", std::to_string(m.var));
  EXPECT_NEAR(m.mean, mean, 4.0 * m.mean_se) << "mean " << m.mean << " expected " << mean;
  EXPECT_NEAR(m.var, var, 4.0 * m.var_se) << "variance " << m.var << " expected " << var;
  EXPECT_LT(m.var_se / var, 0.05) << "the run is too short to test the variance";
}

}  // namespace

TEST(Thermostats, LangevinSamplesTheCanonicalEnsemble) {
  const auto m = sample_temperature("fix 1 all nve\nfix 2 all langevin 1.0 1.0 0.5 48279\n", "langevin");
  // Langevin thermalises all 3N momenta, while temp divides 2 KE by 3N - 3.
  const double n = 500.0, dof = 3.0 * n - 3.0;
  const double mean = 3.0 * n / dof, var = 2.0 * 3.0 * n / (dof * dof);
  expect_canonical(m, mean, var);
}

TEST(Thermostats, NoseHooverChainSamplesTheCanonicalEnsemble) {
  const auto m = sample_temperature("fix 1 all nvt temp 1.0 1.0 0.5\n", "nvt");
  // Momentum stays zero: 3N - 3 degrees of freedom fluctuate.
  const double dof = 3.0 * 500.0 - 3.0;
  const double mean = 1.0, var = 2.0 / dof;
  expect_canonical(m, mean, var);
}

// The Nose-Hoover chain's extended energy (particles plus thermostat) is conserved by its
// integrator, which checks the chain equations themselves rather than only their statistics.
TEST(Thermostats, NoseHooverChainConservesItsExtendedEnergy) {
  const auto dir = molstep::test::scratch_dir("nvt-conserved");
  molstep::test::write_file(dir / "in.nvt",
                            "units lj\n"
                            "lattice fcc 0.8442\n"
                            "region box block 0 5 0 5 0 5\n"
                            "create_box 1 box\n"
                            "create_atoms 1 box\n"
                            "mass 1 1.0\n"
                            "velocity all create 1.5 87287 loop geom\n"
                            "pair_style lj/cut 2.5\n"
                            "pair_coeff 1 1 1.0 1.0 2.5\n"
                            "pair_modify shift yes\n"
                            "neigh_modify every 1 delay 0 check yes\n"
                            "timestep 0.002\n"
                            "fix 1 all nvt temp 1.0 1.0 0.2\n"
                            "run 0\n");
  molstep::md::Output out(nullptr, std::nullopt, std::nullopt);
  molstep::md::Simulation sim(out);
  molstep::md::script::Interpreter interp(sim, out);
  interp.run_file(dir / "in.nvt");
  const auto& chain = dynamic_cast<const molstep::md::integrators::FixNoseHoover&>(*sim.fixes.at(0));
  molstep::md::Thermo thermo;
  thermo.norm = false;
  const auto extended = [&] { return *thermo.value("etotal", sim.thermo_state()) + chain.chain_energy(); };
  const double h0 = extended();
  double worst = 0.0, t_min = 10.0, t_max = 0.0;
  for (int block = 0; block < 10; ++block) {
    sim.run(500);
    worst = std::max(worst, std::fabs(extended() - h0) / std::fabs(h0));
    const double t = *thermo.value("temp", sim.thermo_state());
    t_min = std::min(t_min, t);
    t_max = std::max(t_max, t);
  }
  RecordProperty("max_relative_change", std::to_string(worst));
  EXPECT_LT(worst, 2e-4);
  // The thermostat did work: starting at 1.5 the temperature is pulled towards 1.0.
  EXPECT_LT(t_max, 1.3);
}
