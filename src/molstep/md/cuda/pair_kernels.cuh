// SPDX-License-Identifier: MIT
// Device helpers shared by the pair kernels (pair_cuda.cu: the default kernels;
// pair_variants.cu: the opt-in variants of gpu::Tuning).
#pragma once

#include <type_traits>

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

/// Rounds of list entries to read ahead of their use (ListReader).
constexpr int kListAhead = 2;

/// Atom i's neighbour-list entries k = first, first + step, ... (column-major list: entry k at
/// index[k * stride + i]), each read kListAhead rounds before it is used: the list streams from
/// memory, and the partner's record cannot be fetched before its index arrives, so a load issued
/// early overlaps the rounds in between. next() must be called once per round (past the end it
/// returns 0 and reads nothing).
struct ListReader {
  const int* __restrict__ index;
  std::size_t stride, i;
  int cnt, step, ahead;
  int buf[kListAhead];

  __device__ ListReader(const int* __restrict__ index_, std::size_t stride_, std::size_t i_, int cnt_, int first,
                        int step_)
      : index(index_), stride(stride_), i(i_), cnt(cnt_), step(step_), ahead(first + kListAhead * step_) {
#pragma unroll
    for (int d = 0; d < kListAhead; ++d) buf[d] = load(first + d * step);
  }
  __device__ int load(int k) const { return k < cnt ? index[static_cast<std::size_t>(k) * stride + i] : 0; }
  __device__ int next() {
    const int j = buf[0];
#pragma unroll
    for (int d = 0; d + 1 < kListAhead; ++d) buf[d] = buf[d + 1];
    buf[kListAhead - 1] = load(ahead);
    ahead += step;
    return j;
  }
};

// ---- Lennard-Jones ---------------------------------------------------------------------------

// Writes f_i and applies the fused half kick (not while the run is halted); with kick.drift.on
// also the next step's half kick and drift of atom i (at x, y, z) and their displacement checks
// (Drift), in the arithmetic of fix nve's initial_integrate.
__device__ inline void finish_atom(std::size_t i, int ti, double ax, double ay, double az, double* fx, double* fy,
                                   double* fz, const Kick& kick, double x, double y, double z) {
  fx[i] = ax;
  fy[i] = ay;
  fz[i] = az;
  if (kick.on && *kick.halted == 0) {
    const double dtfm = kick.half_dt / kick.mass[ti];
    double v0 = kicked(kick.vx[i], dtfm, ax), v1 = kicked(kick.vy[i], dtfm, ay), v2 = kicked(kick.vz[i], dtfm, az);
    const Drift& d = kick.drift;
    if (d.on) {
      v0 = kicked(v0, dtfm, ax);
      v1 = kicked(v1, dtfm, ay);
      v2 = kicked(v2, dtfm, az);
      x = drifted(x, d.dt, v0);
      y = drifted(y, d.dt, v1);
      z = drifted(z, d.dt, v2);
      d.pos[i] = Packed4{x, y, z, static_cast<double>(ti)};
      if (d.list_hold && moved_beyond(x, y, z, d.list_hold[i], d.list_trigger)) *d.moved = 1;
      if (d.prune_hold && moved_beyond(x, y, z, d.prune_hold[i], d.prune_trigger)) *d.prune_due = 1;
    }
    kick.vx[i] = v0;
    kick.vy[i] = v1;
    kick.vz[i] = v2;
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

// The embedding tables F(rho) in one buffer: table t starts at offset[t] (LAMMPS's 7 doubles per
// point), type2frho[ti] the table of type ti (with its offset added); the r-tables' grid.
struct Tables {
  const double* c;
  const int* offset;
  const int* type2frho;
  int nr, nrho;
  double rdr, rdrho, rhomax, cutsq;
  bool pair_is_phi;
};

__device__ inline const double* coeffs(const Tables& t, int table, int m) { return t.c + t.offset[table] + 7 * m; }

/// The distance r = sqrt(rsq) and 1/r, from one reciprocal square root (rsqrt, documented by CUDA
/// as within 1 ulp), in place of a square root and a division.
template <class R>
__device__ inline void distance(R rsq, R& r, R& recip) {
  if constexpr (std::is_same_v<R, float>)
    recip = rsqrtf(rsq);
  else
    recip = rsqrt(rsq);
  r = rsq * recip;
}

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

// The EAM kernels read the r-tables as packed records, one per ordered pair of types (ti, tj) and
// table point m, holding only value coefficients (c3..c6 in LAMMPS's numbering); the slopes are
// formed from them, ((3 c3 p + 2 c4) p + c5) / dr, which equals LAMMPS's stored slope
// coefficients to rounding:
//  - density record (kDensityRecord doubles): rho_ji c3..c6, the density function j contributes
//    to i (rhor table type2rhor[tj][ti]);
//  - force record (kForceRecord doubles): rho_ij c3..c5, z2r c3..c6, a pad, then rho_ji c3..c5
//    and a pad (this second part read only where rho_ij and rho_ji differ). (Records of 64 bytes
//    for one element, without the second part, were measured slower: EAM 2M 7.4e8 against 8.3e8
//    on the H100, bench/RESULTS.md run 11.)
// A pair's lookup is then two (density) and four (force, one element) 16-byte loads. On the H100
// these kernels are bound by L1 wavefronts: a warp's gather of 32 scattered table records costs
// one wavefront per distinct 128-byte line, about 19 per load (bench/RESULTS.md, run 10), so the
// number of loads is what counts. (Copying these whole records into shared memory measured 4-6%
// slower, from the lower occupancy; a window of one element's points from 0.4 of the cutoff,
// laid out array by array, is what the force pass reads by default: EamWindow.)
constexpr int kDensityRecord = 4;
constexpr int kForceRecord = 12;

struct EamPacked {
  const double* density;  ///< record (q, m) at density + (q * points + m) * kDensityRecord
  const double* force;    ///< record (q, m) at force + (q * points + m) * kForceRecord
  int ntypes, points;     ///< q = (ti - 1) * ntypes + (tj - 1); points: records per pair (the tables' 0..nr)
  bool one_type;          ///< a single atom type: no type lookups
  bool symmetric;         ///< rho_ij == rho_ji for every pair of types (one density function per element)
};

/// The type pair q of atoms of types ti and tj (types from 1).
__device__ inline int type_pair(const EamPacked& k, int ti, int tj) {
  return k.one_type ? 0 : (ti - 1) * k.ntypes + (tj - 1);
}

// d/dp of ((c3 p + c4) p + c5) p + c6.
template <class R>
__device__ inline R slope(R c3, R c4, R c5, R p) {
  return (R(3) * c3 * p + R(2) * c4) * p + c5;
}

// ((c3 p + c4) p + c5) p + c6 from the coefficient pairs (c3, c4) and (c5, c6).
template <class R>
__device__ inline R cubic(const double2& c34, const double2& c56, R p) {
  return ((static_cast<R>(c34.x) * p + static_cast<R>(c34.y)) * p + static_cast<R>(c56.x)) * p +
         static_cast<R>(c56.y);
}

/// The density that atom j contributes to atom i for type pair q = (ti, tj) at table point m,
/// fraction p (from locate()).
template <class R>
__device__ inline R density_value(const EamPacked& k, int q, int m, R p) {
  const auto* rec = reinterpret_cast<const double2*>(k.density + (static_cast<std::size_t>(q) * k.points + m) *
                                                                     kDensityRecord);
  return cubic(rec[0], rec[1], p);
}

/// One element's r-tables from table point m0 on (the points a pair closer than a fraction of the
/// cutoff never reaches are left out), laid out for shared memory as arrays of 16-byte entries, so
/// that the entries of different points fall in different banks: the EAM kernels copy the window
/// into each block's shared memory (gpu::Tuning::tables) and read a pair's coefficients
/// there, reading the packed records from global memory only below m0. A warp's gather of 32
/// scattered 16-byte entries in shared memory costs a wavefront per quarter warp and bank
/// conflict (about 9 per load), against one per distinct 128-byte line from L1 (about 19).
struct EamWindow {
  /// Doubles per point: density [rho_ji c3 c4] [c5 c6]; force [rho c3 c4] [rho c5, z2 c3]
  /// [z2 c4 c5] and z2 c6 (one element: rho_ij = rho_ji).
  static constexpr int kDensityDoubles = 4, kForceDoubles = 7;
  const double* density = nullptr;  ///< kDensityDoubles * points doubles, array by array
  const double* force = nullptr;    ///< kForceDoubles * points doubles, array by array
  int m0 = 0, points = 0;           ///< the window's first point and its length (even; 0: no window)
  [[nodiscard]] __host__ __device__ std::size_t density_bytes() const {
    return sizeof(double) * kDensityDoubles * static_cast<std::size_t>(points);
  }
  [[nodiscard]] __host__ __device__ std::size_t force_bytes() const {
    return sizeof(double) * kForceDoubles * static_cast<std::size_t>(points);
  }
};

/// Copies `bytes` (a multiple of 16) from global memory to the block's shared memory `to`, then
/// waits for the whole block.
__device__ inline void fill_shared(double2* to, const double* from, std::size_t bytes) {
  const auto* src = reinterpret_cast<const double2*>(from);
  for (std::size_t k = threadIdx.x; k < bytes / sizeof(double2); k += blockDim.x) to[k] = src[k];
  __syncthreads();
}

/// density_value for one element from the window in shared memory `s` (EamWindow), or from the
/// global records below its first point.
template <class R>
__device__ inline R density_value(const EamPacked& k, const EamWindow& w, const double2* s, int m, R p) {
  if (m < w.m0) return density_value(k, 0, m, p);
  const int at = m - w.m0;
  return cubic(s[at], s[w.points + at], p);
}

// The coefficients a pair's force reads at one table point: [rho_ij c3 c4] [rho_ij c5, z2 c3]
// [z2 c4 c5] z2 c6, and the slope of rho_ji.
struct ForceCoeffs {
  double2 a0, a1, a2;
  double z6;
};

// The end of eam_pair, from the coefficients at the pair's point m, fraction p, at distance r
// (recip = 1/r); rhojp_given: the slope of rho_ji there times 1/dr, used unless the element's
// density is symmetric.
template <class R>
__device__ inline void eam_pair_terms(const Tables& t, const ForceCoeffs& c, R r, R recip, R p, R rhojp_given,
                                      bool symmetric, double fpi, double fpj, double& phi, double& fpair) {
  const R rdr = static_cast<R>(t.rdr);
  const R rhoip = slope(static_cast<R>(c.a0.x), static_cast<R>(c.a0.y), static_cast<R>(c.a1.x), p) * rdr;
  const R rhojp = symmetric ? rhoip : rhojp_given;
  const R z3 = static_cast<R>(c.a1.y), z4 = static_cast<R>(c.a2.x), z5 = static_cast<R>(c.a2.y);
  const R z2p = slope(z3, z4, z5, p) * rdr;
  const R z2 = ((z3 * p + z4) * p + z5) * p + static_cast<R>(c.z6);
  const R phi_r = t.pair_is_phi ? z2 : z2 * recip;
  const R phip = t.pair_is_phi ? z2p : z2p * recip - phi_r * recip;
  phi = static_cast<double>(phi_r);
  fpair = -(fpi * static_cast<double>(rhojp) + fpj * static_cast<double>(rhoip) + static_cast<double>(phip)) *
          static_cast<double>(recip);
}

/// EAM pair energy phi and fpair (force on i = d * fpair, d = x_i - x_j) of a pair of type pair
/// q = (ti, tj) at squared distance rsq, with embedding derivatives fpi and fpj. Symmetric in i
/// and j (z2r is one table for both orders), so the partner's force is -d * fpair.
template <class R>
__device__ inline void eam_pair(const Tables& t, const EamPacked& k, int q, R rsq, double fpi, double fpj,
                                double& phi, double& fpair) {
  R r, recip, p;
  distance(rsq, r, recip);
  int m;
  locate(t, r, m, p);
  const auto* rec =
      reinterpret_cast<const double2*>(k.force + (static_cast<std::size_t>(q) * k.points + m) * kForceRecord);
  // rec: [rho_ij c3 c4] [c5 | z2 c3] [c4 c5] [c6 pad] [rho_ji c3 c4] [c5 pad]
  const ForceCoeffs c{rec[0], rec[1], rec[2], rec[3].x};
  R rhojp = R(0);
  if (!k.symmetric) {
    const double2 b0 = rec[4], b1 = rec[5];
    rhojp = slope(static_cast<R>(b0.x), static_cast<R>(b0.y), static_cast<R>(b1.x), p) * static_cast<R>(t.rdr);
  }
  eam_pair_terms(t, c, r, recip, p, rhojp, k.symmetric, fpi, fpj, phi, fpair);
}

/// eam_pair for one element from the window in shared memory `s` (EamWindow), or from the global
/// records below its first point.
template <class R>
__device__ inline void eam_pair(const Tables& t, const EamPacked& k, const EamWindow& w, const double2* s, R rsq,
                                double fpi, double fpj, double& phi, double& fpair) {
  R r, recip, p;
  distance(rsq, r, recip);
  int m;
  locate(t, r, m, p);
  if (m < w.m0) {
    eam_pair(t, k, 0, rsq, fpi, fpj, phi, fpair);
    return;
  }
  const int at = m - w.m0, n = w.points;
  const auto* z6 = reinterpret_cast<const double*>(s + 3 * n);
  const ForceCoeffs c{s[at], s[n + at], s[2 * n + at], z6[at]};
  eam_pair_terms(t, c, r, recip, p, R(0), true, fpi, fpj, phi, fpair);
}

}  // namespace molstep::md::cuda::kernels
