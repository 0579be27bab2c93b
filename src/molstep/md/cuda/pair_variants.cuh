// SPDX-License-Identifier: MIT
// The opt-in variants of the pair kernels (gpu::Tuning, issue 4's measurements): a half
// neighbour list with atomicAdd on the partner's force (MOLSTEP_CUDA_LIST=half) and 2, 4 or 8
// threads per atom (MOLSTEP_CUDA_TPA). For LJ the kernel template is the default's too (its
// full-list, one-thread instance, which PairCuda calls when no variant is asked for); EAM's
// default kernels (packed tables, pair_cuda.cu) differ, and these are called only for variants.
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

struct EamLaunch {
  std::size_t n;
  DeviceBox box;
  const Packed4* pos;
  kernels::Tables tables;
  const DeviceList* list;
  int *inner_index, *inner_count;  ///< the list compacted to the cutoff (same stride)
  double* rho;                     ///< n densities (half list only; summed with atomics)
  double* fp;                      ///< n embedding derivatives
  double *fx, *fy, *fz;
  kernels::EvOut ev;
  Kick kick;
};

/// EAM, as lj_forces: density pass (with the list compaction), embedding, force pass.
void eam_forces(const EamLaunch& a, bool ev, bool mixed, int tpa);

}  // namespace molstep::md::cuda::variants
