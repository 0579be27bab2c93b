// SPDX-License-Identifier: MIT
#include "molstep/md/potentials/lj.hpp"
#include "molstep/md/potentials/pair_loop_cpu.hpp"

namespace molstep::md::potentials {

EnergyVirial PairLjCut::compute(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                                std::vector<neighbor::PackedForce>& forces, bool energy_virial) const {
  return pair_loop(list, atoms, forces, evaluator(), energy_virial);
}

}  // namespace molstep::md::potentials
