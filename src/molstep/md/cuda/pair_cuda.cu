// SPDX-License-Identifier: MIT
#include <cub/device/device_reduce.cuh>

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
using kernels::coeffs;
using kernels::EvOut;
using kernels::finish_atom;
using kernels::locate;
using kernels::spline_slope;
using kernels::spline_value;
using kernels::Tables;

// ---- Lennard-Jones ---------------------------------------------------------------------------

// R is the type of the pair arithmetic: double, or float for --precision mixed (differences
// of positions, accumulation and integration stay double).
template <bool EV, class R>
__global__ void lj_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos,
                          const potentials::LjTerms* __restrict__ terms, int stride, const int* __restrict__ index,
                          const int* __restrict__ count, std::size_t lstride, double* fx, double* fy, double* fz,
                          EvOut ev, Kick kick) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 pi = pos[i];
  const double xi = pi.x, yi = pi.y, zi = pi.z;
  const int ti = static_cast<int>(pi.w);
  double ax = 0.0, ay = 0.0, az = 0.0;
  AtomEv acc;
  const int m = count[i];
  for (int k = 0; k < m; ++k) {
    const int j = index[static_cast<std::size_t>(k) * lstride + i];
    const Packed4 pj = pos[j];
    const double3 d = separation(xi, yi, zi, pj, box);
    const double dx = d.x, dy = d.y, dz = d.z;
    const R rx = static_cast<R>(dx), ry = static_cast<R>(dy), rz = static_cast<R>(dz);
    const R rsq = rx * rx + ry * ry + rz * rz;
    const potentials::LjTerms& p = terms[ti * stride + static_cast<int>(pj.w)];
    if (rsq < static_cast<R>(p.cutsq)) {
      const R r2inv = R(1) / rsq;
      const R r6inv = r2inv * r2inv * r2inv;
      const R fpair = r6inv * (static_cast<R>(p.lj1) * r6inv - static_cast<R>(p.lj2)) * r2inv;
      ax += static_cast<double>(rx * fpair);
      ay += static_cast<double>(ry * fpair);
      az += static_cast<double>(rz * fpair);
      if (EV)
        acc.add_pair(static_cast<double>(r6inv * (static_cast<R>(p.lj3) * r6inv - static_cast<R>(p.lj4)) -
                                         static_cast<R>(p.offset)),
                     static_cast<double>(fpair), dx, dy, dz);
    }
  }
  finish_atom(i, ti, ax, ay, az, fx, fy, fz, kick);
  if (EV) {
    ev.e[i] = 0.0;
    acc.store(ev, i);
  }
}

class LjCuda final : public PairCuda {
 public:
  LjCuda(const potentials::PairLjCut& lj, int ntypes, bool mixed)
      : stride_(ntypes + 1), mixed_(mixed), tpa_(gpu::tuning().threads_per_atom) {
    const auto eval = lj.evaluator();
    std::vector<potentials::LjTerms> t(eval.terms, eval.terms + stride_ * stride_);
    terms_.upload(t);
  }
  void compute(DeviceAtoms& a, const DeviceBox& box, const DeviceList& l, bool ev, const Kick& kick) override {
    if (ev) ensure_ev(a.n);
    const EvOut out{e_.data(), w_[0].data(), w_[1].data(), w_[2].data(), w_[3].data(), w_[4].data(), w_[5].data()};
    if (l.half || tpa_ != 1) {  // MOLSTEP_CUDA_LIST=half or MOLSTEP_CUDA_TPA: pair_variants.cu
      variants::lj_forces({a.n, box, a.pos.data(), terms_.data(), stride_, &l, a.fx.data(), a.fy.data(), a.fz.data(),
                           out, kick},
                          ev, mixed_, tpa_);
      return;
    }
    const auto launch = [&](auto kernel) {
      gpu::launch(a.n, kernel, a.n, box, a.pos.data(), terms_.data(), stride_, l.index.data(), l.count.data(), l.stride,
                  a.fx.data(), a.fy.data(), a.fz.data(), out, kick);
    };
    if (mixed_) ev ? launch(lj_kernel<true, float>) : launch(lj_kernel<false, float>);
    else ev ? launch(lj_kernel<true, double>) : launch(lj_kernel<false, double>);
    MOLSTEP_CUDA_CHECK(cudaGetLastError());
  }

 private:
  int stride_;
  bool mixed_;
  int tpa_;  ///< threads per atom (MOLSTEP_CUDA_TPA)
  gpu::DeviceArray<potentials::LjTerms> terms_;
};

// ---- EAM -------------------------------------------------------------------------------------

// Also compacts each atom's list to the neighbours inside the cutoff (inner_index/inner_count),
// so the force pass skips the ~40% of listed pairs in the skin without a divergent branch.
// The density sum and the embedding function stay double in either precision.
template <bool EV, class R>
__global__ void eam_density_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos, Tables t,
                                   const int* __restrict__ index, const int* __restrict__ count, std::size_t lstride,
                                   int* __restrict__ inner_index, int* __restrict__ inner_count, double* fp, double* e) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 pi = pos[i];
  const double xi = pi.x, yi = pi.y, zi = pi.z;
  const int ti = static_cast<int>(pi.w);
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
    rho += static_cast<double>(spline_value(coeffs(t, t.type2rhor[static_cast<int>(pj.w) * t.stride + ti], m), p));
  }
  inner_count[i] = inside;
  double p = rho * t.rdrho + 1.0;
  int m = static_cast<int>(p);
  m = m < 1 ? 1 : (m > t.nrho - 1 ? t.nrho - 1 : m);
  p -= m;
  p = p < 1.0 ? p : 1.0;
  const double* c = coeffs(t, t.type2frho[ti], m);
  const double d = (c[0] * p + c[1]) * p + c[2];
  fp[i] = d;
  if (EV) {
    double f = ((c[3] * p + c[4]) * p + c[5]) * p + c[6];
    if (rho > t.rhomax) f += d * (rho - t.rhomax);
    e[i] = f;
  }
}

template <bool EV, class R>
__global__ void eam_force_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos, Tables t,
                                 const int* __restrict__ index, const int* __restrict__ count, std::size_t lstride,
                                 const double* __restrict__ fp, double* fx, double* fy, double* fz, EvOut ev,
                                 Kick kick) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 pi = pos[i];
  const double xi = pi.x, yi = pi.y, zi = pi.z, fpi = fp[i];
  const int ti = static_cast<int>(pi.w);
  double ax = 0.0, ay = 0.0, az = 0.0;
  AtomEv acc;
  const int cnt = count[i];  // the inner count: every entry lies inside the cutoff
  for (int k = 0; k < cnt; ++k) {
    const int j = index[static_cast<std::size_t>(k) * lstride + i];
    const Packed4 pj = pos[j];
    const double3 d = separation(xi, yi, zi, pj, box);
    const double dx = d.x, dy = d.y, dz = d.z;
    const double rsq = dx * dx + dy * dy + dz * dz;
    const int tj = static_cast<int>(pj.w);
    double phi, fpair;
    eam_pair(t, static_cast<R>(sqrt(rsq)), ti, tj, fpi, fp[j], phi, fpair);
    ax += dx * fpair;
    ay += dy * fpair;
    az += dz * fpair;
    if (EV) acc.add_pair(phi, fpair, dx, dy, dz);
  }
  finish_atom(i, ti, ax, ay, az, fx, fy, fz, kick);
  if (EV) acc.store(ev, i);
}

class EamCuda final : public PairCuda {
 public:
  EamCuda(const potentials::EamTables& T, bool mixed) : mixed_(mixed), tpa_(gpu::tuning().threads_per_atom) {
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
  }
  void compute(DeviceAtoms& a, const DeviceBox& box, const DeviceList& l, bool ev, const Kick& kick) override {
    fp_.resize(a.n);
    inner_index_.resize(l.index.size());
    inner_count_.resize(a.n);
    if (ev) ensure_ev(a.n);
    const EvOut out{e_.data(), w_[0].data(), w_[1].data(), w_[2].data(), w_[3].data(), w_[4].data(), w_[5].data()};
    if (l.half || tpa_ != 1) {  // MOLSTEP_CUDA_LIST=half or MOLSTEP_CUDA_TPA: pair_variants.cu
      if (l.half) rho_.resize(a.n);
      variants::eam_forces({a.n, box, a.pos.data(), t_, &l, inner_index_.data(), inner_count_.data(), rho_.data(),
                            fp_.data(), a.fx.data(), a.fy.data(), a.fz.data(), out, kick},
                           ev, mixed_, tpa_);
      return;
    }
    const auto launch = [&](auto density, auto force) {
      gpu::launch(a.n, density, a.n, box, a.pos.data(), t_, l.index.data(), l.count.data(), l.stride,
                  inner_index_.data(), inner_count_.data(), fp_.data(), ev ? e_.data() : nullptr);
      gpu::launch(a.n, force, a.n, box, a.pos.data(), t_, inner_index_.data(), inner_count_.data(), l.stride,
                  fp_.data(), a.fx.data(), a.fy.data(), a.fz.data(), out, kick);
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
    return PairCuda::bytes() + c_.bytes() + fp_.bytes() + offset_.bytes() + t2f_.bytes() + t2r_.bytes() + t2z_.bytes() +
           inner_index_.bytes() + inner_count_.bytes() + rho_.bytes();
  }

 private:
  bool mixed_;
  int tpa_;  ///< threads per atom (MOLSTEP_CUDA_TPA)
  gpu::DeviceArray<double> c_, fp_, rho_;  // rho_: half list only
  gpu::DeviceArray<int> offset_, t2f_, t2r_, t2z_, inner_index_, inner_count_;
  Tables t_{};
};

}  // namespace

std::unique_ptr<PairCuda> PairCuda::make(const potentials::PairStyle& style, int ntypes, bool mixed) {
  if (const auto* lj = dynamic_cast<const potentials::PairLjCut*>(&style))
    return std::make_unique<LjCuda>(*lj, ntypes, mixed);
  if (const auto* eam = dynamic_cast<const potentials::PairEamBase*>(&style))
    return std::make_unique<EamCuda>(eam->tables(), mixed);
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
