// SPDX-License-Identifier: MIT
// Device helpers shared by the pair kernels (pair_cuda.cu: the default kernels;
// pair_variants.cu: the opt-in variants of gpu::Tuning).
#pragma once

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/potentials/lj.hpp"

namespace molstep::md::cuda::kernels {

struct EvOut {
  double *e, *w0, *w1, *w2, *w3, *w4, *w5;
};

// An atom's energy and virial from its listed pairs: half of each pair with a full list (the
// partner's thread counts the other half), all of it with a half list (the pair is listed once).
template <bool HALF>
struct PairEv {
  static constexpr double w = HALF ? 1.0 : 0.5;
  double e = 0.0, v[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

  __device__ void add_pair(double energy, double fpair, double dx, double dy, double dz) {
    e += w * energy;
    v[0] += w * dx * dx * fpair;
    v[1] += w * dy * dy * fpair;
    v[2] += w * dz * dz * fpair;
    v[3] += w * dx * dy * fpair;
    v[4] += w * dx * dz * fpair;
    v[5] += w * dy * dz * fpair;
  }
  /// Stores the virial and adds the energy to what is there (EAM's embedding term). Only the
  /// atom's own thread writes these: no atomics needed even with a half list.
  __device__ void store(const EvOut& out, std::size_t i) const {
    out.e[i] += e;
    out.w0[i] = v[0];
    out.w1[i] = v[1];
    out.w2[i] = v[2];
    out.w3[i] = v[3];
    out.w4[i] = v[4];
    out.w5[i] = v[5];
  }
};
using AtomEv = PairEv<false>;

// ---- Lennard-Jones ---------------------------------------------------------------------------

// Writes f_i and applies the fused half kick (not while the run is halted).
__device__ inline void finish_atom(std::size_t i, int ti, double ax, double ay, double az, double* fx, double* fy,
                                   double* fz, const Kick& kick) {
  fx[i] = ax;
  fy[i] = ay;
  fz[i] = az;
  if (kick.on && *kick.halted == 0) {
    const double dtfm = kick.half_dt / kick.mass[ti];
    kick.vx[i] += dtfm * ax;
    kick.vy[i] += dtfm * ay;
    kick.vz[i] += dtfm * az;
  }
}

/// LJ fpair (force on i = d * fpair, d = x_i - x_j) of a pair inside the cutoff at squared
/// distance rsq, and with EV its energy (less the shift). Shared by the default and the variant
/// kernels.
template <bool EV, class R>
__device__ inline R lj_pair(const potentials::LjTerms& p, R rsq, R& energy) {
  const R r2inv = R(1) / rsq;
  const R r6inv = r2inv * r2inv * r2inv;
  if (EV) energy = r6inv * (static_cast<R>(p.lj3) * r6inv - static_cast<R>(p.lj4)) - static_cast<R>(p.offset);
  return r6inv * (static_cast<R>(p.lj1) * r6inv - static_cast<R>(p.lj2)) * r2inv;
}

// ---- EAM -------------------------------------------------------------------------------------

// All cubic tables of a style in one buffer: table t starts at offset[t] (7 doubles per point).
struct Tables {
  const double* c;
  const int* offset;
  const int* type2frho;
  const int* type2rhor;
  const int* type2z2r;
  int stride, nr, nrho;
  double rdr, rdrho, rhomax, cutsq;
  bool pair_is_phi;
};

__device__ inline const double* coeffs(const Tables& t, int table, int m) { return t.c + t.offset[table] + 7 * m; }

template <class R>
__device__ inline void locate(const Tables& t, R r, int& m, R& p) {
  p = r * static_cast<R>(t.rdr) + R(1);
  m = static_cast<int>(p);
  m = m < t.nr - 1 ? m : t.nr - 1;
  p -= static_cast<R>(m);
  p = p < R(1) ? p : R(1);
}

/// F'(rho) of an atom of type ti, returned; with EV its F(rho) into e[i] (extended linearly past
/// rhomax, as LAMMPS). Shared by the default and the variant density kernels.
template <bool EV>
__device__ inline double embedding(const Tables& t, int ti, double rho, double* e, std::size_t i) {
  double p = rho * t.rdrho + 1.0;
  int m = static_cast<int>(p);
  m = m < 1 ? 1 : (m > t.nrho - 1 ? t.nrho - 1 : m);
  p -= m;
  p = p < 1.0 ? p : 1.0;
  const double* c = coeffs(t, t.type2frho[ti], m);
  const double d = (c[0] * p + c[1]) * p + c[2];
  if constexpr (EV) {
    double f = ((c[3] * p + c[4]) * p + c[5]) * p + c[6];
    if (rho > t.rhomax) f += d * (rho - t.rhomax);
    e[i] = f;
  }
  return d;
}

template <class R>
__device__ inline R spline_value(const double* c, R p) {
  return ((static_cast<R>(c[3]) * p + static_cast<R>(c[4])) * p + static_cast<R>(c[5])) * p + static_cast<R>(c[6]);
}

template <class R>
__device__ inline R spline_slope(const double* c, R p) {
  return (static_cast<R>(c[0]) * p + static_cast<R>(c[1])) * p + static_cast<R>(c[2]);
}

/// EAM pair energy phi and fpair (force on i = d * fpair, d = x_i - x_j) of atoms of types ti and
/// tj at distance r, with embedding derivatives fpi and fpj. Symmetric in i and j (z2r is one table
/// for both orders), so the partner's force is -d * fpair. Shared by the default and the variant
/// force kernels.
template <class R>
__device__ inline void eam_pair(const Tables& t, R r, int ti, int tj, double fpi, double fpj, double& phi,
                                double& fpair) {
  int m;
  R p;
  locate(t, r, m, p);
  const int ri = t.type2rhor[ti * t.stride + tj], rj = t.type2rhor[tj * t.stride + ti];
  const double* cz = coeffs(t, t.type2z2r[ti * t.stride + tj], m);
  const R rhoip = spline_slope(coeffs(t, ri, m), p);
  // One element (or two sharing a density function): one lookup serves both derivatives.
  const R rhojp = rj != ri ? spline_slope(coeffs(t, rj, m), p) : rhoip;
  const R z2p = spline_slope(cz, p);
  const R z2 = spline_value(cz, p);
  const R recip = R(1) / r;
  const R phi_r = t.pair_is_phi ? z2 : z2 * recip;
  const R phip = t.pair_is_phi ? z2p : z2p * recip - phi_r * recip;
  phi = static_cast<double>(phi_r);
  fpair = -(fpi * static_cast<double>(rhojp) + fpj * static_cast<double>(rhoip) + static_cast<double>(phip)) *
          static_cast<double>(recip);
}

}  // namespace molstep::md::cuda::kernels
