// SPDX-License-Identifier: MIT
#include "molstep/core/simd.hpp"
#include "molstep/md/potentials/lj.hpp"
#include "molstep/md/potentials/lj_cpu_avx2.hpp"
#include "molstep/md/potentials/pair_loop_cpu.hpp"

namespace molstep::md::potentials {

EnergyVirial PairLjCut::compute(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                                std::vector<neighbor::PackedForce>& forces, bool energy_virial) const {
  if (!list.full && core::simd_enabled())
    return lj_half_avx2(list, atoms, forces, evaluator(), ntypes_ == 1, energy_virial);
  return pair_loop(list, atoms, forces, evaluator(), energy_virial);
}

}  // namespace molstep::md::potentials
