// SPDX-License-Identifier: MIT
// The opt-in variants of the pair kernels (gpu::Tuning, issue 4's measurements): a half
// neighbour list with atomicAdd on the partner's force (MOLSTEP_CUDA_LIST=half) and 2, 4 or 8
// threads per atom (MOLSTEP_CUDA_TPA). The kernel templates are the defaults' too: their
// full-list instances with PairCuda::threads_per_atom() threads are what PairCuda calls when no
// variant is asked for.
#pragma once

#include <cstddef>

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/cuda/pair_kernels.cuh"
#include "molstep/md/potentials/lj.hpp"

namespace molstep::md::cuda::variants {

struct LjLaunch {
  std::size_t n;
  DeviceBox box;
  const Packed4* pos;
  const potentials::LjTerms* terms;
  int stride;  ///< of the type-pair table
  const DeviceList* list;
  double *fx, *fy, *fz;
  kernels::EvOut ev;
  Kick kick;
};

/// Lennard-Jones forces (and with `ev` per-atom energies and virials) from `list`, half or full
/// as it was built, with `tpa` threads per atom; then the kick when on. With a half list the
/// forces are zeroed first, summed with atomics, and the kick runs as a separate kernel.
void lj_forces(const LjLaunch& a, bool ev, bool mixed, int tpa);

/// EAM's inner lists: the pairs of the full list within the cutoff plus a buffer, which the
/// density pass walks at every step and prunes again from the full list only when it may have
/// lost a pair (MOLSTEP_CUDA_PRUNE): when an atom has moved more than half the buffer since the
/// last pruning (two atoms then may have closed the buffer between them), or the list was built
/// since (its epoch changed: the atoms may be renumbered); and the pairs within the cutoff,
/// which the density pass writes at every step for the force pass (walking the buffered list
/// there cost the force pass 20% at 2M atoms: a lane whose entry lies in the buffer idles
/// through the round's table loads).
struct InnerList {
  /// Kept in device memory, zeroed at the start.
  struct State {
    int due;                ///< this step prunes (set by the check before the density pass)
    unsigned epoch;         ///< the full list's epoch at the last pruning (0: never pruned)
    unsigned long long prunings, passes;  ///< density passes that pruned, and all of them
  };
  int *index, *count;          ///< the pairs within the buffer, in the full list's order (same stride)
  int *cut_index, *cut_count;  ///< the pairs within the cutoff, in the same order
  double cutsq;        ///< (cutoff + buffer)^2: the pairs kept
  double trigger;      ///< a squared displacement since the last pruning beyond which it is due
  Packed4* hold;       ///< positions at the last pruning
  State* state;
};

struct EamLaunch {
  std::size_t n;
  DeviceBox box;
  const Packed4* pos;
  kernels::Tables tables;     ///< embedding tables, cutoff and grid
  kernels::EamPacked packed;  ///< the r-tables as packed records
  kernels::EamWindow window;  ///< one element's r-tables for shared memory (points 0: none, read `packed`)
  const DeviceList* list;
  InnerList inner;
  double* rho;                     ///< n densities (half list only; summed with atomics)
  Packed4* pf;                     ///< n records (x, y, z, F'(rho)) from the density pass
  double *fx, *fy, *fz;
  kernels::EvOut ev;
  Kick kick;  ///< with kick.drift.on (full list only) also the next step's drift and checks
  bool checked = false;  ///< the step before's force kernel checked the inner list's displacements
};

/// EAM, as lj_forces: whether the inner list is due for pruning, the density pass (pruning it
/// when due), embedding, force pass.
void eam_forces(const EamLaunch& a, bool ev, bool mixed, int tpa);

}  // namespace molstep::md::cuda::variants
