// SPDX-License-Identifier: MIT
#include "molstep/core/simd.hpp"
#include "molstep/md/potentials/lj.hpp"
#include "molstep/md/potentials/lj_cpu_avx2.hpp"
#include "molstep/md/potentials/pair_loop_cpu.hpp"

namespace molstep::md::potentials {

EnergyVirial PairLjCut::compute(const PairInput& in, std::vector<neighbor::PackedForce>& forces, bool energy_virial) {
  if (!in.list.full && core::simd_enabled())
    return lj_half_avx2(in.list, in.atoms, forces, evaluator(), ntypes_ == 1, energy_virial);
  return pair_loop(in.list, in.atoms, forces, evaluator(), energy_virial);
}

}  // namespace molstep::md::potentials
