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

struct EamLaunch {
  std::size_t n;
  DeviceBox box;
  const Packed4* pos;
  kernels::Tables tables;     ///< embedding tables, cutoff and grid
  kernels::EamPacked packed;  ///< the r-tables as packed records
  const DeviceList* list;
  int *inner_index, *inner_count;  ///< the list compacted to the cutoff (same stride)
  double* rho;                     ///< n densities (half list only; summed with atomics)
  Packed4* pf;                     ///< n records (x, y, z, F'(rho)) from the density pass
  double *fx, *fy, *fz;
  kernels::EvOut ev;
  Kick kick;
};

/// EAM, as lj_forces: density pass (with the list compaction), embedding, force pass.
void eam_forces(const EamLaunch& a, bool ev, bool mixed, int tpa);

}  // namespace molstep::md::cuda::variants
