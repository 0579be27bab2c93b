// SPDX-License-Identifier: MIT
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <string>
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

using kernels::EvOut;
using kernels::Tables;

// ---- Lennard-Jones ---------------------------------------------------------------------------

class LjCuda final : public PairCuda {
 public:
  LjCuda(const potentials::PairLjCut& lj, int ntypes, bool mixed, int tpa)
      : stride_(ntypes + 1), mixed_(mixed), tpa_(tpa) {
    const auto eval = lj.evaluator();
    std::vector<potentials::LjTerms> t(eval.terms, eval.terms + stride_ * stride_);
    terms_.upload(t);
  }
  // The pair arithmetic is double, or float for --precision mixed (differences of positions,
  // accumulation and integration stay double). One kernel template (pair_variants.cu) serves
  // the default, full list with one thread per atom, and the variants.
  void compute(DeviceAtoms& a, const DeviceBox& box, const DeviceList& l, bool ev, const Kick& kick,
               bool /*checked*/) override {
    if (kick.drift.on) throw Error("the LJ force kernel cannot drift the atoms (internal error)");
    if (ev) ensure_ev(a.n);
    const EvOut out{e_.data(), w_[0].data(), w_[1].data(), w_[2].data(), w_[3].data(), w_[4].data(), w_[5].data()};
    variants::lj_forces(
        {a.n, box, a.pos.data(), terms_.data(), stride_, &l, a.fx.data(), a.fy.data(), a.fz.data(), out, kick}, ev,
        mixed_, tpa_);
  }

 private:
  int stride_;
  bool mixed_;
  int tpa_;  ///< threads per atom (threads_per_atom())
  gpu::DeviceArray<potentials::LjTerms> terms_;
};

// ---- EAM -------------------------------------------------------------------------------------

using kernels::EamPacked;
using kernels::kDensityRecord;
using kernels::kForceRecord;

// The kernels are pair_variants.cu's (their full-list, one-thread instances by default), reading
// the r-tables as packed records (kernels::EamPacked) and the embedding tables as LAMMPS's.
class EamCuda final : public PairCuda {
 public:
  EamCuda(const potentials::EamTables& T, int ntypes, bool mixed, int tpa, double skin)
      : mixed_(mixed), tpa_(tpa) {
    std::vector<double> c;
    std::vector<int> offset;
    for (const auto& tab : T.frho) {
      offset.push_back(static_cast<int>(c.size()));
      for (const auto& k : tab.c) c.insert(c.end(), k.begin(), k.end());
    }
    c_.upload(c);
    offset_.upload(offset);
    t2f_.upload(T.type2frho);
    t_ = Tables{c_.data(), offset_.data(), t2f_.data(), T.nr, T.nrho, T.rdr, T.rdrho, T.rhomax, T.cutmax * T.cutmax,
                T.pair_is_phi};
    pack(T, ntypes);
    // The inner list's buffer (MOLSTEP_CUDA_PRUNE): a fraction of the skin, within which the list
    // stays valid, since the skin bounds what the full list holds. It is pruned again once an atom
    // has moved half the buffer (a hair less, against rounding in the distances).
    const double buffer = gpu::tuning().prune * skin;
    const double cut = T.cutmax + buffer, half = 0.5 * buffer * (1.0 - 1e-9);
    inner_cutsq_ = cut * cut;
    trigger_ = half * half;
    buffer_ = buffer;
    state_.resize(1);  // a built list's epoch is at least 1: the first pass prunes
    MOLSTEP_CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, sizeof(variants::InnerList::State), gpu::stream()));
  }
  void compute(DeviceAtoms& a, const DeviceBox& box, const DeviceList& l, bool ev, const Kick& kick,
               bool checked) override {
    if (kick.drift.on && l.half) throw Error("the half-list EAM kernels cannot drift the atoms (internal error)");
    if (trigger_ > 0.0) {  // without a buffer every pass prunes: no buffered list (InnerList)
      inner_index_.resize(l.index.size());
      inner_count_.resize(a.n);
      hold_.resize(a.n);
    }
    cut_index_.resize(l.index.size());
    cut_count_.resize(a.n);
    pf_.resize(a.n);
    if (l.half) rho_.resize(a.n);
    if (ev) ensure_ev(a.n);
    const EvOut out{e_.data(), w_[0].data(), w_[1].data(), w_[2].data(), w_[3].data(), w_[4].data(), w_[5].data()};
    const variants::InnerList inner{inner_index_.data(), inner_count_.data(), cut_index_.data(),
                                    cut_count_.data(),   inner_cutsq_,        trigger_,
                                    hold_.data(),        state_.data()};
    variants::eam_forces({a.n, box, a.pos.data(), t_, pk_, window_, &l, inner, rho_.data(), pf_.data(), a.fx.data(),
                          a.fy.data(), a.fz.data(), out, kick, checked},
                         ev, mixed_, tpa_);
  }
  [[nodiscard]] bool drifts() const override { return !gpu::tuning().half_list; }
  [[nodiscard]] std::string summary() const override {
    std::vector<variants::InnerList::State> s;
    state_.download(s);
    char line[160];
    std::snprintf(line, sizeof line, "EAM inner list (cutoff + %g buffer): pruned at %llu of %llu force evaluations",
                  buffer_, s[0].prunings, s[0].passes);
    return line;
  }
  [[nodiscard]] std::size_t bytes() const override {
    return PairCuda::bytes() + c_.bytes() + offset_.bytes() + t2f_.bytes() + inner_index_.bytes() +
           inner_count_.bytes() + cut_index_.bytes() + cut_count_.bytes() + hold_.bytes() + state_.bytes() +
           rho_.bytes() + records_.bytes() + window_data_.bytes() + pf_.bytes();
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
    if (ntypes == 1 && gpu::tuning().eam_tables != gpu::Tuning::TableMemory::global) make_window(T, points);
  }

  // One element's window for shared memory (kernels::EamWindow): the points from a pair at
  // kWindowFrom of the cutoff up to the table's end. Closer pairs (a compressed or very hot
  // system) read the global records: the same coefficients. A table too fine for its window's
  // force part to fit in kWindowBytes (setfl files of 10,000 points) gets none.
  static constexpr double kWindowFrom = 0.4;
  static constexpr std::size_t kWindowBytes = 32 * 1024;
  void make_window(const potentials::EamTables& T, std::size_t points) {
    using W = kernels::EamWindow;
    int m0 = std::clamp(static_cast<int>(kWindowFrom * T.cutmax * T.rdr) + 1, 0, static_cast<int>(points) - 1);
    if ((static_cast<int>(points) - m0) % 2 != 0) --m0;  // an even length: whole 16-byte entries
    if (m0 < 0) return;
    const auto len = static_cast<std::size_t>(static_cast<int>(points) - m0);
    if (W::kForceDoubles * sizeof(double) * len > kWindowBytes) return;
    const auto& rho = T.rhor[static_cast<std::size_t>(T.type2rhor[1 * T.stride + 1])].c;
    const auto& z2 = T.z2r[static_cast<std::size_t>(T.type2z2r[1 * T.stride + 1])].c;
    std::vector<double> w((W::kDensityDoubles + W::kForceDoubles) * len);
    double* d = w.data();                            // [c3 c4] x len, [c5 c6] x len
    double* f = w.data() + W::kDensityDoubles * len;  // [r3 r4], [r5 z3], [z4 z5] x len each, z6 x len
    for (std::size_t k = 0; k < len; ++k) {
      const auto& r = rho[static_cast<std::size_t>(m0) + k];
      const auto& z = z2[static_cast<std::size_t>(m0) + k];
      d[2 * k] = r[3], d[2 * k + 1] = r[4], d[2 * (len + k)] = r[5], d[2 * (len + k) + 1] = r[6];
      f[2 * k] = r[3], f[2 * k + 1] = r[4];
      f[2 * (len + k)] = r[5], f[2 * (len + k) + 1] = z[3];
      f[2 * (2 * len + k)] = z[4], f[2 * (2 * len + k) + 1] = z[5];
      f[6 * len + k] = z[6];
    }
    window_data_.upload(w);
    window_ = kernels::EamWindow{window_data_.data(), window_data_.data() + W::kDensityDoubles * len, m0,
                                 static_cast<int>(len)};
  }

  bool mixed_;
  int tpa_;  ///< threads per atom (threads_per_atom())
  double buffer_ = 0.0, inner_cutsq_ = 0.0, trigger_ = 0.0;  ///< the inner list's (variants::InnerList)
  gpu::DeviceArray<double> c_, rho_, records_;  // rho_: half lists only
  gpu::DeviceArray<int> offset_, t2f_, inner_index_, inner_count_, cut_index_, cut_count_;
  gpu::DeviceArray<variants::InnerList::State> state_;
  gpu::DeviceArray<Packed4> pf_;    ///< (x, y, z, F'(rho)) per atom, from the density (or embedding) pass
  gpu::DeviceArray<Packed4> hold_;  ///< positions at the inner list's last pruning
  Tables t_{};
  EamPacked pk_{};
  gpu::DeviceArray<double> window_data_;
  kernels::EamWindow window_{};  ///< points 0: none (several elements, or MOLSTEP_CUDA_TABLES=global)
};

}  // namespace

std::unique_ptr<PairCuda> PairCuda::make(const potentials::PairStyle& style, int ntypes, bool mixed,
                                         std::size_t atoms, double skin) {
  const int tpa = threads_per_atom(atoms);
  if (const auto* lj = dynamic_cast<const potentials::PairLjCut*>(&style))
    return std::make_unique<LjCuda>(*lj, ntypes, mixed, tpa);
  if (const auto* eam = dynamic_cast<const potentials::PairEamBase*>(&style))
    return std::make_unique<EamCuda>(eam->tables(), ntypes, mixed, tpa, skin);
  throw Error("pair_style " + std::string(style.name()) + " has no CUDA version yet (use --device cpu)");
}

int PairCuda::list_copies(const potentials::PairStyle& style) {
  if (dynamic_cast<const potentials::PairEamBase*>(&style) == nullptr) return 1;
  return gpu::tuning().prune > 0.0 ? 3 : 2;
}

bool PairCuda::list_by_distance(const potentials::PairStyle& style, std::size_t atoms) {
  switch (gpu::tuning().list_order) {
    case gpu::Tuning::ListOrder::index: return false;
    case gpu::Tuning::ListOrder::distance: return true;
    case gpu::Tuning::ListOrder::automatic: break;
  }
  return dynamic_cast<const potentials::PairEamBase*>(&style) != nullptr && threads_per_atom(atoms) == 1;
}

int PairCuda::threads_per_atom(std::size_t atoms) {
  if (const int fixed = gpu::tuning().threads_per_atom; fixed > 0) return fixed;
  int device = 0, sms = 0, per_sm = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  const auto resident = static_cast<std::size_t>(sms) * static_cast<std::size_t>(per_sm);
  return atoms * 3 <= resident ? 4 : 1;
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
