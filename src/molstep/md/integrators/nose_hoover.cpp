// SPDX-License-Identifier: MIT
#include "molstep/md/integrators/nose_hoover.hpp"

#include <cmath>

#include "molstep/core/error.hpp"
#include "molstep/md/integrators/nve.hpp"
#include "molstep/md/integrators/target.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md::integrators {

FixNoseHoover::FixNoseHoover(std::string id, double t_start, double t_stop, double damp, int chain)
    : Fix(std::move(id)), t_start_(t_start), t_stop_(t_stop), t_period_(damp), chain_(chain) {
  if (chain < 1 || chain > kMaxChain) throw Error("fix nvt: tchain must be 1.." + std::to_string(kMaxChain));
}

void FixNoseHoover::update_target(long step) { t_target_ = target_temperature(t_start_, t_stop_, run_, step); }

void FixNoseHoover::setup(System& s, const RunInfo& run) {
  run_ = run;
  boltz_ = s.units.boltz;
  update_target(run.first_step);
  t_current_ = temperature(s);
  dof_ = temperature_dof(s);
  const double f = 1.0 / t_period_;
  eta_mass_[0] = dof_ * boltz_ * t_target_ / (f * f);
  for (int k = 1; k < chain_; ++k) eta_mass_[k] = boltz_ * t_target_ / (f * f);
  for (int k = 1; k < chain_; ++k)
    eta_dotdot_[k] = (eta_mass_[k - 1] * eta_dot_[k - 1] * eta_dot_[k - 1] - boltz_ * t_target_) / eta_mass_[k];
}

double FixNoseHoover::advance_chain() {
  const double dt = run_.dt;
  const double dthalf = 0.5 * dt, dt4 = 0.25 * dt, dt8 = 0.125 * dt;
  const double f = 1.0 / t_period_;
  const double ke_target = dof_ * boltz_ * t_target_;
  eta_mass_[0] = dof_ * boltz_ * t_target_ / (f * f);
  for (int k = 1; k < chain_; ++k) eta_mass_[k] = boltz_ * t_target_ / (f * f);
  eta_dot_[chain_] = 0.0;

  double ke = dof_ * boltz_ * t_current_;
  eta_dotdot_[0] = eta_mass_[0] > 0.0 ? (ke - ke_target) / eta_mass_[0] : 0.0;
  for (int k = chain_ - 1; k > 0; --k) {
    const double e = std::exp(-dt8 * eta_dot_[k + 1]);
    eta_dot_[k] = (eta_dot_[k] * e + eta_dotdot_[k] * dt4) * e;
  }
  double e = std::exp(-dt8 * eta_dot_[1]);
  eta_dot_[0] = (eta_dot_[0] * e + eta_dotdot_[0] * dt4) * e;

  const double scale = std::exp(-dthalf * eta_dot_[0]);
  t_current_ *= scale * scale;
  ke = dof_ * boltz_ * t_current_;
  eta_dotdot_[0] = eta_mass_[0] > 0.0 ? (ke - ke_target) / eta_mass_[0] : 0.0;
  for (int k = 0; k < chain_; ++k) eta_[k] += dthalf * eta_dot_[k];

  eta_dot_[0] = (eta_dot_[0] * e + eta_dotdot_[0] * dt4) * e;
  for (int k = 1; k < chain_; ++k) {
    e = std::exp(-dt8 * eta_dot_[k + 1]);
    eta_dot_[k] *= e;
    eta_dotdot_[k] = (eta_mass_[k - 1] * eta_dot_[k - 1] * eta_dot_[k - 1] - boltz_ * t_target_) / eta_mass_[k];
    eta_dot_[k] = (eta_dot_[k] + eta_dotdot_[k] * dt4) * e;
  }
  return scale;
}

double FixNoseHoover::chain_before_kick(long step) {
  update_target(step);
  return advance_chain();
}

double FixNoseHoover::chain_after_kick(double temperature) {
  t_current_ = temperature;
  return advance_chain();
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
  scale_velocities(s, chain_before_kick(step));
  half_kick(s, 0.5 * run_.dt * s.units.ftm2v);
  drift(s, run_.dt);
}

void FixNoseHoover::final_integrate(System& s, long) {
  half_kick(s, 0.5 * run_.dt * s.units.ftm2v);
  scale_velocities(s, chain_after_kick(temperature(s)));
}

double FixNoseHoover::chain_energy() const {
  double e = dof_ * boltz_ * t_target_ * eta_[0];
  for (int k = 1; k < chain_; ++k) e += boltz_ * t_target_ * eta_[k];
  for (int k = 0; k < chain_; ++k) e += 0.5 * eta_mass_[k] * eta_dot_[k] * eta_dot_[k];
  return e;
}

}  // namespace molstep::md::integrators
