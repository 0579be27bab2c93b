// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/potentials/lj.hpp"

namespace molstep::md::potentials {

/// The half-list Lennard-Jones loop of pair_loop_half, four neighbours at a time with AVX2 and
/// FMA (x86-64 only; call only when core::simd_enabled()). Same slab order, so still
/// independent of the thread count; results differ from the scalar loop by round-off only.
EnergyVirial lj_half_avx2(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                          std::vector<neighbor::PackedForce>& forces, const LjEval& eval, bool single_type,
                          bool energy_virial);

}  // namespace molstep::md::potentials
