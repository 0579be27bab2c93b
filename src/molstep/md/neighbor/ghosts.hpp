// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "molstep/core/box.hpp"
#include "molstep/md/neighbor/packed.hpp"

namespace molstep::md::neighbor {

/// Periodic images of owned atoms within `cutoff` of a box face (LAMMPS's ghost atoms): a pair
/// kernel then sees plain coordinates, and forces on images are folded back onto their owners.
/// Requires cutoff <= half of every box length, so an atom has at most one image per face.
class Ghosts {
 public:
  /// Rebuilds the image set from the first nlocal entries of `atoms` (which must lie in the box)
  /// and appends the images to `atoms`.
  void build(std::vector<PackedAtom>& atoms, std::size_t nlocal, const core::Box& box, double cutoff);

  /// Recomputes image positions from their owners (after the owners moved).
  void update(std::vector<PackedAtom>& atoms, std::size_t nlocal) const;

  /// Adds the force on each image to its owner, in image order (deterministic).
  void fold(std::vector<PackedForce>& forces, std::size_t nlocal) const;
  /// The same for a per-atom scalar (for example an EAM density).
  void fold_scalar(std::vector<double>& values, std::size_t nlocal) const;
  /// Copies each owner's value of a per-atom scalar to its images.
  void forward_scalar(std::vector<double>& values, std::size_t nlocal) const;

  [[nodiscard]] std::size_t size() const { return owner_.size(); }
  [[nodiscard]] std::uint32_t owner(std::size_t g) const { return owner_[g]; }

 private:
  std::vector<std::uint32_t> owner_;
  std::vector<double> sx_, sy_, sz_;  ///< shift added to the owner's position
};

}  // namespace molstep::md::neighbor
