// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <span>
#include <vector>

#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/wirz_terms.hpp"

namespace molstep::fullerene {

// Wirz harmonic force field (Wirz et al., J. Comput. Chem. 37, 2016), with the constants of the
// Fullerene program's CUDA code (wirz_terms.hpp, shared with the GPU kernels). Lengths in
// Angstrom; angle and dihedral terms are harmonic in the cosine, so energies are in the force
// constants' arbitrary but consistent unit. Face type: 0 pentagon, 1 hexagon.

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
  std::array<wirz::ArcParams, 3> arc{};  ///< wirz::arc_params(F1, F2, F3) of arc k
};

/// A face: its atoms in next_on_face walk order.
struct Face {
  std::array<int, 6> atoms{};
  int size = 0;
};

using wirz::ArcGeometry;

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
  /// Atom a's bond vectors x[nbr[k]] - x[a] and its arcs' parameters, as wirz_terms.hpp takes them.
  void gather(int a, std::span<const std::array<double, 3>> x, wirz::V3 e[3], wirz::ArcParams p[3]) const;

  ForceFieldOptions options_;
  std::vector<AtomTerms> atoms_;
  std::vector<Face> faces_;
};

}  // namespace molstep::fullerene
