// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/potentials/pair.hpp"

namespace molstep::md::cuda {

/// The GPU twin of a pair style: full-list kernels in which the threads of an atom (one, or a
/// group of 2 or 4 for a system too small to fill the GPU otherwise: threads_per_atom()) write
/// only their own atom (no atomics, so results repeat exactly), per-atom energies and virials
/// reduced on the device when asked for. Opt-in variants (gpu::Tuning, pair_variants.cuh): a
/// half list (followed when the list was built half: atomics, kick in a kernel of its own) and
/// a fixed 1, 2, 4 or 8 threads per atom (MOLSTEP_CUDA_TPA, read at make()).
class PairCuda {
 public:
  /// lj/cut, eam, eam/alloy and eam/comd have twins; anything else is an error naming the style.
  /// `mixed`: single-precision pair arithmetic, double accumulation (--precision mixed).
  /// `atoms`: the atom count, which sets the threads per atom; `skin`: the neighbour list's,
  /// within which EAM keeps its inner list (gpu::Tuning::prune).
  static std::unique_ptr<PairCuda> make(const potentials::PairStyle& style, int ntypes, bool mixed,
                                        std::size_t atoms, double skin);
  virtual ~PairCuda() = default;

  /// MOLSTEP_CUDA_TPA where set; otherwise 4 for a system of at most a third as many atoms as
  /// the device holds resident threads (SMs x threads per SM: 90,112 atoms on an H100), else 1.
  /// One thread per atom leaves a small system's SMs mostly idle: LJ at 32,000 atoms ran 1.9x
  /// and EAM 1.65x faster with 4; from about 100,000 atoms up one thread is as fast or faster,
  /// and 2 was never the best for EAM (bench/RESULTS.md, run 11).
  static int threads_per_atom(std::size_t atoms);
  /// How many arrays the size of the neighbour list a run with `style` keeps (for the memory
  /// check before it): the list, and for EAM its inner lists too (two, or one without a buffer:
  /// gpu::Tuning::prune).
  static int list_copies(const potentials::PairStyle& style);
  /// Whether a run with `style` on `atoms` atoms wants each atom's list entries nearest first
  /// (gpu::Tuning::list_order): by default for EAM with one thread per atom. (The lanes of a
  /// group read consecutive entries of one atom, which in index order are often neighbours in
  /// memory: EAM at 32,000 atoms with 4 threads per atom ran 9% slower by distance.)
  static bool list_by_distance(const potentials::PairStyle& style, std::size_t atoms);

  /// Overwrites the forces (then applies `kick` when on, and its drift where kick.drift.on:
  /// only for a style that drifts()); with energy_virial also fills the per-atom energy and
  /// virial. `checked`: the step before's force kernel made this step's displacement checks
  /// (its kick's drift was on).
  virtual void compute(DeviceAtoms& atoms, const DeviceBox& box, const DeviceList& list, bool energy_virial,
                       const Kick& kick, bool checked) = 0;
  /// Whether the force kernel can apply the next step's half kick and drift (Drift): EAM with a
  /// full list, whose force pass reads its partners' positions from a copy (the density pass's
  /// (x, y, z, F') records) and so may overwrite the positions. LJ reads them where they are.
  [[nodiscard]] virtual bool drifts() const { return false; }
  /// Sums the per-atom energies and virials of the last compute with energy_virial.
  potentials::EnergyVirial reduce(std::size_t n);
  /// A line for the run summary about what the kernels did, or empty (waits for the device).
  [[nodiscard]] virtual std::string summary() const { return {}; }
  [[nodiscard]] virtual std::size_t bytes() const;

 protected:
  void ensure_ev(std::size_t n);
  gpu::DeviceArray<double> e_, w_[6];
  gpu::DeviceArray<double> sum_;
  gpu::DeviceArray<unsigned char> scratch_;
};

}  // namespace molstep::md::cuda
