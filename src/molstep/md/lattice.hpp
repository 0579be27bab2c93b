// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <string>
#include <vector>

#include "molstep/core/atoms.hpp"
#include "molstep/core/box.hpp"
#include "molstep/core/units.hpp"

namespace molstep::md {

/// A cubic lattice as the LAMMPS `lattice` command defines it: style sc, bcc or fcc and a scale
/// that is the lattice constant (metal units) or a reduced density rho* (lj units), in which case
/// the constant is (n_basis / rho*)^(1/3).
struct Lattice {
  std::string style;
  double constant = 0.0;  ///< edge length of the cubic unit cell
  std::vector<std::array<double, 3>> basis;  ///< fractional coordinates, in LAMMPS's order
};

/// Throws molstep::Error for an unknown style or a non-positive scale.
Lattice make_lattice(const std::string& style, double scale, const core::UnitSystem& units);

/// Adds one atom of `type` at every lattice site inside the periodic box, with ids following the
/// largest existing id, in LAMMPS's order (z slowest, then y, x, basis fastest) and with positions
/// computed in the same floating-point order, so that ids and coordinates match LAMMPS bit for bit.
/// Returns the number of atoms created.
std::size_t create_atoms_on_lattice(const Lattice& lattice, const core::Box& box, int type, core::Atoms& atoms);

}  // namespace molstep::md
