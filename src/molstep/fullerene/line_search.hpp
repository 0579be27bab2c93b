// SPDX-License-Identifier: MIT
// The optimiser's line search, one template for the CPU (optimize.cpp) and the GPU kernel
// (cuda/optimize_cuda.cu), so that both probe the same step lengths in the same order.
#pragma once

#include "molstep/fullerene/wirz_terms.hpp"

namespace molstep::fullerene {

/// Golden-section search for the minimum of E(alpha) = energy_at(alpha) on [0, 1], with a fixed
/// 20 reductions of the bracket (the Fullerene program's search; the direction has unit norm,
/// so alpha is the step's length in Angstrom). Returns the final bracket's midpoint, or 0 when
/// even the better of the last two probes is above e0 = E(0): no step then.
template <class T, class Energy>
MOLSTEP_WIRZ_HD T golden_section(const Energy& energy_at, T e0) {
  const T tau = static_cast<T>(0.6180339887);
  T a = 0, b = 1;
  T x1 = a + (1 - tau) * (b - a), x2 = a + tau * (b - a);
  T f1 = energy_at(x1), f2 = energy_at(x2);
  for (int i = 0; i < 20; ++i) {
    if (f1 < f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = a + (1 - tau) * (b - a);
      f1 = energy_at(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + tau * (b - a);
      f2 = energy_at(x2);
    }
  }
  return f1 > e0 ? T(0) : T(0.5) * (a + b);
}

}  // namespace molstep::fullerene
