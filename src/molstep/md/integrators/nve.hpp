// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/integrators/fix.hpp"

namespace molstep::md::integrators {

/// `fix ID all nve`: velocity Verlet, v += dt/2 F/m, x += dt v, then v += dt/2 F/m.
class FixNve final : public Fix {
 public:
  using Fix::Fix;
  [[nodiscard]] std::string_view style() const override { return "nve"; }
  [[nodiscard]] bool conserves_energy() const override { return true; }
  void setup(System& system, const RunInfo& run) override;
  void initial_integrate(System& system, long step) override;
  void final_integrate(System& system, long step) override;

 private:
  double dt_ = 0.0;
};

/// The half kick v += (dt/2) F/m shared by every Verlet-type fix (`half_dt` = dt/2 * ftm2v).
void half_kick(System& system, double half_dt);
/// The drift x += dt v.
void drift(System& system, double dt);

}  // namespace molstep::md::integrators
