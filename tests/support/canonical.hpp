// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace molstep::test {

/// Mean and variance of the instantaneous temperature with their standard errors.
struct TemperatureMoments {
  double mean, mean_se, var, var_se;
};

/// Runs a 500-atom LJ liquid (80,000 steps, temp every 20) with the thermostat `fix` lines, on the
/// CPU or the GPU, and returns the temperature's mean and variance after 5000 steps, with
/// standard errors from the scatter of block averages (blocks of 100 samples = 2000 steps, much
/// longer than the thermostat's correlation time).
TemperatureMoments sample_temperature(const std::string& fix, const std::string& name, bool on_gpu = false);

/// Mean and variance within four standard errors of the canonical values, and a run long enough
/// for the variance test to mean something: a correct thermostat fails by chance about once in
/// 10^4 runs.
void expect_canonical(const TemperatureMoments& m, double mean, double var);

}  // namespace molstep::test
