// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <span>
#include <vector>

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

// Wirz harmonic force field (Wirz et al., J. Comput. Chem. 37, 2016), with the constants of the
// Fullerene program's CUDA code. Lengths in Angstrom; angle and dihedral terms are harmonic in
// the cosine, so energies are in the force constants' arbitrary but consistent unit.
// Face type: 0 pentagon, 1 hexagon.

/// Equilibrium bond length, indexed by the number of hexagons among the bond's two faces.
inline constexpr std::array<double, 3> kBondLength{1.479, 1.458, 1.401};
inline constexpr std::array<double, 3> kBondForce{260.0, 390.0, 450.0};
/// Cosine of the equilibrium corner angle (108 and 120 degrees), indexed by the corner's face.
inline constexpr std::array<double, 2> kCornerCos{-0.30901699437494734, -0.5};
inline constexpr std::array<double, 2> kCornerForce{100.0, 100.0};
/// Cosine of the equilibrium dihedral at an atom, indexed 4 F1 + 2 F2 + F3 by the faces around
/// it in arc order (ppp, pph, php, phh, hpp, hph, hhp, hhh).
inline constexpr std::array<double, 8> kDihedralCos{0.7946545571495363, 0.872903607049519, 0.872903607049519,
                                                    0.9410338472965512, 0.8162879359966257, 0.9139497166300941,
                                                    0.9139497166300941, 1.0};
/// Dihedral force constant, indexed by the number of hexagons around the atom.
inline constexpr std::array<double, 4> kDihedralForce{35.0, 65.0, 85.0, 270.0};
/// Face-flatness force constant (optional term).
inline constexpr double kFlatnessForce = 1e2;

/// Everything the force field needs about atom a, built once per isomer so that an evaluation
/// only reads it. Arc k runs from a to b = nbr[k]; c = nbr[k+1] and d = nbr[k+2] (mod 3) follow
/// clockwise. F1, F2, F3 are the faces holding the corners b-a-c, c-a-d and d-a-b (F1 is the
/// face walked from the arc); bond a-b separates F1 and F3. Atom a owns, per arc, half the bond
/// a-b (the other half is b's), the corner b-a-c and the dihedral between the planes (a, b, c)
/// and (b, c, d); together these are the whole Wirz energy, each term counted once.
struct AtomTerms {
  std::array<int, 3> nbr{};
  std::array<int, 3> back{};  ///< position of a in nbr[k]'s list
  std::array<int, 3> face{};  ///< F1 of arc k, an index into ForceField::faces()

  std::array<double, 3> r0{}, k_bond{};                 ///< kBondLength, kBondForce [F1 + F3]
  std::array<double, 3> cos_angle0{}, k_angle{};        ///< kCornerCos, kCornerForce [F1]
  /// kDihedralCos[4 F1 + 2 F2 + F3], kDihedralForce[F1 + F2 + F3]
  std::array<double, 3> cos_dihedral0{}, k_dihedral{};
};

/// A face: its atoms in next_on_face walk order.
struct Face {
  std::array<int, 6> atoms{};
  int size = 0;
};

/// Bond length, corner cosine and dihedral cosine of arc k of an atom, as the energy sees them.
struct ArcGeometry {
  double bond = 0;          ///< |ab|
  double cos_angle = 0;     ///< corner b-a-c
  double cos_dihedral = 0;  ///< planes (a, b, c) and (b, c, d)
};

struct ForceFieldOptions {
  /// Add (k_flat/2) sum over faces of lambda_0, the smallest eigenvalue of the face's 3x3
  /// covariance (the sum of squared distances of its atoms from their least-squares plane).
  bool flatness = false;
};

/// The Wirz energy and its exact gradient. The gradient of atom a takes, besides a's own terms,
/// Pedersen's "outer" terms: its neighbours' corners and dihedrals that move with a (the
/// Fullerene program's WIRZ variant drops the outer dihedrals). Each atom first differentiates
/// the terms it owns with respect to its three bond vectors; each atom then gathers those
/// derivatives from itself and its neighbours. Both passes run atom by atom with no writes to
/// shared data (a GPU does each with one thread per atom); every term is evaluated once.
class ForceField {
 public:
  /// Throws molstep::Error, saying what is wrong, unless `g` is a fullerene (see validate).
  explicit ForceField(const CubicGraph& g, const ForceFieldOptions& options = {});

  [[nodiscard]] int size() const { return static_cast<int>(atoms_.size()); }
  [[nodiscard]] const std::vector<AtomTerms>& atoms() const { return atoms_; }
  [[nodiscard]] const std::vector<Face>& faces() const { return faces_; }

  /// The geometry of atom a's three arcs.
  [[nodiscard]] std::array<ArcGeometry, 3> atom_geometry(int a, std::span<const std::array<double, 3>> x) const;
  [[nodiscard]] double energy(std::span<const std::array<double, 3>> x) const;
  /// Writes dE/dx to `gradient` (size() entries) and returns E.
  double energy_and_gradient(std::span<const std::array<double, 3>> x, std::span<std::array<double, 3>> gradient) const;

 private:
  [[nodiscard]] double atom_energy(int a, std::span<const std::array<double, 3>> x) const;
  /// Energy of a's terms and their derivatives with respect to x[nbr[k]] - x[a], k = 0, 1, 2.
  double atom_local_gradient(int a, std::span<const std::array<double, 3>> x,
                             std::array<std::array<double, 3>, 3>& local) const;

  ForceFieldOptions options_;
  std::vector<AtomTerms> atoms_;
  std::vector<Face> faces_;
};

}  // namespace molstep::fullerene
