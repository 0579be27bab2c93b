// SPDX-License-Identifier: MIT
// The graph stages of the lockstep GPU pipeline: one block per isomer slot, one thread per atom.
#pragma once

#include <cuda_runtime.h>

#include "molstep/fullerene/cuda/isomer_batch.cuh"

namespace molstep::fullerene::cuda {

/// For every slot with status kNew: `cubic` = the fullerene whose dual is `dual`/`degree`, atom
/// for atom and neighbour for neighbour equal to fullerene::dualize(const Triangulation&).
/// Enqueued on `s`; changes no status. Throws molstep::Error for more than 1024 atoms.
void launch_dualize(const BatchView& b, cudaStream_t s);

/// For every slot with status kNew: `layout` = fullerene::tutte_layout(cubic) with its default
/// options (conjugate gradients on the free atoms, both coordinates in one loop). A slot whose
/// graph is not a cubic graph with symmetric neighbour lists and a closed outer face, or whose
/// solve does not converge, becomes kInvalid and keeps its old layout. Enqueued on `s`.
void launch_tutte(const BatchView& b, cudaStream_t s);

/// For every slot with status kNew: `x` = fullerene::spherical_projection(cubic, layout) with
/// mean bond kProjectionMeanBond. Per-depth centroids are summed in atom order, as on the CPU;
/// the other sums are block sums (fixed order). A slot whose graph cannot be projected (a
/// neighbour out of range, an outer face that does not close, atoms unreachable from it) becomes
/// kInvalid; after a successful launch_tutte that does not happen. Enqueued on `s`.
void launch_projection(const BatchView& b, cudaStream_t s);

}  // namespace molstep::fullerene::cuda
