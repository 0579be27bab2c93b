// SPDX-License-Identifier: MIT
#pragma once

// The Nose-Hoover chain of fix nvt (FixNoseHoover) as a plain struct and functions that compile
// for the host and for the device: the CPU fix advances it on the host, the GPU run advances a
// copy of it in device memory, in a one-thread kernel (md/cuda/fixes_cuda.cu), with the same
// operations in the same order (scalar_ops.hpp), and copies it back to the CPU fix at the end
// of the run.

#include "molstep/md/integrators/fix.hpp"
#include "molstep/md/integrators/scalar_ops.hpp"
#include "molstep/md/integrators/target.hpp"

namespace molstep::md::integrators {

/// The chain's settings and state. Trivially copyable: the GPU run copies it to the device and
/// back as bytes.
struct NoseHooverChain {
  static constexpr int kMaxChain = 10;
  // Settings: the fix's arguments, and the run's timestep and steps (the target ramps over them).
  double t_start = 0.0, t_stop = 0.0, t_period = 1.0;
  int length = 1;  ///< thermostats in the chain (tchain)
  RunInfo run{0.0, 0, 0};
  double dof = 0.0, boltz = 1.0;
  // State. eta and eta_dot carry over from one run to the next; the rest is set at each setup.
  double t_target = 0.0;   ///< the target temperature at the step being integrated
  double t_current = 0.0;  ///< the temperature the next half step starts from
  double eta[kMaxChain + 1] = {}, eta_dot[kMaxChain + 1] = {}, eta_dotdot[kMaxChain + 1] = {},
         eta_mass[kMaxChain + 1] = {};
};

/// Advances the chain half a step from c.t_current; returns the factor every velocity is then
/// multiplied by (LAMMPS's FixNH::nhc_temp_integrate). Every operation is rounded on its own
/// (rn::), in the order LAMMPS writes it.
MOLSTEP_INTEGRATOR_HD inline double advance_chain(NoseHooverChain& c) {
  const int n = c.length;
  const double dt = c.run.dt;
  const double dthalf = rn::mul(0.5, dt), dt4 = rn::mul(0.25, dt), dt8 = rn::mul(0.125, dt);
  const double f = rn::div(1.0, c.t_period);
  const double ff = rn::mul(f, f);
  const double ke_target = rn::mul(rn::mul(c.dof, c.boltz), c.t_target);
  const double kt = rn::mul(c.boltz, c.t_target);
  c.eta_mass[0] = rn::div(ke_target, ff);
  for (int k = 1; k < n; ++k) c.eta_mass[k] = rn::div(kt, ff);
  c.eta_dot[n] = 0.0;

  double ke = rn::mul(rn::mul(c.dof, c.boltz), c.t_current);
  c.eta_dotdot[0] = c.eta_mass[0] > 0.0 ? rn::div(rn::sub(ke, ke_target), c.eta_mass[0]) : 0.0;
  for (int k = n - 1; k > 0; --k) {
    const double e = rn::exp(rn::mul(-dt8, c.eta_dot[k + 1]));
    c.eta_dot[k] = rn::mul(rn::add(rn::mul(c.eta_dot[k], e), rn::mul(c.eta_dotdot[k], dt4)), e);
  }
  double e = rn::exp(rn::mul(-dt8, c.eta_dot[1]));
  c.eta_dot[0] = rn::mul(rn::add(rn::mul(c.eta_dot[0], e), rn::mul(c.eta_dotdot[0], dt4)), e);

  const double scale = rn::exp(rn::mul(-dthalf, c.eta_dot[0]));
  c.t_current = rn::mul(c.t_current, rn::mul(scale, scale));
  ke = rn::mul(rn::mul(c.dof, c.boltz), c.t_current);
  c.eta_dotdot[0] = c.eta_mass[0] > 0.0 ? rn::div(rn::sub(ke, ke_target), c.eta_mass[0]) : 0.0;
  for (int k = 0; k < n; ++k) c.eta[k] = rn::add(c.eta[k], rn::mul(dthalf, c.eta_dot[k]));

  c.eta_dot[0] = rn::mul(rn::add(rn::mul(c.eta_dot[0], e), rn::mul(c.eta_dotdot[0], dt4)), e);
  for (int k = 1; k < n; ++k) {
    e = rn::exp(rn::mul(-dt8, c.eta_dot[k + 1]));
    c.eta_dot[k] = rn::mul(c.eta_dot[k], e);
    const double q = rn::mul(rn::mul(c.eta_mass[k - 1], c.eta_dot[k - 1]), c.eta_dot[k - 1]);
    c.eta_dotdot[k] = rn::div(rn::sub(q, kt), c.eta_mass[k]);
    c.eta_dot[k] = rn::mul(rn::add(c.eta_dot[k], rn::mul(c.eta_dotdot[k], dt4)), e);
  }
  return scale;
}

/// The chain's half step that begins a step (before the first half kick): the target moves to
/// `step`'s, then the chain advances from the temperature the last half step left.
MOLSTEP_INTEGRATOR_HD inline double chain_before_kick(NoseHooverChain& c, long step) {
  c.t_target = target_temperature(c.t_start, c.t_stop, c.run, step);
  return advance_chain(c);
}

/// The chain's half step that ends a step (after the second half kick), from the temperature
/// `temperature` the kick left.
MOLSTEP_INTEGRATOR_HD inline double chain_after_kick(NoseHooverChain& c, double temperature) {
  c.t_current = temperature;
  return advance_chain(c);
}

}  // namespace molstep::md::integrators
