// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <span>
#include <vector>

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

/// Atoms of the face walked from the arc 0 -> adj[0][0], in walk order: the face that the
/// Tutte layout puts outside and the spherical projection puts at the north pole.
[[nodiscard]] std::vector<int> outer_face(const CubicGraph& g);

struct TutteOptions {
  /// Stop when the residual of the barycentre equations, in 2-norm, is below this fraction of
  /// the right-hand side's (the pull of the fixed outer face).
  double tolerance = 1e-12;
  /// Conjugate-gradient iterations allowed per coordinate; 0 means 10 N.
  int max_iterations = 0;
};

/// Tutte's barycentric embedding in the plane: the outer face's atoms sit on the unit circle,
/// atom k of its walk at (sin 2 pi k/h, cos 2 pi k/h), and every other atom at the barycentre of
/// its three neighbours. The barycentre equations are solved directly, by conjugate gradients on
/// their symmetric positive definite matrix (3 I - adjacency, restricted to the free atoms).
/// Every inner face walked by next_on_face then has positive signed area.
/// Throws molstep::Error when the solver does not converge (a graph that is not a fullerene).
[[nodiscard]] std::vector<std::array<double, 2>> tutte_layout(const CubicGraph& g, const TutteOptions& options = {});

/// Mean bond length of the spherical projection's output, in Angstrom: 6.0, the Fullerene
/// program's `scalerad` 4 times 1.5. A start about 4 times larger than the equilibrium cage
/// contracts without folding; see docs/fullerene.md for the measured trade-off.
inline constexpr double kProjectionMeanBond = 6.0;

/// The starting geometry for the force field: each atom goes on the unit sphere at polar angle
/// (d + 1/2) pi / (d_max + 1), d its graph distance from the outer face, and at the azimuth of
/// its layout position around the centroid of the atoms at the same depth; then the cage is
/// centred on the origin and scaled so that the mean bond length is `mean_bond`.
[[nodiscard]] std::vector<std::array<double, 3>> spherical_projection(const CubicGraph& g,
                                                                      std::span<const std::array<double, 2>> layout,
                                                                      double mean_bond = kProjectionMeanBond);

}  // namespace molstep::fullerene
