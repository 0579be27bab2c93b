// SPDX-License-Identifier: MIT
#include "molstep/md/neighbor/cell_grid.hpp"

#include <algorithm>

namespace molstep::md::neighbor {

CellGrid::CellGrid(const core::Box& box, double cutoff) {
  for (int d = 0; d < 3; ++d) {
    const double L = box.length(d);
    n[d] = std::max(1, static_cast<int>(std::floor(L / (0.5 * cutoff))));
    size[d] = L / n[d];
    margin[d] = static_cast<int>(std::ceil(cutoff / size[d]));
    ext[d] = n[d] + 2 * margin[d];
    lo[d] = box.lo[d];
  }
}

std::vector<int> CellGrid::stencil(double cutoff) const {
  std::vector<int> out;
  const double cutsq = cutoff * cutoff;
  for (int dz = -margin[2]; dz <= margin[2]; ++dz)
    for (int dy = -margin[1]; dy <= margin[1]; ++dy)
      for (int dx = -margin[0]; dx <= margin[0]; ++dx) {
        const auto gap = [&](int k, int d) { return std::max(0, std::abs(k) - 1) * size[d]; };
        const double gx = gap(dx, 0), gy = gap(dy, 1), gz = gap(dz, 2);
        if (gx * gx + gy * gy + gz * gz < cutsq) out.push_back((dz * ext[1] + dy) * ext[0] + dx);
      }
  return out;
}

}  // namespace molstep::md::neighbor
