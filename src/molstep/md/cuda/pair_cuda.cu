// SPDX-License-Identifier: MIT
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/pair_cuda.cuh"
#include "molstep/md/cuda/pair_kernels.cuh"
#include "molstep/md/cuda/pair_variants.cuh"
#include "molstep/md/potentials/eam.hpp"
#include "molstep/md/potentials/lj.hpp"

namespace molstep::md::cuda {

namespace {

using kernels::AtomEv;
using kernels::EvOut;
using kernels::finish_atom;
using kernels::locate;
using kernels::Tables;

// ---- Lennard-Jones ---------------------------------------------------------------------------

class LjCuda final : public PairCuda {
 public:
  LjCuda(const potentials::PairLjCut& lj, int ntypes, bool mixed)
      : stride_(ntypes + 1), mixed_(mixed), tpa_(gpu::tuning().threads_per_atom) {
    const auto eval = lj.evaluator();
    std::vector<potentials::LjTerms> t(eval.terms, eval.terms + stride_ * stride_);
    terms_.upload(t);
  }
  // The pair arithmetic is double, or float for --precision mixed (differences of positions,
  // accumulation and integration stay double). One kernel template (pair_variants.cu) serves
  // the default, full list with one thread per atom, and the variants.
  void compute(DeviceAtoms& a, const DeviceBox& box, const DeviceList& l, bool ev, const Kick& kick) override {
    if (ev) ensure_ev(a.n);
    const EvOut out{e_.data(), w_[0].data(), w_[1].data(), w_[2].data(), w_[3].data(), w_[4].data(), w_[5].data()};
    variants::lj_forces(
        {a.n, box, a.pos.data(), terms_.data(), stride_, &l, a.fx.data(), a.fy.data(), a.fz.data(), out, kick}, ev,
        mixed_, tpa_);
  }

 private:
  int stride_;
  bool mixed_;
  int tpa_;  ///< threads per atom (MOLSTEP_CUDA_TPA)
  gpu::DeviceArray<potentials::LjTerms> terms_;
};

// ---- EAM -------------------------------------------------------------------------------------

// The default EAM kernels read the spline tables as packed records, one per ordered pair of
// types (ti, tj) and table point m, holding only value coefficients (c3..c6 in LAMMPS's
// numbering); the slopes are formed from them, ((3 c3 p + 2 c4) p + c5) / dr, which equals
// LAMMPS's stored slope coefficients to rounding:
//  - density record (4 doubles): rho_ji c3..c6, the density function j contributes to i
//    (rhor table type2rhor[tj][ti]);
//  - force record (kForceRecord doubles): rho_ij c3..c5, z2r c3..c6, a pad, then rho_ji c3..c5
//    and a pad (this second part read only where rho_ij and rho_ji differ).
// A pair's lookup is then two (density) and four (force, one element) 16-byte loads. On the H100
// these kernels are bound by L1 wavefronts: a warp's gather of 32 scattered table records costs
// one wavefront per distinct 128-byte line, about 19 per load (bench/RESULTS.md, run 10), so the
// number of loads is what counts. (Copying the records into shared memory was measured too:
// 4-6% slower, from the lower occupancy.)
constexpr int kDensityRecord = 4;
constexpr int kForceRecord = 12;

struct EamPacked {
  const double* density;  ///< record (p, m) at density + (p * points + m) * kDensityRecord
  const double* force;    ///< record (p, m) at force + (p * points + m) * kForceRecord
  int ntypes, points;     ///< p = (ti - 1) * ntypes + (tj - 1); points: records per pair (the tables' 0..nr)
  bool one_type;          ///< a single atom type: no type lookups, fp travels with the position
  bool symmetric;         ///< rho_ij == rho_ji for every pair of types (one density function per element)
};

// d/dp of ((c3 p + c4) p + c5) p + c6.
template <class R>
__device__ inline R slope(R c3, R c4, R c5, R p) {
  return (R(3) * c3 * p + R(2) * c4) * p + c5;
}

__device__ inline int type_pair(const EamPacked& t, int ti, int tj) {
  return t.one_type ? 0 : (ti - 1) * t.ntypes + (tj - 1);
}

// Density pass, one thread per atom. Also compacts each atom's list to the
// neighbours inside the cutoff (inner_index/inner_count), so the force pass skips the ~40% of
// listed pairs in the skin without a divergent branch, and writes pf[i] = (x, y, z, F'(rho_i)),
// so the force pass reads a partner's position and embedding derivative in one 32-byte load.
// The density sum and the embedding function stay double in either precision.
template <bool EV, class R>
__global__ void eam_density_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos, Tables t,
                                   EamPacked pk, const int* __restrict__ index, const int* __restrict__ count,
                                   std::size_t lstride, int* __restrict__ inner_index, int* __restrict__ inner_count,
                                   Packed4* __restrict__ pf, double* e) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 pi = pos[i];
  const double xi = pi.x, yi = pi.y, zi = pi.z;
  const int ti = pk.one_type ? 1 : static_cast<int>(pi.w);
  double rho = 0.0;
  const int cnt = count[i];
  int inside = 0;
  for (int k = 0; k < cnt; ++k) {
    const int j = index[static_cast<std::size_t>(k) * lstride + i];
    const Packed4 pj = pos[j];
    const double3 d = separation(xi, yi, zi, pj, box);
    const double dx = d.x, dy = d.y, dz = d.z;
    const double rsq = dx * dx + dy * dy + dz * dz;
    if (rsq >= t.cutsq) continue;
    inner_index[static_cast<std::size_t>(inside++) * lstride + i] = j;
    int m;
    R p;
    locate(t, static_cast<R>(sqrt(rsq)), m, p);
    const int q = type_pair(pk, ti, pk.one_type ? 1 : static_cast<int>(pj.w));
    const auto* rec = reinterpret_cast<const double2*>(
        pk.density + (static_cast<std::size_t>(q) * pk.points + m) * kDensityRecord);
    const double2 c34 = rec[0], c56 = rec[1];
    rho += static_cast<double>(((static_cast<R>(c34.x) * p + static_cast<R>(c34.y)) * p + static_cast<R>(c56.x)) *
                                   p +
                               static_cast<R>(c56.y));
  }
  inner_count[i] = inside;
  pf[i] = Packed4{xi, yi, zi, kernels::embedding<EV>(t, ti, rho, e, i)};
}

// Force pass over the inner list, one thread per atom; the same arithmetic as kernels::eam_pair
// (which the variants use) on the packed records.
template <bool EV, class R>
__global__ void eam_force_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos,
                                 const Packed4* __restrict__ pf, Tables t, EamPacked pk, const int* __restrict__ index,
                                 const int* __restrict__ count, std::size_t lstride, double* fx, double* fy,
                                 double* fz, EvOut ev, Kick kick) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 pi = pf[i];
  const double xi = pi.x, yi = pi.y, zi = pi.z, fpi = pi.w;
  const int ti = pk.one_type ? 1 : static_cast<int>(pos[i].w);
  double ax = 0.0, ay = 0.0, az = 0.0;
  AtomEv acc;
  const int cnt = count[i];  // the inner count: every entry lies inside the cutoff
  for (int k = 0; k < cnt; ++k) {
    const int j = index[static_cast<std::size_t>(k) * lstride + i];
    const Packed4 pj = pf[j];
    const double3 d = separation(xi, yi, zi, pj, box);
    const double dx = d.x, dy = d.y, dz = d.z;
    const double rsq = dx * dx + dy * dy + dz * dz;
    const R r = static_cast<R>(sqrt(rsq));
    int m;
    R p;
    locate(t, r, m, p);
    const int q = type_pair(pk, ti, pk.one_type ? 1 : static_cast<int>(pos[j].w));
    const auto* rec =
        reinterpret_cast<const double2*>(pk.force + (static_cast<std::size_t>(q) * pk.points + m) * kForceRecord);
    // rec: [rho_ij c3 c4] [c5 | z2 c3] [c4 c5] [c6 pad] [rho_ji c3 c4] [c5 pad]
    const double2 a0 = rec[0], a1 = rec[1], a2 = rec[2], a3 = rec[3];
    const R rdr = static_cast<R>(t.rdr);
    const R rhoip = slope(static_cast<R>(a0.x), static_cast<R>(a0.y), static_cast<R>(a1.x), p) * rdr;
    R rhojp = rhoip;
    if (!pk.symmetric) {
      const double2 b0 = rec[4], b1 = rec[5];
      rhojp = slope(static_cast<R>(b0.x), static_cast<R>(b0.y), static_cast<R>(b1.x), p) * rdr;
    }
    const R z3 = static_cast<R>(a1.y), z4 = static_cast<R>(a2.x), z5 = static_cast<R>(a2.y);
    const R z2p = slope(z3, z4, z5, p) * rdr;
    const R z2 = ((z3 * p + z4) * p + z5) * p + static_cast<R>(a3.x);
    const R recip = R(1) / r;
    const R phi_r = t.pair_is_phi ? z2 : z2 * recip;
    const R phip = t.pair_is_phi ? z2p : z2p * recip - phi_r * recip;
    const double fpair = -(fpi * static_cast<double>(rhojp) + pj.w * static_cast<double>(rhoip) +
                           static_cast<double>(phip)) *
                         static_cast<double>(recip);
    ax += dx * fpair;
    ay += dy * fpair;
    az += dz * fpair;
    if (EV) acc.add_pair(static_cast<double>(phi_r), fpair, dx, dy, dz);
  }
  finish_atom(i, ti, ax, ay, az, fx, fy, fz, kick);
  if (EV) acc.store(ev, i);
}

class EamCuda final : public PairCuda {
 public:
  EamCuda(const potentials::EamTables& T, int ntypes, bool mixed)
      : mixed_(mixed), tpa_(gpu::tuning().threads_per_atom) {
    std::vector<double> c;
    std::vector<int> offset;
    const auto add = [&](const std::vector<potentials::CubicTable>& tables) {
      const int first = static_cast<int>(offset.size());
      for (const auto& tab : tables) {
        offset.push_back(static_cast<int>(c.size()));
        for (const auto& k : tab.c) c.insert(c.end(), k.begin(), k.end());
      }
      return first;
    };
    const int f0 = add(T.frho), r0 = add(T.rhor), z0 = add(T.z2r);
    std::vector<int> t2f(T.type2frho), t2r(T.type2rhor), t2z(T.type2z2r);
    for (int& v : t2f) v += f0;
    for (int& v : t2r) v += r0;
    for (int& v : t2z) v += z0;
    c_.upload(c);
    offset_.upload(offset);
    t2f_.upload(t2f);
    t2r_.upload(t2r);
    t2z_.upload(t2z);
    t_ = Tables{c_.data(), offset_.data(), t2f_.data(), t2r_.data(), t2z_.data(), T.stride, T.nr, T.nrho,
                T.rdr, T.rdrho, T.rhomax, T.cutmax * T.cutmax, T.pair_is_phi};
    pack(T, ntypes);
  }
  void compute(DeviceAtoms& a, const DeviceBox& box, const DeviceList& l, bool ev, const Kick& kick) override {
    inner_index_.resize(l.index.size());
    inner_count_.resize(a.n);
    if (ev) ensure_ev(a.n);
    const EvOut out{e_.data(), w_[0].data(), w_[1].data(), w_[2].data(), w_[3].data(), w_[4].data(), w_[5].data()};
    if (l.half || tpa_ != 1) {  // MOLSTEP_CUDA_LIST=half or MOLSTEP_CUDA_TPA: pair_variants.cu
      fp_.resize(a.n);
      if (l.half) rho_.resize(a.n);
      variants::eam_forces({a.n, box, a.pos.data(), t_, &l, inner_index_.data(), inner_count_.data(), rho_.data(),
                            fp_.data(), a.fx.data(), a.fy.data(), a.fz.data(), out, kick},
                           ev, mixed_, tpa_);
      return;
    }
    pf_.resize(a.n);
    const auto launch = [&](auto density, auto force) {
      gpu::launch(a.n, density, a.n, box, a.pos.data(), t_, pk_, l.index.data(), l.count.data(), l.stride,
                  inner_index_.data(), inner_count_.data(), pf_.data(), ev ? e_.data() : nullptr);
      gpu::launch(a.n, force, a.n, box, a.pos.data(), pf_.data(), t_, pk_, inner_index_.data(), inner_count_.data(),
                  l.stride, a.fx.data(), a.fy.data(), a.fz.data(), out, kick);
    };
    if (mixed_)
      ev ? launch(eam_density_kernel<true, float>, eam_force_kernel<true, float>)
         : launch(eam_density_kernel<false, float>, eam_force_kernel<false, float>);
    else
      ev ? launch(eam_density_kernel<true, double>, eam_force_kernel<true, double>)
         : launch(eam_density_kernel<false, double>, eam_force_kernel<false, double>);
    MOLSTEP_CUDA_CHECK(cudaGetLastError());
  }
  [[nodiscard]] std::size_t bytes() const override {
    return PairCuda::bytes() + c_.bytes() + fp_.bytes() + offset_.bytes() + t2f_.bytes() + t2r_.bytes() +
           t2z_.bytes() + inner_index_.bytes() + inner_count_.bytes() + rho_.bytes() + records_.bytes() +
           pf_.bytes();
  }

 private:
  // The packed records (see EamPacked) of every ordered pair of types.
  void pack(const potentials::EamTables& T, int ntypes) {
    const std::size_t points = T.rhor.front().c.size();  // the tables' points 0..nr (0 unused, as LAMMPS)
    for (const auto* tables : {&T.rhor, &T.z2r})
      for (const auto& tab : *tables)
        if (tab.c.size() != points) throw Error("EAM tables of different lengths (internal error)");
    const auto pairs = static_cast<std::size_t>(ntypes) * static_cast<std::size_t>(ntypes);
    const std::size_t dsize = pairs * points * kDensityRecord, fsize = pairs * points * kForceRecord;
    std::vector<double> records(dsize + fsize, 0.0);
    bool symmetric = true;
    for (int ti = 1; ti <= ntypes; ++ti)
      for (int tj = 1; tj <= ntypes; ++tj) {
        const auto q = static_cast<std::size_t>((ti - 1) * ntypes + (tj - 1));
        const int ij = T.type2rhor[ti * T.stride + tj], ji = T.type2rhor[tj * T.stride + ti];
        symmetric = symmetric && ij == ji;
        const auto& rij = T.rhor[static_cast<std::size_t>(ij)].c;
        const auto& rji = T.rhor[static_cast<std::size_t>(ji)].c;
        const auto& z2 = T.z2r[static_cast<std::size_t>(T.type2z2r[ti * T.stride + tj])].c;
        for (std::size_t m = 0; m < points; ++m) {
          double* d = records.data() + (q * points + m) * kDensityRecord;
          double* f = records.data() + dsize + (q * points + m) * kForceRecord;
          for (int k = 0; k < 4; ++k) d[k] = rji[m][3 + k];
          for (int k = 0; k < 3; ++k) {
            f[k] = rij[m][3 + k];
            f[8 + k] = rji[m][3 + k];
          }
          for (int k = 0; k < 4; ++k) f[3 + k] = z2[m][3 + k];
        }
      }
    records_.upload(records);
    pk_ = EamPacked{records_.data(), records_.data() + dsize, ntypes, static_cast<int>(points), ntypes == 1, symmetric};
  }

  bool mixed_;
  int tpa_;  ///< threads per atom (MOLSTEP_CUDA_TPA)
  gpu::DeviceArray<double> c_, fp_, rho_, records_;  // fp_, rho_: the variants only
  gpu::DeviceArray<int> offset_, t2f_, t2r_, t2z_, inner_index_, inner_count_;
  gpu::DeviceArray<Packed4> pf_;  ///< (x, y, z, F'(rho)) per atom, from the density pass
  Tables t_{};
  EamPacked pk_{};
};

}  // namespace

std::unique_ptr<PairCuda> PairCuda::make(const potentials::PairStyle& style, int ntypes, bool mixed) {
  if (const auto* lj = dynamic_cast<const potentials::PairLjCut*>(&style))
    return std::make_unique<LjCuda>(*lj, ntypes, mixed);
  if (const auto* eam = dynamic_cast<const potentials::PairEamBase*>(&style))
    return std::make_unique<EamCuda>(eam->tables(), ntypes, mixed);
  throw Error("pair_style " + std::string(style.name()) + " has no CUDA version yet (use --device cpu)");
}

void PairCuda::ensure_ev(std::size_t n) {
  e_.resize(n);
  for (auto& w : w_) w.resize(n);
}

potentials::EnergyVirial PairCuda::reduce(std::size_t n) {
  potentials::EnergyVirial ev;
  sum_.resize(7);
  gpu::DeviceArray<double>* arrays[7] = {&e_, &w_[0], &w_[1], &w_[2], &w_[3], &w_[4], &w_[5]};
  std::size_t bytes = 0;
  MOLSTEP_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, e_.data(), sum_.data(), static_cast<int>(n)));
  scratch_.resize(bytes);
  for (int k = 0; k < 7; ++k)
    MOLSTEP_CUDA_CHECK(cub::DeviceReduce::Sum(scratch_.data(), bytes, arrays[k]->data(), sum_.data() + k,
                                              static_cast<int>(n), gpu::stream()));
  std::vector<double> h;
  sum_.download(h);
  ev.energy = h[0];
  for (int k = 0; k < 6; ++k) ev.virial[static_cast<std::size_t>(k)] = h[static_cast<std::size_t>(k) + 1];
  return ev;
}

std::size_t PairCuda::bytes() const {
  std::size_t b = e_.bytes() + sum_.bytes() + scratch_.bytes();
  for (const auto& w : w_) b += w.bytes();
  return b;
}

}  // namespace molstep::md::cuda
