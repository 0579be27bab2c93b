// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace molstep::core {

/// Per-atom data as structure of arrays. The first `size()` entries are the owned atoms; the
/// force arrays may be longer, for ghost images maintained by the neighbour module.
/// Positions are wrapped into the box, with image counts kept in ix/iy/iz (LAMMPS convention:
/// unwrapped = x + ix * Lx). Types are 1-based as in input decks.
struct Atoms {
  std::vector<std::int64_t> id;
  std::vector<int> type;
  std::vector<double> x, y, z;
  std::vector<double> vx, vy, vz;
  std::vector<double> fx, fy, fz;
  std::vector<int> ix, iy, iz;

  [[nodiscard]] std::size_t size() const { return id.size(); }

  /// Appends one atom at rest with zero force and image counts.
  void add(std::int64_t atom_id, int atom_type, double px, double py, double pz);

  /// Reorders every per-atom array so that new index k holds old atom order[k].
  void permute(std::span<const std::size_t> order);

  void clear();

  /// Largest id in use (0 when empty).
  [[nodiscard]] std::int64_t max_id() const;
};

}  // namespace molstep::core
