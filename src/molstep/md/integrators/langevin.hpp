// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/core/counter_rng.hpp"
#include "molstep/md/integrators/fix.hpp"

namespace molstep::md::integrators {

/// `fix ID all langevin TSTART TSTOP DAMP SEED`: adds F = -m v / DAMP + R with R uniform of
/// variance 2 m kB T / (DAMP dt) per component (LAMMPS's force form). Use with fix nve.
/// Random numbers are keyed by (seed, atom id, step), so runs repeat on any thread count.
class FixLangevin final : public Fix {
 public:
  FixLangevin(std::string id, double t_start, double t_stop, double damp, int seed);
  [[nodiscard]] std::string_view style() const override { return "langevin"; }
  void setup(System& system, const RunInfo& run) override;
  void post_force(System& system, long step) override;

  // The terms of the force, shared with the GPU twin of this fix (md/cuda/fixes_cuda.cu), which
  // applies the same force with the same random numbers. On atom i of mass m at `step`:
  //   F_d += friction(m) v_d + sqrt(m) noise(step) (rng().uniform(id, step, d) - 0.5).
  /// -m / DAMP / ftm2v.
  [[nodiscard]] double friction(const core::UnitSystem& units, double mass) const;
  /// The random force's amplitude per sqrt(mass) at `step` of `run` (the target ramps over it):
  /// noise_scale(units, run) * sqrt(target_temperature(t_start(), t_stop(), run, step)), the
  /// product the GPU twin forms on the device from a step count it keeps there.
  [[nodiscard]] double noise(const core::UnitSystem& units, const RunInfo& run, long step) const;
  /// sqrt(24 kB / (DAMP dt mvv2e)) / ftm2v: the amplitude per sqrt(mass) and sqrt(temperature).
  [[nodiscard]] double noise_scale(const core::UnitSystem& units, const RunInfo& run) const;
  [[nodiscard]] double t_start() const { return t_start_; }
  [[nodiscard]] double t_stop() const { return t_stop_; }
  [[nodiscard]] const core::CounterRng& rng() const { return rng_; }

 private:
  double t_start_, t_stop_, damp_;
  core::CounterRng rng_;
  RunInfo run_{0.0, 0, 0};
};

}  // namespace molstep::md::integrators
