// SPDX-License-Identifier: MIT
// Langevin and Nose-Hoover chain runs sample the canonical ensemble: the instantaneous kinetic
// temperature has the canonical mean and variance. Tolerance: four standard errors, estimated
// from the scatter of block averages (blocks much longer than the thermostat's correlation
// time), so a correct thermostat fails by chance about once in 10^4 runs.
#include <gtest/gtest.h>

#include <cmath>

#include "molstep/md/integrators/nose_hoover.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/canonical.hpp"
#include "support/deck_runner.hpp"
#include "support/paths.hpp"


TEST(Thermostats, LangevinSamplesTheCanonicalEnsemble) {
  const auto m = molstep::test::sample_temperature("fix 1 all nve\nfix 2 all langevin 1.0 1.0 0.5 48279\n", "langevin");
  // Langevin thermalises all 3N momenta, while temp divides 2 KE by 3N - 3.
  const double n = 500.0, dof = 3.0 * n - 3.0;
  const double mean = 3.0 * n / dof, var = 2.0 * 3.0 * n / (dof * dof);
  molstep::test::expect_canonical(m, mean, var);
}

TEST(Thermostats, NoseHooverChainSamplesTheCanonicalEnsemble) {
  const auto m = molstep::test::sample_temperature("fix 1 all nvt temp 1.0 1.0 0.5\n", "nvt");
  // Momentum stays zero: 3N - 3 degrees of freedom fluctuate.
  const double dof = 3.0 * 500.0 - 3.0;
  const double mean = 1.0, var = 2.0 / dof;
  molstep::test::expect_canonical(m, mean, var);
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
