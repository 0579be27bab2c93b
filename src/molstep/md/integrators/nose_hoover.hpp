// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/integrators/fix.hpp"
#include "molstep/md/integrators/nose_hoover_chain.hpp"

namespace molstep::md::integrators {

/// `fix ID all nvt temp TSTART TSTOP DAMP [tchain N]`: velocity Verlet coupled to a Nose-Hoover
/// chain (Martyna, Tuckerman, Klein) integrated as LAMMPS's fix nvt does: chain updates of a
/// quarter step around the velocity scaling, half steps before and after the Verlet step.
/// Thermostat masses Q_1 = dof kB T / f^2, Q_k = kB T / f^2 with f = 1/DAMP.
class FixNoseHoover final : public Fix {
 public:
  static constexpr int kMaxChain = NoseHooverChain::kMaxChain;
  FixNoseHoover(std::string id, double t_start, double t_stop, double damp, int chain);
  [[nodiscard]] std::string_view style() const override { return "nvt"; }
  void setup(System& system, const RunInfo& run) override;
  void initial_integrate(System& system, long step) override;
  void final_integrate(System& system, long step) override;

  /// Thermostat energy (for conserved-quantity checks).
  [[nodiscard]] double chain_energy() const;

  /// The chain, for a run loop that keeps the velocities elsewhere (the GPU run,
  /// md/cuda/fixes_cuda.cu): after setup() it copies the chain to the device, advances it there
  /// with chain_before_kick and chain_after_kick (nose_hoover_chain.hpp), and hands it back with
  /// set_chain() at the end of the run, so that the next run (and chain_energy) go on from it.
  /// initial_integrate(step) is: v *= chain_before_kick(chain, step); half kick; drift.
  /// final_integrate is: half kick; v *= chain_after_kick(chain, T), T the temperature after it.
  [[nodiscard]] const NoseHooverChain& chain() const { return chain_; }
  void set_chain(const NoseHooverChain& chain) { chain_ = chain; }

 private:
  NoseHooverChain chain_;
};

}  // namespace molstep::md::integrators
