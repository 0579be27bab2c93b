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

/// Squared distances from (xi, yi, zi) to count atoms of a contiguous row. A separate function
/// so that it is compiled twice, for AVX2 (four pairs at a time) and for the baseline, and the
/// processor picks one at load time; both do the same IEEE operations (no FMA), so the
/// histograms do not depend on which ran.
__attribute__((target_clones("avx2", "default"))) void row_r2(const PairBinning& bin, double xi, double yi,
                                                              double zi, const double* __restrict__ bx,
                                                              const double* __restrict__ by,
                                                              const double* __restrict__ bz, std::uint32_t count,
                                                              double* __restrict__ out) {
  for (std::uint32_t k = 0; k < count; ++k) out[k] = pair_r2(bin, xi, yi, zi, bx[k], by[k], bz[k]);
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

/// Atoms sorted into periodic cells at least rmax / split wide, coordinates copied cell by cell.
struct Cells {
  std::array<int, 3> n{};
  std::vector<std::uint32_t> start;  ///< ncells + 1 offsets
  std::vector<double> x, y, z;
  std::vector<std::uint32_t> atom;

  Cells(const std::vector<std::uint32_t>& atoms, const core::Frame& f, const PairBinning& bin, double width) {
    for (int d = 0; d < 3; ++d) n[d] = static_cast<int>(std::floor(bin.len[d] / width));
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

/// Cells per box length for cells at least rmax / split wide, when the stencil of 2 split + 1
/// cells per dimension fits without wrapping onto itself.
bool cells_fit(const PairBinning& bin, double rmax, int split) {
  for (int d = 0; d < 3; ++d) {
    if (std::floor(bin.len[d] * split / rmax) < 2 * split + 1) return false;
  }
  return true;
}

/// Pairs within rmax from periodic cells at least rmax / split wide; pairs farther apart are
/// counted as overflow from the known total. Cells are numbered x fastest, so the 2 split + 1
/// neighbour cells along x of one stencil row hold consecutive atoms: a row is one or two
/// (where it wraps) contiguous ranges, whose squared distances are computed in one
/// vectorisable loop and then binned. Within one selection each unordered pair is visited once:
/// forward rows only, and in the atom's own row the atoms after it.
void cell_pairs(const PairTask& task, const PairBinning& bin, const core::Frame& f, Histogram& counts, int split) {
  const bool same = task.b.empty();
  const double width = task.spec.rmax / split;
  const Cells cb(same ? task.a : task.b, f, bin, width);
  const Cells ca = same ? cb : Cells(task.a, f, bin, width);
  const std::size_t ncells = cb.start.size() - 1;
  const int reach = split;
  const int nx = cb.n[0];
  ThreadHistograms th(counts.size());
#pragma omp parallel
  {
    auto& h = th.mine();
    std::vector<double> r2;
    std::vector<std::uint32_t> near;
#pragma omp for schedule(dynamic, 16)
    for (std::size_t c = 0; c < ncells; ++c) {
      if (ca.start[c] == ca.start[c + 1]) continue;
      const int cx = static_cast<int>(c % static_cast<std::size_t>(nx));
      const int cy = static_cast<int>((c / static_cast<std::size_t>(nx)) % static_cast<std::size_t>(cb.n[1]));
      const int cz = static_cast<int>(c / (static_cast<std::size_t>(nx) * static_cast<std::size_t>(cb.n[1])));
      for (int oz = -reach; oz <= reach; ++oz) {
        for (int oy = -reach; oy <= reach; ++oy) {
          const bool own_row = oz == 0 && oy == 0;
          if (same && (oz < 0 || (oz == 0 && oy < 0))) continue;
          // The row's cells x_first..cx+reach, as one range of cb, or two where the row wraps.
          const int x_first = (same && own_row) ? cx : cx - reach;
          const std::size_t row = cb.index(0, cy + oy, cz + oz);
          std::array<std::pair<std::uint32_t, std::uint32_t>, 2> ranges{};
          int nranges = 0;
          auto add_cells = [&](int x0, int x1) {  // x0..x1 inside the row, no wrap
            ranges[static_cast<std::size_t>(nranges++)] = {cb.start[row + static_cast<std::size_t>(x0)],
                                                           cb.start[row + static_cast<std::size_t>(x1) + 1]};
          };
          const int x_last = cx + reach;
          if (x_first < 0) {
            add_cells(x_first + nx, nx - 1);
            add_cells(0, x_last);
          } else if (x_last >= nx) {
            add_cells(x_first, nx - 1);
            add_cells(0, x_last - nx);
          } else {
            add_cells(x_first, x_last);
          }
          for (std::uint32_t p = ca.start[c]; p < ca.start[c + 1]; ++p) {
            const double xi = ca.x[p], yi = ca.y[p], zi = ca.z[p];
            const std::uint32_t self = ca.atom[p];
            for (int r = 0; r < nranges; ++r) {
              auto [q0, q1] = ranges[static_cast<std::size_t>(r)];
              // In its own row an atom pairs with the atoms after it; its own cell opens the
              // first range.
              if (same && own_row && r == 0) q0 = p + 1;
              if (q0 >= q1) continue;
              r2.resize(q1 - q0);
              near.resize(q1 - q0);
              double* out = r2.data();
              row_r2(bin, xi, yi, zi, cb.x.data() + q0, cb.y.data() + q0, cb.z.data() + q0, q1 - q0, out);
              // Pairs beyond rmax (half to three quarters of a row, unpredictably) are dropped by
              // a branch-free compaction, so only pairs in range are binned.
              std::uint32_t kept = 0;
              for (std::uint32_t k = 0; k < q1 - q0; ++k) {
                near[kept] = k;
                kept += (out[k] < bin.rmax2 && (same || cb.atom[q0 + k] != self)) ? 1u : 0u;
              }
              for (std::uint32_t m = 0; m < kept; ++m) ++h[static_cast<std::size_t>(bin_of_r2(bin, out[near[m]]))];
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
  const double rmax = task.spec.rmax;
  if (task.spec.minimum_image && cells_fit(bin, rmax, 2)) cell_pairs(task, bin, frame, counts, 2);
  else if (task.spec.minimum_image && cells_fit(bin, rmax, 1)) cell_pairs(task, bin, frame, counts, 1);
  else brute_force(task, bin, frame, counts);
}

}  // namespace molstep::analysis
