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

 private:
  void update_target(long step);
  void chain_half_step(System& system);

  double t_start_, t_stop_, t_period_;
  int chain_;
  RunInfo run_{0.0, 0, 0};
  double t_target_ = 0.0, t_current_ = 0.0, dof_ = 0.0, boltz_ = 1.0;
  std::array<double, kMaxChain + 1> eta_{}, eta_dot_{}, eta_dotdot_{}, eta_mass_{};
};

}  // namespace molstep::md::integrators
