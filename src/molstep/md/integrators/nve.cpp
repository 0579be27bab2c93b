// SPDX-License-Identifier: MIT
#include "molstep/core/parallel.hpp"
#include "molstep/md/integrators/nve.hpp"

namespace molstep::md::integrators {

void half_kick(System& s, double half_dt) {
  auto& a = s.atoms;
  const std::size_t n = a.size();
#pragma omp parallel for schedule(static) if (n >= core::kParallelMinAtoms)
  for (std::size_t i = 0; i < n; ++i) {
    const double dtfm = half_dt / s.mass_of(i);
    a.vx[i] += dtfm * a.fx[i];
    a.vy[i] += dtfm * a.fy[i];
    a.vz[i] += dtfm * a.fz[i];
  }
}

void drift(System& s, double dt) {
  auto& a = s.atoms;
  const std::size_t n = a.size();
#pragma omp parallel for schedule(static) if (n >= core::kParallelMinAtoms)
  for (std::size_t i = 0; i < n; ++i) {
    a.x[i] += dt * a.vx[i];
    a.y[i] += dt * a.vy[i];
    a.z[i] += dt * a.vz[i];
  }
}

void FixNve::setup(System&, const RunInfo& run) { dt_ = run.dt; }

void FixNve::initial_integrate(System& s, long) {
  half_kick(s, 0.5 * dt_ * s.units.ftm2v);
  drift(s, dt_);
}

void FixNve::final_integrate(System& s, long) { half_kick(s, 0.5 * dt_ * s.units.ftm2v); }

}  // namespace molstep::md::integrators
