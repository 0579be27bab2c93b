// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/neighbor/neighbor.hpp"
#include "molstep/md/potentials/lj.hpp"
#include "molstep/md/system.hpp"

namespace molstep::test {

/// A disordered two-type LJ system: `cells`^3 fcc cells at reduced density 0.8442 with every atom
/// displaced by up to `jitter` in each direction (deterministic), and every third atom of type 2.
md::System disordered_lj_system(int cells, double jitter);

/// lj/cut 2.5 with 1-1 (1, 1), 2-2 (0.5, 1.2) and mixed 1-2 terms.
md::potentials::PairLjCut two_type_lj(bool shift);

/// Rebuilds the neighbour list and computes forces; returns energy and virial. Forces end up
/// in system.atoms.f*.
md::potentials::EnergyVirial compute_pair(md::System& system, md::potentials::PairStyle& pair,
                                          md::neighbor::Neighbor& neighbor);

/// Index of the atom with `id` (atoms are reordered by neighbour builds).
std::size_t index_of(const md::System& system, std::int64_t id);

}  // namespace molstep::test
