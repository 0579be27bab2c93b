// SPDX-License-Identifier: MIT
// Device helpers shared by the pair kernels (pair_cuda.cu: the default kernels;
// pair_variants.cu: the opt-in variants of gpu::Tuning).
#pragma once

#include "molstep/md/cuda/device_state.cuh"

namespace molstep::md::cuda::kernels {

struct EvOut {
  double *e, *w0, *w1, *w2, *w3, *w4, *w5;
};

// One atom's share of the energy and virial: half of each of its pairs (the other half is
// counted by the partner's thread in a full list).
struct AtomEv {
  double e = 0.0, v[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

  __device__ void add_pair(double energy, double fpair, double dx, double dy, double dz) {
    e += 0.5 * energy;
    v[0] += 0.5 * dx * dx * fpair;
    v[1] += 0.5 * dy * dy * fpair;
    v[2] += 0.5 * dz * dz * fpair;
    v[3] += 0.5 * dx * dy * fpair;
    v[4] += 0.5 * dx * dz * fpair;
    v[5] += 0.5 * dy * dz * fpair;
  }
  /// Stores the virial and adds the energy to what is there (EAM's embedding term).
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
