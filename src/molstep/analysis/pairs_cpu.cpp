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

/// The bins of `count` squared distances, all below rmax (bin_of_r2 without the range test, in a
/// loop the compiler vectorises; the same IEEE operations, so the same bins).
__attribute__((target_clones("avx2", "default"))) void bins_of_r2(const PairBinning& bin,
                                                                  const double* __restrict__ r2,
                                                                  std::uint32_t count,
                                                                  std::uint32_t* __restrict__ out) {
  const int last = bin.bins - 1;
  for (std::uint32_t k = 0; k < count; ++k) {
    const int b = static_cast<int>(std::sqrt(r2[k]) * bin.inv_width);
    out[k] = static_cast<std::uint32_t>(b < last ? b : last);
  }
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
/// neighbour cells along x of one stencil row are one or two (where the row wraps) contiguous
/// ranges. For each cell, the candidates of all its stencil rows are gathered once into one
/// contiguous buffer; each of the cell's atoms then runs one long vectorisable loop of squared
/// distances over it, and only pairs within rmax are binned. Within one selection each unordered
/// pair is visited once: forward rows only, the cell's own row first with the cell itself first,
/// and an atom pairs only with the candidates after its own position.
void cell_pairs(const PairTask& task, const PairBinning& bin, const core::Frame& f, Histogram& counts, int split) {
  const bool same = task.b.empty();
  const double width = task.spec.rmax / split;
  const Cells cb(same ? task.a : task.b, f, bin, width);
  const Cells ca = same ? cb : Cells(task.a, f, bin, width);
  const std::size_t ncells = cb.start.size() - 1;
  const int reach = split;
  const int nx = cb.n[0];
  // Stencil rows (dz, dy), the own row first.
  std::vector<std::pair<int, int>> rows{{0, 0}};
  for (int oz = -reach; oz <= reach; ++oz) {
    for (int oy = -reach; oy <= reach; ++oy) {
      if ((oz == 0 && oy == 0) || (same && (oz < 0 || (oz == 0 && oy < 0)))) continue;
      rows.emplace_back(oz, oy);
    }
  }
  ThreadHistograms th(counts.size());
#pragma omp parallel
  {
    auto& h = th.mine();
    std::vector<double> gx, gy, gz, r2, kept_r2;
    std::vector<std::uint32_t> gid, near;
#pragma omp for schedule(dynamic, 16)
    for (std::size_t c = 0; c < ncells; ++c) {
      if (ca.start[c] == ca.start[c + 1]) continue;
      const int cx = static_cast<int>(c % static_cast<std::size_t>(nx));
      const int cy = static_cast<int>((c / static_cast<std::size_t>(nx)) % static_cast<std::size_t>(cb.n[1]));
      const int cz = static_cast<int>(c / (static_cast<std::size_t>(nx) * static_cast<std::size_t>(cb.n[1])));
      gx.clear();
      gy.clear();
      gz.clear();
      gid.clear();
      auto gather = [&](std::size_t row, int x0, int x1) {  // cells x0..x1 of a row, no wrap
        for (auto q = cb.start[row + static_cast<std::size_t>(x0)]; q < cb.start[row + static_cast<std::size_t>(x1) + 1];
             ++q) {
          gx.push_back(cb.x[q]);
          gy.push_back(cb.y[q]);
          gz.push_back(cb.z[q]);
          gid.push_back(cb.atom[q]);
        }
      };
      for (const auto& [oz, oy] : rows) {
        const int x_first = (same && oz == 0 && oy == 0) ? cx : cx - reach;
        const int x_last = cx + reach;
        const std::size_t row = cb.index(0, cy + oy, cz + oz);
        if (x_first < 0) {
          gather(row, x_first + nx, nx - 1);
          gather(row, 0, x_last);
        } else if (x_last >= nx) {
          gather(row, x_first, nx - 1);
          gather(row, 0, x_last - nx);
        } else {
          gather(row, x_first, x_last);
        }
      }
      const auto total = static_cast<std::uint32_t>(gx.size());
      r2.resize(total);
      kept_r2.resize(total);
      near.resize(total);
      for (std::uint32_t p = ca.start[c]; p < ca.start[c + 1]; ++p) {
        const std::uint32_t first = same ? p - ca.start[c] + 1 : 0;
        if (first >= total) continue;
        const std::uint32_t count = total - first;
        double* out = r2.data();
        row_r2(bin, ca.x[p], ca.y[p], ca.z[p], gx.data() + first, gy.data() + first, gz.data() + first, count, out);
        // Pairs beyond rmax (most candidates, unpredictably) are dropped by a branch-free
        // compaction, so only pairs in range are binned.
        const std::uint32_t self = ca.atom[p];
        std::uint32_t kept = 0;
        double* in_range = kept_r2.data();
        for (std::uint32_t k = 0; k < count; ++k) {
          in_range[kept] = out[k];
          kept += (out[k] < bin.rmax2 && (same || gid[first + k] != self)) ? 1u : 0u;
        }
        bins_of_r2(bin, in_range, kept, near.data());
        for (std::uint32_t m = 0; m < kept; ++m) ++h[near[m]];
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
  // Cells as wide as rmax: more candidates than half-width cells, but long loops over them.
  // Cells as wide as rmax: more candidates than half-width cells (measured slower), but long
  // loops over them.
  if (task.spec.minimum_image && cells_fit(bin, rmax, 1)) cell_pairs(task, bin, frame, counts, 1);
  else brute_force(task, bin, frame, counts);
}

}  // namespace molstep::analysis
