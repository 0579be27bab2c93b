// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/integrators/fix.hpp"
#include "molstep/md/integrators/scalar_ops.hpp"

namespace molstep::md::integrators {

/// Thermostat target at `step`, ramped linearly from t_start to t_stop over the run (LAMMPS).
/// Also compiled for the device (the GPU fixes ramp their target there, with the same bits).
[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double target_temperature(double t_start, double t_stop,
                                                                    const RunInfo& run, long step) {
  const long span = run.last_step - run.first_step;
  const double delta =
      span > 0 ? rn::div(static_cast<double>(step - run.first_step), static_cast<double>(span)) : 0.0;
  return rn::add(t_start, rn::mul(delta, rn::sub(t_stop, t_start)));
}

}  // namespace molstep::md::integrators
