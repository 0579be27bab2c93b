// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "molstep/core/atoms.hpp"
#include "molstep/core/box.hpp"
#include "molstep/core/units.hpp"

namespace molstep::md {

/// The physical state a deck builds: units, box, atom types and their masses, and the atoms.
struct System {
  core::UnitSystem units = core::unit_system("lj");
  bool box_defined = false;
  core::Box box;
  int ntypes = 0;
  std::vector<double> mass;     ///< per type, 1-based (mass[0] unused)
  std::vector<bool> mass_set;   ///< per type, 1-based
  core::Atoms atoms;

  void define_box(const core::Box& b, int types) {
    box = b;
    box_defined = true;
    ntypes = types;
    mass.assign(static_cast<std::size_t>(types) + 1, 0.0);
    mass_set.assign(static_cast<std::size_t>(types) + 1, false);
  }
  [[nodiscard]] double mass_of(std::size_t i) const { return mass[static_cast<std::size_t>(atoms.type[i])]; }
  /// Unwrapped coordinate d of atom i (x + image * L).
  [[nodiscard]] double unwrapped(std::size_t i, int d) const {
    const double L = box.length(d);
    switch (d) {
      case 0: return atoms.x[i] + atoms.ix[i] * L;
      case 1: return atoms.y[i] + atoms.iy[i] * L;
      default: return atoms.z[i] + atoms.iz[i] * L;
    }
  }
};

}  // namespace molstep::md
