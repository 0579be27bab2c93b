// SPDX-License-Identifier: MIT
#include "molstep/md/integrators/nose_hoover.hpp"

#include <string>
#include <utility>

#include "molstep/core/error.hpp"
#include "molstep/md/integrators/nve.hpp"
#include "molstep/md/integrators/target.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md::integrators {

FixNoseHoover::FixNoseHoover(std::string id, double t_start, double t_stop, double damp, int chain)
    : Fix(std::move(id)) {
  if (chain < 1 || chain > kMaxChain) throw Error("fix nvt: tchain must be 1.." + std::to_string(kMaxChain));
  chain_.t_start = t_start;
  chain_.t_stop = t_stop;
  chain_.t_period = damp;
  chain_.length = chain;
}

void FixNoseHoover::setup(System& s, const RunInfo& run) {
  auto& c = chain_;
  c.run = run;
  c.boltz = s.units.boltz;
  c.t_target = target_temperature(c.t_start, c.t_stop, c.run, run.first_step);
  c.t_current = temperature(s);
  c.dof = temperature_dof(s);
  const double f = 1.0 / c.t_period;
  c.eta_mass[0] = c.dof * c.boltz * c.t_target / (f * f);
  for (int k = 1; k < c.length; ++k) c.eta_mass[k] = c.boltz * c.t_target / (f * f);
  for (int k = 1; k < c.length; ++k)
    c.eta_dotdot[k] = (c.eta_mass[k - 1] * c.eta_dot[k - 1] * c.eta_dot[k - 1] - c.boltz * c.t_target) / c.eta_mass[k];
}

namespace {

void scale_velocities(System& s, double scale) {
  auto& a = s.atoms;
  for (std::size_t i = 0; i < a.size(); ++i) {
    a.vx[i] *= scale;
    a.vy[i] *= scale;
    a.vz[i] *= scale;
  }
}

}  // namespace

void FixNoseHoover::initial_integrate(System& s, long step) {
  scale_velocities(s, chain_before_kick(chain_, step));
  half_kick(s, 0.5 * chain_.run.dt * s.units.ftm2v);
  drift(s, chain_.run.dt);
}

void FixNoseHoover::final_integrate(System& s, long) {
  half_kick(s, 0.5 * chain_.run.dt * s.units.ftm2v);
  scale_velocities(s, chain_after_kick(chain_, temperature(s)));
}

double FixNoseHoover::chain_energy() const {
  const auto& c = chain_;
  double e = c.dof * c.boltz * c.t_target * c.eta[0];
  for (int k = 1; k < c.length; ++k) e += c.boltz * c.t_target * c.eta[k];
  for (int k = 0; k < c.length; ++k) e += 0.5 * c.eta_mass[k] * c.eta_dot[k] * c.eta_dot[k];
  return e;
}

}  // namespace molstep::md::integrators
