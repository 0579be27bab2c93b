// SPDX-License-Identifier: MIT
#pragma once

#include <array>

namespace molstep::core {

/// An orthogonal simulation box [lo, hi) in each dimension, periodic in all three (the only
/// boundary molstep supports so far).
struct Box {
  std::array<double, 3> lo{0, 0, 0};
  std::array<double, 3> hi{0, 0, 0};

  [[nodiscard]] double length(int d) const { return hi[d] - lo[d]; }
  [[nodiscard]] double volume() const { return length(0) * length(1) * length(2); }
  [[nodiscard]] bool contains(double x, double y, double z) const {
    return x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1] && z >= lo[2] && z < hi[2];
  }
};

}  // namespace molstep::core
