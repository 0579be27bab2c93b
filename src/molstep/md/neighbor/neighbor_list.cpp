// SPDX-License-Identifier: MIT
#include "molstep/md/neighbor/neighbor_list.hpp"

#include "molstep/core/parallel.hpp"

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
  std::vector<std::uint32_t> cell_atoms(ntotal), position(ntotal);
  {
    std::vector<std::uint32_t> fill(cell_start.begin(), cell_start.end() - 1);
    for (std::size_t k = 0; k < ntotal; ++k) {
      position[k] = fill[cell_of[k]]++;
      cell_atoms[position[k]] = static_cast<std::uint32_t>(k);
    }
  }

  // A cell is inner when it lies inside the box and so holds owned atoms only.
  std::vector<char> inner(static_cast<std::size_t>(ncells), 0);
  for (int kz = grid.margin[2]; kz < grid.margin[2] + grid.n[2]; ++kz)
    for (int ky = grid.margin[1]; ky < grid.margin[1] + grid.n[1]; ++ky)
      for (int kx = grid.margin[0]; kx < grid.margin[0] + grid.n[0]; ++kx) inner[grid.index(kx, ky, kz)] = 1;

  // Candidates are read from a copy of the atoms in cell order, so each cell is one sequential
  // run of memory; the pad field carries the atom's index.
  std::vector<PackedAtom> by_cell(ntotal);
  for (std::size_t s = 0; s < ntotal; ++s) {
    by_cell[s] = atoms[cell_atoms[s]];
    by_cell[s].pad = static_cast<int>(cell_atoms[s]);
  }

  const std::vector<int> stencil = grid.stencil(cutoff);
  const double cutsq = cutoff * cutoff;
  // Appends the accepted neighbours of owned atom i to `out`, in a fixed order. For a half list,
  // owned neighbours j > i sit in cells of higher z-major index or later in i's own cell, so
  // inner cells below the centre are skipped and the own cell starts after i; image cells are
  // tested atom by atom. Candidates are written unconditionally and kept by advancing the end
  // only when inside the cutoff (no unpredictable branch).
  const auto collect = [&](std::size_t i, std::vector<std::uint32_t>& out) {
    const PackedAtom a = atoms[i];
    const int ci = cell_of[i];
    std::size_t bound = 0;
    for (int off : stencil) bound += cell_start[ci + off + 1] - cell_start[ci + off];
    std::size_t n = out.size();
    out.resize(n + bound);
    std::uint32_t* dst = out.data();
    for (int off : stencil) {
      const int c = ci + off;
      std::uint32_t first = cell_start[c];
      const std::uint32_t last = cell_start[c + 1];
      const bool image_cell = !inner[c];
      if (!full && !image_cell) {
        if (off < 0) continue;
        if (off == 0) first = position[i] + 1;
      }
      if (full || (image_cell && newton)) {
        for (std::uint32_t s = first; s < last; ++s) {
          const PackedAtom& b = by_cell[s];
          const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
          const bool keep = dx * dx + dy * dy + dz * dz < cutsq &&
                            (full ? static_cast<std::size_t>(b.pad) != i : ghost_above(a, b));
          dst[n] = static_cast<std::uint32_t>(b.pad);
          n += keep ? 1 : 0;
        }
      } else {
        for (std::uint32_t s = first; s < last; ++s) {
          const PackedAtom& b = by_cell[s];
          const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
          dst[n] = static_cast<std::uint32_t>(b.pad);
          n += dx * dx + dy * dy + dz * dz < cutsq ? 1 : 0;
        }
      }
    }
    out.resize(n);
  };

  list.nlocal = nlocal;
  list.full = full;
  list.newton = newton;
  list.cutoff = cutoff;
  list.offsets.assign(nlocal + 1, 0);
  // Fixed blocks of atoms (not per thread), concatenated in block order: same list on any
  // thread count, in one pass over the candidates.
  constexpr std::size_t kBlock = 512;
  const std::size_t nblocks = (nlocal + kBlock - 1) / kBlock;
  std::vector<std::vector<std::uint32_t>> block_lists(nblocks);
#pragma omp parallel for schedule(dynamic, 4) if (nlocal >= core::kParallelMinAtoms)
  for (std::size_t b = 0; b < nblocks; ++b) {
    auto& out = block_lists[b];
    const std::size_t end = std::min(nlocal, (b + 1) * kBlock);
    for (std::size_t i = b * kBlock; i < end; ++i) {
      const std::size_t before = out.size();
      collect(i, out);
      list.offsets[i + 1] = static_cast<std::uint32_t>(out.size() - before);
    }
  }
  for (std::size_t i = 0; i < nlocal; ++i) list.offsets[i + 1] += list.offsets[i];
  list.neighbors.assign(list.offsets[nlocal] + NeighborList::kPadding, 0);
#pragma omp parallel for schedule(static) if (nlocal >= core::kParallelMinAtoms)
  for (std::size_t b = 0; b < nblocks; ++b)
    std::copy(block_lists[b].begin(), block_lists[b].end(), list.neighbors.begin() + list.offsets[b * kBlock]);

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
