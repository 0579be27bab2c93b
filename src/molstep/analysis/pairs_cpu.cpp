// SPDX-License-Identifier: MIT
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "molstep/analysis/backend.hpp"
#include "molstep/analysis/pair_distance.hpp"

namespace molstep::analysis {

namespace {

using Histogram = std::vector<std::uint64_t>;

/// Per-thread histograms added in thread order: counts are integers, so the sum is exact.
class ThreadHistograms {
 public:
  explicit ThreadHistograms(std::size_t size) : h_(static_cast<std::size_t>(omp_get_max_threads()), Histogram(size)) {}
  Histogram& mine() { return h_[static_cast<std::size_t>(omp_get_thread_num())]; }
  void add_to(Histogram& counts) const {
    for (const auto& h : h_) {
      for (std::size_t k = 0; k < h.size(); ++k) counts[k] += h[k];
    }
  }

 private:
  std::vector<Histogram> h_;
};

std::uint64_t shared_atoms(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::uint64_t n = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) ++i;
    else if (b[j] < a[i]) ++j;
    else ++n, ++i, ++j;
  }
  return n;
}

/// Every pair, for boxes too small for cells or plain (non-periodic) distances.
void brute_force(const PairTask& task, const PairBinning& bin, const core::Frame& f, Histogram& counts) {
  ThreadHistograms th(counts.size());
  const auto& a = task.a;
  const bool same = task.b.empty();
  const auto& b = same ? task.a : task.b;
#pragma omp parallel
  {
    auto& h = th.mine();
#pragma omp for schedule(dynamic, 64)
    for (std::size_t p = 0; p < a.size(); ++p) {
      const auto i = a[p];
      const double xi = f.x[i], yi = f.y[i], zi = f.z[i];
      for (std::size_t q = same ? p + 1 : 0; q < b.size(); ++q) {
        const auto j = b[q];
        if (!same && j == i) continue;
        ++h[static_cast<std::size_t>(pair_bin(bin, xi, yi, zi, f.x[j], f.y[j], f.z[j]))];
      }
    }
  }
  th.add_to(counts);
}

/// Atoms sorted into periodic cells at least rmax wide, coordinates copied cell by cell.
struct Cells {
  std::array<int, 3> n{};
  std::vector<std::uint32_t> start;  ///< ncells + 1 offsets
  std::vector<double> x, y, z;
  std::vector<std::uint32_t> atom;

  Cells(const std::vector<std::uint32_t>& atoms, const core::Frame& f, const PairBinning& bin, double rmax) {
    for (int d = 0; d < 3; ++d) n[d] = static_cast<int>(std::floor(bin.len[d] / rmax));
    const std::size_t ncells = static_cast<std::size_t>(n[0]) * n[1] * n[2];
    std::vector<std::uint32_t> cell(atoms.size());
    start.assign(ncells + 1, 0);
    const double* c[3] = {f.x.data(), f.y.data(), f.z.data()};
    for (std::size_t k = 0; k < atoms.size(); ++k) {
      int ic[3];
      for (int d = 0; d < 3; ++d) {
        const double s = c[d][atoms[k]] * bin.inv_len[d];
        ic[d] = std::clamp(static_cast<int>(std::floor((s - std::floor(s)) * n[d])), 0, n[d] - 1);
      }
      cell[k] = static_cast<std::uint32_t>((ic[2] * n[1] + ic[1]) * n[0] + ic[0]);
      ++start[cell[k] + 1];
    }
    for (std::size_t k = 0; k < ncells; ++k) start[k + 1] += start[k];
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    x.resize(atoms.size());
    y.resize(atoms.size());
    z.resize(atoms.size());
    atom.resize(atoms.size());
    for (std::size_t k = 0; k < atoms.size(); ++k) {
      const auto slot = fill[cell[k]]++;
      x[slot] = f.x[atoms[k]];
      y[slot] = f.y[atoms[k]];
      z[slot] = f.z[atoms[k]];
      atom[slot] = atoms[k];
    }
  }
  [[nodiscard]] std::size_t index(int cx, int cy, int cz) const {
    cx = (cx + n[0]) % n[0];
    cy = (cy + n[1]) % n[1];
    cz = (cz + n[2]) % n[2];
    return static_cast<std::size_t>((cz * n[1] + cy) * n[0] + cx);
  }
};

/// Pairs within rmax from periodic cells; pairs farther apart are counted as overflow from the
/// known total. Within one selection each unordered pair is visited once (the cell itself with
/// j > i, and 13 of the 26 neighbour cells).
void cell_pairs(const PairTask& task, const PairBinning& bin, const core::Frame& f, Histogram& counts) {
  const bool same = task.b.empty();
  const Cells cb(same ? task.a : task.b, f, bin, task.spec.rmax);
  const Cells ca = same ? cb : Cells(task.a, f, bin, task.spec.rmax);
  const std::size_t ncells = cb.start.size() - 1;
  ThreadHistograms th(counts.size());
#pragma omp parallel
  {
    auto& h = th.mine();
#pragma omp for schedule(dynamic, 4)
    for (std::size_t c = 0; c < ncells; ++c) {
      const int cx = static_cast<int>(c % static_cast<std::size_t>(cb.n[0]));
      const int cy = static_cast<int>((c / static_cast<std::size_t>(cb.n[0])) % static_cast<std::size_t>(cb.n[1]));
      const int cz = static_cast<int>(c / (static_cast<std::size_t>(cb.n[0]) * static_cast<std::size_t>(cb.n[1])));
      for (int oz = -1; oz <= 1; ++oz) {
        for (int oy = -1; oy <= 1; ++oy) {
          for (int ox = -1; ox <= 1; ++ox) {
            const int order = (oz * 3 + oy) * 3 + ox;  // -13..13; 0 is the cell itself
            if (same && order < 0) continue;
            const std::size_t nc = cb.index(cx + ox, cy + oy, cz + oz);
            for (std::uint32_t p = ca.start[c]; p < ca.start[c + 1]; ++p) {
              const double xi = ca.x[p], yi = ca.y[p], zi = ca.z[p];
              const std::uint32_t q0 = (same && order == 0) ? p + 1 : cb.start[nc];
              for (std::uint32_t q = q0; q < cb.start[nc + 1]; ++q) {
                if (!same && cb.atom[q] == ca.atom[p]) continue;
                const int k = pair_bin(bin, xi, yi, zi, cb.x[q], cb.y[q], cb.z[q]);
                if (k < bin.bins) ++h[static_cast<std::size_t>(k)];
              }
            }
          }
        }
      }
    }
  }
  Histogram in_range(counts.size(), 0);
  th.add_to(in_range);
  const std::uint64_t na = task.a.size();
  const std::uint64_t total = same ? na * (na - (na > 0 ? 1 : 0)) / 2 : na * task.b.size() - shared_atoms(task.a, task.b);
  std::uint64_t counted = 0;
  for (int k = 0; k < bin.bins; ++k) {
    counts[static_cast<std::size_t>(k)] += in_range[static_cast<std::size_t>(k)];
    counted += in_range[static_cast<std::size_t>(k)];
  }
  counts.back() += total - counted;
}

}  // namespace

void add_pair_counts(const PairTask& task, const core::Frame& frame, std::vector<std::uint64_t>& counts) {
  const PairBinning bin(task.spec, frame);
  counts.resize(static_cast<std::size_t>(task.spec.bins) + 1, 0);
  bool cells = task.spec.minimum_image;
  for (int d = 0; d < 3 && cells; ++d) cells = std::floor(bin.len[d] / task.spec.rmax) >= 3;
  if (cells) cell_pairs(task, bin, frame, counts);
  else brute_force(task, bin, frame, counts);
}

}  // namespace molstep::analysis
