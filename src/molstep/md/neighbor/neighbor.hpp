// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "molstep/md/neighbor/cell_grid.hpp"
#include "molstep/md/neighbor/ghosts.hpp"
#include "molstep/md/neighbor/neighbor_list.hpp"
#include "molstep/md/neighbor/packed.hpp"
#include "molstep/md/system.hpp"

namespace molstep::md::neighbor {

/// `neighbor` and `neigh_modify` settings (LAMMPS defaults: every 1, delay 0, check yes).
struct NeighborSettings {
  double skin = 0.3;
  int every = 1;
  int delay = 0;
  bool check = true;
  bool newton = true;  ///< `newton on|off`
  bool full = false;   ///< full lists (every pair twice) instead of half lists
};

/// Owns the neighbour list and everything it is built from: the packed copy of positions,
/// the ghost images and the force accumulators. Rebuilding also wraps atoms into the box and
/// sorts them by cell, which keeps neighbours close in memory.
class Neighbor {
 public:
  NeighborSettings settings;

  /// Wraps, sorts and re-images the atoms of `system`, and builds the list for pair cutoff
  /// `cutoff` plus the skin.
  void rebuild(System& system, double cutoff);

  /// LAMMPS's decision for the coming step: every/delay schedule, then (with check) whether an
  /// atom moved more than half the skin since the last build.
  [[nodiscard]] bool due(const System& system);

  /// Copies owned positions into the packed array and moves the images with their owners.
  void refresh(const System& system);

  /// Zeroes the force accumulators (owned atoms and images).
  std::vector<PackedForce>& clear_forces();

  /// Folds image forces onto owners and stores the result in the atoms' force arrays.
  void store_forces(System& system);

  [[nodiscard]] const NeighborList& list() const { return list_; }
  [[nodiscard]] const Ghosts& ghost_map() const { return ghosts_; }
  [[nodiscard]] const std::vector<PackedAtom>& packed() const { return packed_; }
  [[nodiscard]] std::vector<PackedForce>& forces() { return forces_; }
  [[nodiscard]] long builds() const { return builds_; }
  [[nodiscard]] std::size_t ghosts() const { return ghosts_.size(); }
  /// The owned atom behind packed index k (itself, or the owner of an image).
  [[nodiscard]] std::size_t owner(std::size_t k) const {
    return k < list_.nlocal ? k : ghosts_.owner(k - list_.nlocal);
  }

 private:
  void wrap(System& system) const;
  void sort_by_cell(System& system) const;

  CellGrid grid_;
  Ghosts ghosts_;
  NeighborList list_;
  std::vector<PackedAtom> packed_;
  std::vector<PackedForce> forces_;
  std::vector<double> xhold_, yhold_, zhold_;
  long ago_ = 0;
  long builds_ = 0;
};

}  // namespace molstep::md::neighbor
