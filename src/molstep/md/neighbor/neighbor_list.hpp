// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "molstep/md/neighbor/cell_grid.hpp"
#include "molstep/md/neighbor/packed.hpp"

namespace molstep::md::neighbor {

/// Verlet list in CSR form over owned atoms 0..nlocal-1; entries index the packed array of
/// owned atoms followed by ghost images.
///
/// Half list (full == false): each pair of owned atoms once, in the list of the lower index. With
/// newton, a pair with a ghost is stored once, on the side where the ghost lies above (z, then y,
/// then x) and the ghost's force is folded back to its owner; without newton, every owned atom
/// lists all its ghosts and only the owned side is updated.
/// Full list (full == true): every neighbour of every owned atom (pairs appear twice), for
/// kernels that only write to atom i.
///
/// `slabs` splits the owned atoms (sorted by z layer) into ranges at least one cutoff thick:
/// a half-list loop over slab s writes only to atoms of slabs s and s+1 and to ghosts, so
/// slabs of equal parity can run concurrently without races and with a fixed summation order.
struct NeighborList {
  std::size_t nlocal = 0;
  bool full = false;
  bool newton = true;
  double cutoff = 0.0;
  std::vector<std::uint32_t> offsets;
  std::vector<std::uint32_t> neighbors;  ///< followed by kPadding zeros, so SIMD loads may overrun
  std::vector<std::size_t> slabs;  ///< nslab + 1 boundaries into 0..nlocal

  static constexpr std::size_t kPadding = 8;
  [[nodiscard]] std::size_t pairs() const { return offsets.empty() ? 0 : offsets.back(); }
};

/// Builds `list` for atoms sorted by `grid` cell (owned atoms first, in cell order, then ghosts).
void build_neighbor_list(const std::vector<PackedAtom>& atoms, std::size_t nlocal, const CellGrid& grid,
                         double cutoff, bool full, bool newton, NeighborList& list);

}  // namespace molstep::md::neighbor
