// SPDX-License-Identifier: MIT
#include "molstep/core/parallel.hpp"
#include "molstep/md/integrators/langevin.hpp"

#include <cmath>

#include "molstep/md/integrators/target.hpp"

namespace molstep::md::integrators {

FixLangevin::FixLangevin(std::string id, double t_start, double t_stop, double damp, int seed)
    : Fix(std::move(id)), t_start_(t_start), t_stop_(t_stop), damp_(damp), rng_(static_cast<std::uint64_t>(seed)) {}

void FixLangevin::setup(System& s, const RunInfo& run) {
  run_ = run;
  post_force(s, run.first_step);
}

double FixLangevin::friction(const core::UnitSystem& u, double m) const { return -m / damp_ / u.ftm2v; }

double FixLangevin::noise_scale(const core::UnitSystem& u, const RunInfo& run) const {
  return std::sqrt(24.0 * u.boltz / damp_ / run.dt / u.mvv2e) / u.ftm2v;
}

double FixLangevin::noise(const core::UnitSystem& u, const RunInfo& run, long step) const {
  const double tsqrt = std::sqrt(target_temperature(t_start_, t_stop_, run, step));
  return noise_scale(u, run) * tsqrt;
}

void FixLangevin::post_force(System& s, long step) {
  const auto& u = s.units;
  auto& a = s.atoms;
  const std::size_t n = a.size();
  const double noise = this->noise(u, run_, step);
#pragma omp parallel for schedule(static) if (n >= core::kParallelMinAtoms)
  for (std::size_t i = 0; i < n; ++i) {
    const double m = s.mass_of(i);
    const double gamma1 = friction(u, m);
    const double gamma2 = std::sqrt(m) * noise;
    const auto id = static_cast<std::uint64_t>(a.id[i]);
    const auto st = static_cast<std::uint64_t>(step);
    a.fx[i] += gamma1 * a.vx[i] + gamma2 * (rng_.uniform(id, st, 0) - 0.5);
    a.fy[i] += gamma1 * a.vy[i] + gamma2 * (rng_.uniform(id, st, 1) - 0.5);
    a.fz[i] += gamma1 * a.vz[i] + gamma2 * (rng_.uniform(id, st, 2) - 0.5);
  }
}

}  // namespace molstep::md::integrators
