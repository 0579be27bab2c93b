// SPDX-License-Identifier: MIT
#pragma once

#include <array>

#include "molstep/md/integrators/fix.hpp"

namespace molstep::md::integrators {

/// `fix ID all nvt temp TSTART TSTOP DAMP [tchain N]`: velocity Verlet coupled to a Nose-Hoover
/// chain (Martyna, Tuckerman, Klein) integrated as LAMMPS's fix nvt does: chain updates of a
/// quarter step around the velocity scaling, half steps before and after the Verlet step.
/// Thermostat masses Q_1 = dof kB T / f^2, Q_k = kB T / f^2 with f = 1/DAMP.
class FixNoseHoover final : public Fix {
 public:
  static constexpr int kMaxChain = 10;
  FixNoseHoover(std::string id, double t_start, double t_stop, double damp, int chain);
  [[nodiscard]] std::string_view style() const override { return "nvt"; }
  void setup(System& system, const RunInfo& run) override;
  void initial_integrate(System& system, long step) override;
  void final_integrate(System& system, long step) override;

  /// Thermostat energy (for conserved-quantity checks).
  [[nodiscard]] double chain_energy() const;

  // The chain's scalar half steps, for a run loop that keeps the velocities elsewhere (the GPU
  // run, md/cuda/fixes_cuda.cu). Each returns the factor every velocity is then multiplied by.
  // initial_integrate(step) is: v *= chain_before_kick(step); half kick; drift.
  // final_integrate is: half kick; v *= chain_after_kick(T) with T the temperature after the kick.
  double chain_before_kick(long step);
  double chain_after_kick(double temperature);

 private:
  void update_target(long step);
  /// Advances the chain half a step from t_current_; returns the velocity scale factor.
  double advance_chain();

  double t_start_, t_stop_, t_period_;
  int chain_;
  RunInfo run_{0.0, 0, 0};
  double t_target_ = 0.0, t_current_ = 0.0, dof_ = 0.0, boltz_ = 1.0;
  std::array<double, kMaxChain + 1> eta_{}, eta_dot_{}, eta_dotdot_{}, eta_mass_{};
};

}  // namespace molstep::md::integrators
