// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/integrators/fix.hpp"

namespace molstep::md::integrators {

/// Thermostat target at `step`, ramped linearly from t_start to t_stop over the run (LAMMPS).
inline double target_temperature(double t_start, double t_stop, const RunInfo& run, long step) {
  const long span = run.last_step - run.first_step;
  const double delta = span > 0 ? static_cast<double>(step - run.first_step) / static_cast<double>(span) : 0.0;
  return t_start + delta * (t_stop - t_start);
}

}  // namespace molstep::md::integrators
