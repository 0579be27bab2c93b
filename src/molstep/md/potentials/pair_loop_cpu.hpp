// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "molstep/core/parallel.hpp"
#include "molstep/md/neighbor/neighbor_list.hpp"
#include "molstep/md/neighbor/packed.hpp"
#include "molstep/md/potentials/pair.hpp"

namespace molstep::md::potentials {

/// The CPU pair loops, shared by every pairwise-additive style. `Eval` provides
///   template <bool EV> double operator()(double rsq, int ti, int tj, double& e) const
/// returning fpair = -dE/dr / r (so F_i = fpair * (x_i - x_j)) and, with EV, the pair energy e;
/// both are zero beyond the cutoff.
///
/// Half lists run slab by slab, even slabs concurrently and then odd ones (see NeighborList), so
/// every atom receives its contributions in the same order on any thread count.
/// Runs body(slab) for every slab of a half list: even slabs concurrently, then odd ones. A
/// body that writes only to atoms of its slab, the next slab and images is race free, and every
/// atom receives its contributions in the same order on any thread count (see NeighborList).
template <class Body>
void for_each_slab(const neighbor::NeighborList& list, Body&& body) {
  const long nslab = static_cast<long>(list.slabs.size()) - 1;
  for (long phase = 0; phase < 2; ++phase) {
#pragma omp parallel for schedule(dynamic, 1) if (list.nlocal >= core::kParallelMinAtoms)
    for (long s = phase; s < nslab; s += 2) body(static_cast<std::size_t>(s));
  }
}

/// The half-list loop of a pairwise-additive style, slab by slab (for_each_slab).
template <bool EV, bool NEWTON, class Eval>
EnergyVirial pair_loop_half(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                            std::vector<neighbor::PackedForce>& forces, const Eval& eval) {
  const std::size_t nlocal = list.nlocal;
  std::vector<EnergyVirial> partial(list.slabs.size() - 1);
  const auto* nb = list.neighbors.data();
  const auto* off = list.offsets.data();
  const neighbor::PackedAtom* x = atoms.data();
  neighbor::PackedForce* f = forces.data();
  for_each_slab(list, [&](std::size_t s) {
    EnergyVirial ev;
    for (std::size_t i = list.slabs[s]; i < list.slabs[s + 1]; ++i) {
      const double xi = x[i].x, yi = x[i].y, zi = x[i].z;
      const int ti = x[i].type;
      double fxi = 0.0, fyi = 0.0, fzi = 0.0;
      for (std::uint32_t k = off[i]; k < off[i + 1]; ++k) {
        const std::uint32_t j = nb[k];
        const double dx = xi - x[j].x, dy = yi - x[j].y, dz = zi - x[j].z;
        const double rsq = dx * dx + dy * dy + dz * dz;
        double e = 0.0;
        const double fpair = eval.template operator()<EV>(rsq, ti, x[j].type, e);
        fxi += dx * fpair;
        fyi += dy * fpair;
        fzi += dz * fpair;
        const bool both = NEWTON || j < nlocal;
        if (both) {
          f[j].x -= dx * fpair;
          f[j].y -= dy * fpair;
          f[j].z -= dz * fpair;
        }
        if constexpr (EV) ev.add_pair(both ? 1.0 : 0.5, e, fpair, dx, dy, dz);
      }
      f[i].x += fxi;
      f[i].y += fyi;
      f[i].z += fzi;
    }
    partial[s] = ev;
  });
  EnergyVirial total;
  for (const auto& p : partial) total += p;
  return total;
}

/// Full lists: each atom sums over all its neighbours and writes only itself.
template <bool EV, class Eval>
EnergyVirial pair_loop_full(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                            std::vector<neighbor::PackedForce>& forces, const Eval& eval) {
  const std::size_t nlocal = list.nlocal;
  std::vector<EnergyVirial> partial(nlocal);
  const neighbor::PackedAtom* x = atoms.data();
#pragma omp parallel for schedule(static) if (nlocal >= core::kParallelMinAtoms)
  for (std::size_t i = 0; i < nlocal; ++i) {
    const double xi = x[i].x, yi = x[i].y, zi = x[i].z;
    double fxi = 0.0, fyi = 0.0, fzi = 0.0;
    EnergyVirial ev;
    for (std::uint32_t k = list.offsets[i]; k < list.offsets[i + 1]; ++k) {
      const std::uint32_t j = list.neighbors[k];
      const double dx = xi - x[j].x, dy = yi - x[j].y, dz = zi - x[j].z;
      const double rsq = dx * dx + dy * dy + dz * dz;
      double e = 0.0;
      const double fpair = eval.template operator()<EV>(rsq, x[i].type, x[j].type, e);
      fxi += dx * fpair;
      fyi += dy * fpair;
      fzi += dz * fpair;
      if constexpr (EV) ev.add_pair(0.5, e, fpair, dx, dy, dz);
    }
    forces[i].x += fxi;
    forces[i].y += fyi;
    forces[i].z += fzi;
    if constexpr (EV) partial[i] = ev;
  }
  EnergyVirial total;
  if constexpr (EV)
    for (const auto& p : partial) total += p;
  return total;
}

/// Dispatches on list kind, newton and whether energy/virial are wanted.
template <class Eval>
EnergyVirial pair_loop(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                       std::vector<neighbor::PackedForce>& forces, const Eval& eval, bool ev) {
  if (list.full) return ev ? pair_loop_full<true>(list, atoms, forces, eval) : pair_loop_full<false>(list, atoms, forces, eval);
  if (list.newton)
    return ev ? pair_loop_half<true, true>(list, atoms, forces, eval) : pair_loop_half<false, true>(list, atoms, forces, eval);
  return ev ? pair_loop_half<true, false>(list, atoms, forces, eval) : pair_loop_half<false, false>(list, atoms, forces, eval);
}

}  // namespace molstep::md::potentials
