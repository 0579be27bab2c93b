// SPDX-License-Identifier: MIT
#include "molstep/md/neighbor/neighbor_list.hpp"

#include <algorithm>

namespace molstep::md::neighbor {

namespace {

bool ghost_above(const PackedAtom& i, const PackedAtom& j) {
  if (j.z != i.z) return j.z > i.z;
  if (j.y != i.y) return j.y > i.y;
  return j.x > i.x;
}

}  // namespace

void build_neighbor_list(const std::vector<PackedAtom>& atoms, std::size_t nlocal, const CellGrid& grid,
                         double cutoff, bool full, bool newton, NeighborList& list) {
  const std::size_t ntotal = atoms.size();
  const int ncells = grid.ncells();
  std::vector<int> cell_of(ntotal);
  std::vector<std::uint32_t> cell_start(static_cast<std::size_t>(ncells) + 1, 0);
  for (std::size_t k = 0; k < ntotal; ++k) {
    cell_of[k] = grid.cell(atoms[k].x, atoms[k].y, atoms[k].z);
    ++cell_start[static_cast<std::size_t>(cell_of[k]) + 1];
  }
  for (int c = 0; c < ncells; ++c) cell_start[c + 1] += cell_start[c];
  std::vector<std::uint32_t> cell_atoms(ntotal);
  {
    std::vector<std::uint32_t> fill(cell_start.begin(), cell_start.end() - 1);
    for (std::size_t k = 0; k < ntotal; ++k) cell_atoms[fill[cell_of[k]]++] = static_cast<std::uint32_t>(k);
  }

  const std::vector<int> stencil = grid.stencil(cutoff);
  const double cutsq = cutoff * cutoff;
  // Visits the accepted neighbours of owned atom i in a fixed order.
  const auto for_each_neighbor = [&](std::size_t i, auto&& take) {
    const PackedAtom& a = atoms[i];
    for (int off : stencil) {
      const int c = cell_of[i] + off;
      for (std::uint32_t s = cell_start[c]; s < cell_start[c + 1]; ++s) {
        const std::uint32_t j = cell_atoms[s];
        if (j == i) continue;
        if (!full) {
          if (j < nlocal) {
            if (j < i) continue;
          } else if (newton && !ghost_above(a, atoms[j])) {
            continue;
          }
        }
        const double dx = a.x - atoms[j].x, dy = a.y - atoms[j].y, dz = a.z - atoms[j].z;
        if (dx * dx + dy * dy + dz * dz < cutsq) take(j);
      }
    }
  };

  list.nlocal = nlocal;
  list.full = full;
  list.newton = newton;
  list.cutoff = cutoff;
  list.offsets.assign(nlocal + 1, 0);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::size_t i = 0; i < nlocal; ++i) {
    std::uint32_t count = 0;
    for_each_neighbor(i, [&](std::uint32_t) { ++count; });
    list.offsets[i + 1] = count;
  }
  for (std::size_t i = 0; i < nlocal; ++i) list.offsets[i + 1] += list.offsets[i];
  list.neighbors.resize(list.offsets[nlocal]);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::size_t i = 0; i < nlocal; ++i) {
    std::uint32_t* out = list.neighbors.data() + list.offsets[i];
    for_each_neighbor(i, [&](std::uint32_t j) { *out++ = j; });
    // Sorted neighbours make the gathers walk memory forwards.
    std::sort(list.neighbors.data() + list.offsets[i], out);
  }

  // Slabs of whole z layers, each at least `cutoff` thick.
  const int layers = std::max(1, static_cast<int>(std::ceil(cutoff / grid.size[2])));
  const int nslab = std::max(1, grid.n[2] / layers);
  list.slabs.assign(static_cast<std::size_t>(nslab) + 1, nlocal);
  list.slabs[0] = 0;
  for (int s = 1; s < nslab; ++s) {
    const int first_cell = grid.index(0, 0, s * layers + grid.margin[2]);
    list.slabs[s] = static_cast<std::size_t>(
        std::lower_bound(cell_of.begin(), cell_of.begin() + static_cast<std::ptrdiff_t>(nlocal), first_cell) -
        cell_of.begin());
  }
}

}  // namespace molstep::md::neighbor
