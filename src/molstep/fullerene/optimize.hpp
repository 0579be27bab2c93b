// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <span>

#include "molstep/fullerene/forcefield.hpp"
#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

/// The optimiser's line search (line_search.hpp).
enum class LineSearch {
  /// The Fullerene program's: golden-section search on [0, 1] Angstrom, 20 reductions of the
  /// bracket, one energy each (22 energies and one gradient per CG iteration).
  golden,
  /// Strong Wolfe conditions from energies and slopes (wolfe_search): about 2 energy-and-gradient
  /// evaluations per CG iteration, the last of which is the next iteration's gradient.
  wolfe,
};

struct OptimizeOptions {
  /// Conjugate-gradient iterations before giving up; 0 means 5 N (the thesis's budget, enough
  /// for 99.8% of isomers).
  int max_iterations = 0;
  /// Converged when sqrt(sum over atoms of |dE/dx_a|^2) / N is below this ...
  double gradient_tolerance = 1e-2;
  /// ... and every bond is within this fraction of its equilibrium length.
  double bond_tolerance = 0.1;
  /// Add the face-flatness term to the force field.
  bool flatness = false;
  LineSearch line_search = LineSearch::wolfe;
};

enum class OptimizeStatus { converged, failed };

struct OptimizeResult {
  OptimizeStatus status = OptimizeStatus::failed;
  int iterations = 0;    ///< conjugate-gradient iterations taken
  double energy = 0;     ///< at the returned geometry
  double grad_norm = 0;  ///< sqrt(sum |dE/dx_a|^2) / N at the returned geometry
};

/// Minimises the Wirz energy of `x` in place by Polak-Ribiere+ nonlinear conjugate gradients
/// with the line search of `options` (the Fullerene program's GPU code uses LineSearch::golden). Failed means the
/// iteration budget ran out, the line search stalled (no lower energy even along steepest
/// descent), or the energy or gradient is not finite (NaN coordinates); `x` then holds the last
/// iterate. Throws molstep::Error if `g` is not a fullerene or `x` has the wrong size.
OptimizeResult optimize(const CubicGraph& g, std::span<std::array<double, 3>> x, const OptimizeOptions& options = {});

}  // namespace molstep::fullerene
