// SPDX-License-Identifier: MIT
// The optimiser's line searches, one template each for the CPU (optimize.cpp) and the GPU kernel
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

/// The conjugate-gradient beta of the golden-section optimiser (the Fullerene program's), PR+:
/// max(0, g'.(g' - g) / g.g), from gy = g'.(g' - g) and gg = g.g.
template <class T>
MOLSTEP_WIRZ_HD T polak_ribiere(T gy, T gg) {
  return gy / gg > T(0) ? gy / gg : T(0);
}

/// The conjugate-gradient beta of the Wolfe optimiser, HS+: max(0, g'.y / d.y) with
/// y = g' - g and d the direction searched (any scale: beta d is the same), from gy = g'.y and
/// dy = d.y; 0 (a restart) where d.y is not positive, which the strong Wolfe conditions rule out.
/// Polak-Ribiere assumes an exact line search (d.g' = 0, where the two agree); with the Wolfe
/// search's inexact steps Hestenes-Stiefel took 171 CG iterations on average over 200 C200
/// isomers (every 173rd) against PR+'s 379, and failed none against 14 (docs/fullerene.md).
template <class T>
MOLSTEP_WIRZ_HD T hestenes_stiefel(T gy, T dy) {
  return dy > T(0) && gy / dy > T(0) ? gy / dy : T(0);
}

/// wolfe_search's largest step for the optimiser, in Angstrom of the unit direction (the
/// golden-section search's bracket is [0, 1]). Mean CG iterations and failures of 200 C200
/// isomers (every 173rd) with Hestenes-Stiefel: largest step 1: 355, 1 failed; 3: 171, 0; 5:
/// 142, 1; 10: 126, 0; 15: 125, 2; 20: 132, 4; 30: 141, 16; 100: 125, 115. Beyond about 10 A
/// some steps carry a cage into a tangle it does not recover from (C100, 30 A: 25 of 60 failed,
/// energies up to 500 times the golden-section result's); 5 keeps a margin.
inline constexpr double kMaxLineStep = 5.0;

/// wolfe_search's first probe in a CG iteration: the step whose first-order decrease equals the
/// last step's (last_decrease = its alpha times its slope; Nocedal and Wright, eq. 3.60), or
/// 0.1 Angstrom before the first step.
template <class T>
MOLSTEP_WIRZ_HD T first_step(T last_decrease, T slope) {
  return last_decrease < 0 ? last_decrease / slope : T(0.1);
}

/// A step chosen by wolfe_search: its length (0: none), the energy there, and whether the
/// search's last probe was at it, so that the gradient that probe computed is the one there.
template <class T>
struct LineStep {
  T alpha;
  T energy;
  bool at_last_probe;
};

/// The next probe inside the bracket of lo (the best step so far: energy elo, slope slo) and hi
/// (the other end, finite or not): the minimum of the cubic through both ends' energies and
/// slopes (Nocedal and Wright, eq. 3.59), kept at least a tenth of the bracket from either
/// end; the bracket's midpoint where the cubic has no minimum or hi is not finite.
template <class T>
MOLSTEP_WIRZ_HD T cubic_probe(T lo, T elo, T slo, T hi, T ehi, T shi, bool hi_finite) {
  const T mid = T(0.5) * (lo + hi);
  if (!hi_finite) return mid;
  const T d1 = slo + shi - T(3) * (elo - ehi) / (lo - hi);
  const T disc = d1 * d1 - slo * shi;
  if (!(disc >= 0)) return mid;
  const T d2 = (hi > lo ? T(1) : T(-1)) * wirz::root(disc);
  const T a = hi - (hi - lo) * (shi + d2 - d1) / (shi - slo + T(2) * d2);
  const T near = lo + T(0.1) * (hi - lo), far = hi - T(0.1) * (hi - lo);
  const T low = near < far ? near : far, high = near < far ? far : near;
  if (!(a >= low && a <= high)) return a < low ? low : (a > high ? high : mid);  // NaN: the midpoint
  return a;
}

/// Line search for nonlinear conjugate gradients on E(alpha) = E(x + alpha s), with the slope
/// E'(alpha) = grad E(x + alpha s) . s: probe(alpha, e, slope) gives both at once. From e0 and
/// slope0 at alpha = 0 (slope0 < 0, else no step), it probes first `first` (at most max_step),
/// doubles the step while the energy still falls and the slope is negative, then narrows the
/// bracket by cubic interpolation (cubic_probe) until the strong Wolfe conditions hold:
/// E(alpha) <= e0 + 1e-4 alpha slope0 and |E'(alpha)| <= 0.5 |slope0|. Nonlinear CG usually
/// asks for 0.1 (Nocedal and Wright, section 5.2); for the Wirz force field the looser 0.5 takes
/// fewer CG iterations as well as fewer probes. Mean CG iterations of 200 C200 isomers (every
/// 173rd) with Polak-Ribiere and 0.1, 0.3, 0.5, 0.7, 0.9: 622, 441, 379, 410, 473 (CPU time 5.3,
/// 3.4, 2.7, 2.9, 3.2 s); with Hestenes-Stiefel (as the optimiser uses it) and 0.1, 0.3, 0.5,
/// 0.7: 165, 168, 171, 177 (1.45, 1.33, 1.32, 1.32 s). A step of max_step that still lowers the
/// energy is taken as it is. At most 12 probes: then the lowest-energy step probed that satisfied
/// the first condition, or none (alpha 0) if no probe did.
template <class T, class Probe>
MOLSTEP_WIRZ_HD LineStep<T> wolfe_search(const Probe& probe, T e0, T slope0, T first, T max_step) {
  constexpr int kProbes = 12;
  const T c1 = T(1e-4), c2 = T(0.5);
  if (!(slope0 < 0)) return {T(0), e0, false};
  T lo = 0, elo = e0, slo = slope0;  // the best step so far (0: none yet)
  T hi = 0, ehi = 0, shi = 0;        // the bracket's other end, once bracketed
  bool bracketed = false, hi_finite = true;
  T a = first < max_step ? first : max_step, last = 0;
  for (int k = 0; k < kProbes; ++k) {
    T e, s;
    probe(a, e, s);
    last = a;
    const bool finite = e - e == 0 && s - s == 0;  // false for NaN and infinities
    if (!finite || e > e0 + c1 * a * slope0 || e >= elo) {
      hi = a;  // past the minimum, or no lower than lo: the minimum lies between
      ehi = e;
      shi = s;
      hi_finite = finite;
      bracketed = true;
    } else {
      if ((s < 0 ? -s : s) <= -c2 * slope0) return {a, e, true};
      // Lower than lo: a becomes lo, and the minimum lies between a and lo where the slope at a
      // points back at lo (Nocedal and Wright, Algorithms 3.5 and 3.6), else between a and hi.
      if (bracketed ? s * (hi - lo) >= 0 : s > 0) {
        hi = lo;
        ehi = elo;
        shi = slo;
        hi_finite = true;
        bracketed = true;
      }
      lo = a;
      elo = e;
      slo = s;
      if (!bracketed && a >= max_step) return {a, e, true};
    }
    if (!bracketed) {
      a = T(2) * a < max_step ? T(2) * a : max_step;
    } else {
      const T next = cubic_probe(lo, elo, slo, hi, ehi, shi, hi_finite);
      if (next == lo || next == hi) break;  // the bracket is down to rounding
      a = next;
    }
  }
  if (lo > 0) return {lo, elo, lo == last};
  return {T(0), e0, false};
}

}  // namespace molstep::fullerene
