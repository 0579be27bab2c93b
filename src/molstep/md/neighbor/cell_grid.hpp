// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include "molstep/core/box.hpp"

namespace molstep::md::neighbor {

/// Bins of about half the list cutoff covering the box plus a margin wide enough for ghost
/// images. Cells are numbered z-major (x fastest) over the extended grid, so sorting owned atoms
/// by cell also sorts them by z layer.
struct CellGrid {
  std::array<int, 3> n{};       ///< bins inside the box per dimension
  std::array<int, 3> margin{};  ///< extra bins on each side for images
  std::array<int, 3> ext{};     ///< n + 2 * margin
  std::array<double, 3> size{}; ///< bin edge lengths
  std::array<double, 3> lo{};

  CellGrid() = default;
  CellGrid(const core::Box& box, double cutoff);

  [[nodiscard]] int ncells() const { return ext[0] * ext[1] * ext[2]; }
  [[nodiscard]] int coord(double x, int d) const {
    int k = static_cast<int>(std::floor((x - lo[d]) / size[d])) + margin[d];
    return k < 0 ? 0 : (k >= ext[d] ? ext[d] - 1 : k);
  }
  [[nodiscard]] int cell(double x, double y, double z) const {
    return (coord(z, 2) * ext[1] + coord(y, 1)) * ext[0] + coord(x, 0);
  }
  [[nodiscard]] int index(int kx, int ky, int kz) const { return (kz * ext[1] + ky) * ext[0] + kx; }

  /// Offsets (in cell index) of every cell that may hold an atom within `cutoff` of an atom in
  /// the centre cell.
  [[nodiscard]] std::vector<int> stencil(double cutoff) const;
};

}  // namespace molstep::md::neighbor
