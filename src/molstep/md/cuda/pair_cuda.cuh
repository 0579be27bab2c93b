// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/potentials/pair.hpp"

namespace molstep::md::cuda {

/// The GPU twin of a pair style: full-list kernels with one thread per atom that write only
/// their own atom (no atomics, so results repeat exactly), per-atom energies and virials reduced
/// on the device when asked for. Opt-in variants (gpu::Tuning, pair_variants.cuh): a half list
/// (followed when the list was built half: atomics, kick in a kernel of its own) and 2, 4 or 8
/// threads per atom (MOLSTEP_CUDA_TPA, read at make()).
class PairCuda {
 public:
  /// lj/cut, eam, eam/alloy and eam/comd have twins; anything else is an error naming the style.
  /// `mixed`: single-precision pair arithmetic, double accumulation (--precision mixed).
  static std::unique_ptr<PairCuda> make(const potentials::PairStyle& style, int ntypes, bool mixed);
  virtual ~PairCuda() = default;

  /// Overwrites the forces (then applies `kick` when on); with energy_virial also fills the
  /// per-atom energy and virial.
  virtual void compute(DeviceAtoms& atoms, const DeviceBox& box, const DeviceList& list, bool energy_virial,
                       const Kick& kick) = 0;
  /// Sums the per-atom energies and virials of the last compute with energy_virial.
  potentials::EnergyVirial reduce(std::size_t n);
  [[nodiscard]] virtual std::size_t bytes() const;

 protected:
  void ensure_ev(std::size_t n);
  gpu::DeviceArray<double> e_, w_[6];
  gpu::DeviceArray<double> sum_;
  gpu::DeviceArray<unsigned char> scratch_;
};

}  // namespace molstep::md::cuda
