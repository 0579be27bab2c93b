// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/cuda/cell_bins.cuh"
#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/cuda/step_status.cuh"

namespace molstep::md::cuda {

/// neigh_modify's rule for when the list is rebuilt, as the device applies it.
struct ListRule {
  int every = 1, delay = 0;
  bool check = true;
  double skin = 0.0;
};

/// Builds full neighbour lists on the GPU and decides there when to: at the steps where a build
/// may fall due, a displacement check and a one-thread decision write StepStatus, and the build's
/// kernels (binning, CellBins; reordering the atoms by cell, so cell neighbours are memory
/// neighbours; listing every atom within the list cutoff, minimum image, from the cells half the
/// cutoff wide within two of the atom's, pruned to those the cutoff reaches) return at once
/// unless it says build. Nothing here waits for the device except build_now() and repair().
/// Opt-in variants (gpu::Tuning): a half list (MOLSTEP_CUDA_LIST=half), atoms left unsorted with
/// the cells reached through the sorted index (MOLSTEP_CUDA_SORT=0), a padded list stride
/// (MOLSTEP_CUDA_PAD=N), cells as wide as the cutoff and the 27 around the atom's searched
/// (MOLSTEP_CUDA_BINS=full, the same list).
class NeighborCuda {
 public:
  /// `by_distance`: a full list's entries of each atom come nearest first, in shells of the
  /// distance (what the pair style asks for: PairCuda::list_by_distance), not by partner index;
  /// ignored from 2^28 atoms on (the build tags entries with their shells in the top bits).
  NeighborCuda(const DeviceBox& box, double list_cutoff, const ListRule& rule, std::size_t atoms,
               bool by_distance = false);

  /// At a step where a build may fall due ((step - first step of the run) a multiple of `every`):
  /// the displacement check, the decision (StepStatus::rebuild, ::ago, ::builds, ::step) and the
  /// build (enqueue_build). `checked`: the step before's force kernel made the check (Drift),
  /// only the decision is left. In a CUDA graph the build is a branch (gpu::GraphBranch) that
  /// the decision takes only where it builds: a replayed step with no build skips its kernels.
  void enqueue_step(DeviceAtoms& atoms, DeviceList& list, StepStatus* status, bool checked = false);
  /// The check of a Drift for a step whose decision runs: the positions of the last build and
  /// (half the skin)^2 beyond which an atom has moved too far; hold is null where
  /// neigh_modify check no leaves nothing to check.
  struct Check {
    const Packed4* hold;
    double trigger;
  };
  [[nodiscard]] Check displacement_check() const;
  /// The build, doing its work only where the decision (or the host) set StepStatus::rebuild.
  /// A list overflow records the count needed and halts the run (see repair()).
  void enqueue_build(DeviceAtoms& atoms, DeviceList& list, StepStatus* status);
  /// A build now (the run's setup): waits for it, and grows the list until it fits.
  void build_now(DeviceAtoms& atoms, DeviceList& list, StepStatusChannel& status);
  /// After the device halted at a build: throws molstep::Error for an atom that was lost,
  /// otherwise grows the list to fit and lists again until it does (waits), then clears the
  /// halt. Returns whether the list was reallocated (graphs that read it must be captured anew).
  bool repair(DeviceAtoms& atoms, DeviceList& list, StepStatusChannel& status);
  [[nodiscard]] std::size_t bytes() const;

 private:
  void enqueue_list(DeviceAtoms& atoms, DeviceList& list, StepStatus* status);
  /// Sizes the list for `max_neighbors` slots per atom (a first guess from the density when 0).
  void size_list(DeviceList& list, std::size_t atoms) const;

  DeviceBox box_;
  double cutoff_;
  ListRule rule_;
  bool by_distance_;  ///< full lists in shells of distance (list_kernel's BY_DISTANCE)
  bool permute_;  ///< the atoms are reordered by cell (MOLSTEP_CUDA_SORT=1)
  bool narrow_;   ///< cells half the cutoff wide, rows pruned per atom (MOLSTEP_CUDA_BINS=half)
  CellBins bins_;
  gpu::DeviceArray<Packed4> hold_;       ///< positions of the last build, for the check
  gpu::DeviceArray<unsigned char> tmp_;  ///< the reordering's scratch: 48 bytes per atom
};

}  // namespace molstep::md::cuda
