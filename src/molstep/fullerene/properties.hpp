// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <span>
#include <vector>

#include "molstep/fullerene/forcefield.hpp"
#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

/// What a user reads off one optimised isomer. Lengths in Angstrom, angles in degrees.
struct IsomerProperties {
  double energy = 0;  ///< Wirz energy (force-field units)
  /// Root-mean-square deviation from the equilibrium value, over every arc (so each bond counts
  /// once per end, each corner and each atom dihedral once per arc).
  double bond_rmsd = 0;
  double angle_rmsd = 0;
  double dihedral_rmsd = 0;
  /// The Fullerene program's relative RMS error, sqrt((sum (p - p0)^2 / sum p0^2) / 3N), angles
  /// and dihedrals in radians.
  double bond_rrmse = 0;
  double angle_rrmse = 0;
  double dihedral_rrmse = 0;
  double volume = 0;        ///< enclosed by the faces, each fanned into triangles from its centroid
  double area = 0;          ///< of the same triangles
  double sphericity = 0;    ///< pi^(1/3) (6 V)^(2/3) / A: 1 for a sphere
  double circumradius = 0;  ///< largest distance of an atom from the atoms' centroid
  double mean_radius = 0;   ///< mean distance of the atoms from their centroid
  double homo_lumo_gap = 0;  ///< Hueckel gap in units of |beta|
};

[[nodiscard]] IsomerProperties isomer_properties(const ForceField& ff, std::span<const std::array<double, 3>> x);

/// Eigenvalues of the 0/1 adjacency matrix, largest first: the Hueckel pi-orbital energies
/// alpha + lambda beta (beta < 0, so the largest lambda is the lowest orbital).
[[nodiscard]] std::vector<double> adjacency_spectrum(const CubicGraph& g);

/// lambda_HOMO - lambda_LUMO with N/2 doubly occupied orbitals: the (N/2)-th and (N/2+1)-th
/// eigenvalues of adjacency_spectrum. 0 for an open shell.
[[nodiscard]] double homo_lumo_gap(std::span<const double> spectrum);

}  // namespace molstep::fullerene
