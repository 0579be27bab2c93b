// SPDX-License-Identifier: MIT
#include "molstep/fullerene/optimize.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/line_search.hpp"
#include "molstep/fullerene/lockstep_sum.hpp"

namespace molstep::fullerene {
namespace {

using Vec = std::array<double, 3>;

/// sum over atoms of a_i . b_i, added as the GPU adds it (lockstep_sum.hpp).
double dot(std::span<const Vec> a, std::span<const Vec> b) {
  std::vector<double> per_atom(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) per_atom[i] = a[i][0] * b[i][0] + a[i][1] * b[i][1] + a[i][2] * b[i][2];
  return lockstep_sum(per_atom);
}

/// out = x + alpha s
void step(std::span<const Vec> x, double alpha, std::span<const Vec> s, std::span<Vec> out) {
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int c = 0; c < 3; ++c) out[i][c] = x[i][c] + alpha * s[i][c];
}

double max_bond_error(const ForceField& ff, std::span<const Vec> x) {
  double worst = 0;
  for (int a = 0; a < ff.size(); ++a) {
    const AtomTerms& t = ff.atoms()[a];
    for (int k = 0; k < 3; ++k) {
      const Vec& p = x[a];
      const Vec& q = x[t.nbr[k]];
      const double r = wirz::norm(wirz::V3{q[0] - p[0], q[1] - p[1], q[2] - p[2]});
      worst = std::max(worst, std::abs(r - t.arc[k].r0) / t.arc[k].r0);
    }
  }
  return worst;
}

}  // namespace

OptimizeResult optimize(const CubicGraph& g, std::span<Vec> x, const OptimizeOptions& options) {
  const ForceField ff(g, {.flatness = options.flatness});
  const int n = ff.size();
  if (static_cast<int>(x.size()) != n)
    throw Error("fullerene optimiser: " + std::to_string(x.size()) + " positions for " + std::to_string(n) + " atoms");
  const int max_iterations = options.max_iterations > 0 ? options.max_iterations : 5 * n;

  std::vector<Vec> grad(n), grad_new(n), dir(n), trial(n), grad_trial(n);
  OptimizeResult result;
  result.energy = ff.energy_and_gradient(x, grad);
  const auto normalise = [](std::span<Vec> v) {
    const double scale = 1.0 / std::sqrt(dot(v, v));
    for (Vec& p : v)
      for (double& c : p) c *= scale;
  };
  const auto steepest_descent = [&] {
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) dir[i][c] = -grad[i][c];
    normalise(dir);
  };
  steepest_descent();
  bool steepest = true;
  double last_decrease = 0;  // alpha times the slope along dir of the last step (wolfe)

  for (int it = 0;; ++it) {
    result.iterations = it;
    result.grad_norm = std::sqrt(dot(grad, grad)) / n;
    if (!std::isfinite(result.grad_norm) || !std::isfinite(result.energy)) {
      result.status = OptimizeStatus::failed;
      return result;
    }
    if (result.grad_norm < options.gradient_tolerance && max_bond_error(ff, x) < options.bond_tolerance) {
      result.status = OptimizeStatus::converged;
      return result;
    }
    if (it >= max_iterations) {
      result.status = OptimizeStatus::failed;
      return result;
    }

    double alpha = 0;
    bool at_trial = false;  // trial and grad_trial hold x + alpha dir and its gradient ...
    double trial_energy = 0;  // ... and this its energy
    if (options.line_search == LineSearch::golden) {
      alpha = golden_section(
          [&](double a) {
            step(x, a, dir, trial);
            return ff.energy(trial);
          },
          result.energy);
    } else {
      double slope = dot(grad, dir);
      if (!(slope < 0)) {  // after an inexact step the CG direction may not descend: restart
        steepest_descent();
        steepest = true;
        slope = dot(grad, dir);
      }
      const LineStep<double> ls = wolfe_search(
          [&](double a, double& e, double& s) {
            step(x, a, dir, trial);
            e = ff.energy_and_gradient(trial, grad_trial);
            s = dot(grad_trial, dir);
          },
          result.energy, slope, first_step(last_decrease, slope), kMaxLineStep);
      alpha = ls.alpha;
      at_trial = ls.at_last_probe;
      trial_energy = ls.energy;
      if (alpha > 0) last_decrease = alpha * slope;
    }
    // No step along steepest descent: every later iteration would repeat this one exactly
    // (same x, gradient and direction), so the budget is spent here and now.
    if (alpha == 0 && steepest) {
      result.status = OptimizeStatus::failed;
      return result;
    }
    double beta = 0;
    if (alpha > 0) {
      if (at_trial) {  // the search's last probe: its coordinates and gradient, as computed
        std::copy(trial.begin(), trial.end(), x.begin());
        std::swap(grad_new, grad_trial);
        result.energy = trial_energy;
      } else {
        step(x, alpha, dir, x);
        result.energy = ff.energy_and_gradient(x, grad_new);
      }
      std::vector<Vec> change(n);
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) change[i][c] = grad_new[i][c] - grad[i][c];
      beta = options.line_search == LineSearch::golden ? polak_ribiere(dot(change, grad_new), dot(grad, grad))
                                                        : hestenes_stiefel(dot(change, grad_new), dot(dir, change));
      std::swap(grad, grad_new);
    }
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) dir[i][c] = -grad[i][c] + beta * dir[i][c];
    normalise(dir);
    steepest = beta == 0;
  }
}

}  // namespace molstep::fullerene
