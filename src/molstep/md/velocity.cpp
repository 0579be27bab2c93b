// SPDX-License-Identifier: MIT
#include "molstep/md/velocity.hpp"

#include <array>
#include <cmath>
#include <numeric>

#include "molstep/core/error.hpp"
#include "molstep/core/park_rng.hpp"

namespace molstep::md {

namespace {

constexpr int kWarmup = 100;

using Mat3 = std::array<std::array<double, 3>, 3>;

double total_mass(const System& s) {
  double m = 0.0;
  for (std::size_t i = 0; i < s.atoms.size(); ++i) m += s.mass_of(i);
  return m;
}

void zero_momentum(System& s) {
  auto& a = s.atoms;
  const double mtot = total_mass(s);
  std::array<double, 3> p{0, 0, 0};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double m = s.mass_of(i);
    p[0] += a.vx[i] * m;
    p[1] += a.vy[i] * m;
    p[2] += a.vz[i] * m;
  }
  if (mtot > 0.0)
    for (double& c : p) c /= mtot;
  for (std::size_t i = 0; i < a.size(); ++i) {
    a.vx[i] -= p[0];
    a.vy[i] -= p[1];
    a.vz[i] -= p[2];
  }
}

// Angular velocity from L = I w: explicit inverse when I is well conditioned (as LAMMPS, so the
// angular momentum is zeroed exactly), otherwise zero (a line or a single atom cannot rotate).
std::array<double, 3> omega(const std::array<double, 3>& L, const Mat3& I) {
  const double det = I[0][0] * I[1][1] * I[2][2] + I[0][1] * I[1][2] * I[2][0] + I[0][2] * I[1][0] * I[2][1] -
                     I[0][0] * I[1][2] * I[2][1] - I[0][1] * I[1][0] * I[2][2] - I[2][0] * I[1][1] * I[0][2];
  if (!(det > 1e-6)) return {0.0, 0.0, 0.0};
  Mat3 inv;
  inv[0][0] = I[1][1] * I[2][2] - I[1][2] * I[2][1];
  inv[0][1] = -(I[0][1] * I[2][2] - I[0][2] * I[2][1]);
  inv[0][2] = I[0][1] * I[1][2] - I[0][2] * I[1][1];
  inv[1][0] = -(I[1][0] * I[2][2] - I[1][2] * I[2][0]);
  inv[1][1] = I[0][0] * I[2][2] - I[0][2] * I[2][0];
  inv[1][2] = -(I[0][0] * I[1][2] - I[0][2] * I[1][0]);
  inv[2][0] = I[1][0] * I[2][1] - I[1][1] * I[2][0];
  inv[2][1] = -(I[0][0] * I[2][1] - I[0][1] * I[2][0]);
  inv[2][2] = I[0][0] * I[1][1] - I[0][1] * I[1][0];
  for (auto& row : inv)
    for (double& c : row) c /= det;
  std::array<double, 3> w{};
  for (int r = 0; r < 3; ++r) w[r] = inv[r][0] * L[0] + inv[r][1] * L[1] + inv[r][2] * L[2];
  return w;
}

void zero_rotation(System& s) {
  auto& a = s.atoms;
  const double mtot = total_mass(s);
  std::array<double, 3> cm{0, 0, 0};
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int d = 0; d < 3; ++d) cm[d] += s.unwrapped(i, d) * s.mass_of(i);
  if (mtot > 0.0)
    for (double& c : cm) c /= mtot;
  std::array<double, 3> L{0, 0, 0};
  Mat3 I{};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double m = s.mass_of(i);
    const double dx = s.unwrapped(i, 0) - cm[0], dy = s.unwrapped(i, 1) - cm[1], dz = s.unwrapped(i, 2) - cm[2];
    L[0] += m * (dy * a.vz[i] - dz * a.vy[i]);
    L[1] += m * (dz * a.vx[i] - dx * a.vz[i]);
    L[2] += m * (dx * a.vy[i] - dy * a.vx[i]);
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double m = s.mass_of(i);
    const double dx = s.unwrapped(i, 0) - cm[0], dy = s.unwrapped(i, 1) - cm[1], dz = s.unwrapped(i, 2) - cm[2];
    I[0][0] += m * (dy * dy + dz * dz);
    I[1][1] += m * (dx * dx + dz * dz);
    I[2][2] += m * (dx * dx + dy * dy);
    I[0][1] -= m * dx * dy;
    I[1][2] -= m * dy * dz;
    I[0][2] -= m * dx * dz;
  }
  I[1][0] = I[0][1];
  I[2][1] = I[1][2];
  I[2][0] = I[0][2];
  const auto w = omega(L, I);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double dx = s.unwrapped(i, 0) - cm[0], dy = s.unwrapped(i, 1) - cm[1], dz = s.unwrapped(i, 2) - cm[2];
    a.vx[i] -= w[1] * dz - w[2] * dy;
    a.vy[i] -= w[2] * dx - w[0] * dz;
    a.vz[i] -= w[0] * dy - w[1] * dx;
  }
}

void rescale(System& s, double t_old, double t_new) {
  if (!(t_old > 0.0)) throw Error("cannot scale velocities: the current temperature is zero");
  const double f = std::sqrt(t_new / t_old);
  auto& a = s.atoms;
  for (std::size_t i = 0; i < a.size(); ++i) {
    a.vx[i] *= f;
    a.vy[i] *= f;
    a.vz[i] *= f;
  }
}

void check_masses(const System& s) {
  for (int t = 1; t <= s.ntypes; ++t)
    if (!s.mass_set[static_cast<std::size_t>(t)])
      throw Error("velocity: no mass set for atom type " + std::to_string(t) + " (use the mass command first)");
}

}  // namespace

double twice_kinetic_mvv(const System& s) {
  const auto& a = s.atoms;
  double t = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    t += (a.vx[i] * a.vx[i] + a.vy[i] * a.vy[i] + a.vz[i] * a.vz[i]) * s.mass_of(i);
  return t;
}

double temperature_dof(const System& s) { return 3.0 * static_cast<double>(s.atoms.size()) - 3.0; }

double temperature(const System& s) {
  const double dof = temperature_dof(s);
  if (dof <= 0.0) return 0.0;
  return twice_kinetic_mvv(s) * (s.units.mvv2e / (dof * s.units.boltz));
}

void velocity_create(System& s, const VelocityCreate& o) {
  check_masses(s);
  if (o.seed <= 0) throw Error("velocity: seed must be a positive integer");
  auto& a = s.atoms;
  const auto draw = [&](core::ParkRng& rng, double& vx, double& vy, double& vz) {
    if (o.gaussian) {
      vx = rng.gaussian();
      vy = rng.gaussian();
      vz = rng.gaussian();
    } else {
      vx = rng.uniform() - 0.5;
      vy = rng.uniform() - 0.5;
      vz = rng.uniform() - 0.5;
    }
  };
  const auto assign = [&](std::size_t i, double vx, double vy, double vz) {
    const double f = 1.0 / std::sqrt(s.mass_of(i));
    a.vx[i] = vx * f;
    a.vy[i] = vy * f;
    a.vz[i] = vz * f;
  };
  if (o.loop == VelocityCreate::Loop::all) {
    // One stream over ids 1..N, as LAMMPS, which also requires consecutive ids.
    if (a.max_id() != static_cast<std::int64_t>(a.size()))
      throw Error("velocity: loop all needs consecutive atom ids 1..N (use loop geom or loop local)");
    std::vector<std::size_t> index_of(static_cast<std::size_t>(a.max_id()) + 1, a.size());
    for (std::size_t i = 0; i < a.size(); ++i) index_of[static_cast<std::size_t>(a.id[i])] = i;
    core::ParkRng rng(o.seed);
    for (std::size_t id = 1; id < index_of.size(); ++id) {
      double vx, vy, vz;
      draw(rng, vx, vy, vz);
      if (index_of[id] < a.size()) assign(index_of[id], vx, vy, vz);
    }
  } else if (o.loop == VelocityCreate::Loop::local) {
    core::ParkRng rng(o.seed);  // seed + rank, and molstep runs the velocity command on rank 0
    for (int k = 0; k < kWarmup; ++k) rng.uniform();
    for (std::size_t i = 0; i < a.size(); ++i) {
      double vx, vy, vz;
      draw(rng, vx, vy, vz);
      assign(i, vx, vy, vz);
    }
  } else {
    core::ParkRng rng(o.seed);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double coord[3] = {a.x[i], a.y[i], a.z[i]};
      rng.reset(o.seed, coord);
      double vx, vy, vz;
      draw(rng, vx, vy, vz);
      assign(i, vx, vy, vz);
    }
  }
  if (o.zero_momentum) zero_momentum(s);
  if (o.zero_rotation) zero_rotation(s);
  rescale(s, temperature(s), o.temperature);
}

void velocity_scale(System& s, double t) {
  check_masses(s);
  rescale(s, temperature(s), t);
}

}  // namespace molstep::md
