// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include "molstep/fullerene/cuda/isomer_batch.cuh"
#include "molstep/fullerene/optimize.hpp"

namespace molstep::fullerene::cuda {

/// What the lockstep optimiser does per launch; the criteria are fullerene::OptimizeOptions'.
struct OptimiseSettings {
  int max_iterations = 0;  ///< CG iterations before an isomer fails; 0 means 5 N
  /// CG iterations per launch: an isomer that needs more stays kOptimising, its state (x,
  /// direction, steepest, iterations) saved in the batch, and continues exactly where it stopped
  /// at the next launch, so the queue can swap finished isomers out in between (with the Wolfe
  /// search, also the last step's decrease, from which the next first probe follows).
  /// 0 means N: with the Wolfe optimiser most isomers finish in one launch (C200, first 200,000 on
  /// an H100, double: chunks of 25, 50, 100, 200, 400 iterations gave 26,800, 28,400, 30,100,
  /// 32,800, 32,600 isomers/s end to end; fewer rounds, each a host round trip; bench/RESULTS.md).
  int chunk = 0;
  double gradient_tolerance = 1e-2;
  double bond_tolerance = 0.1;
  bool flatness = false;
  bool single = false;  ///< float arithmetic inside the block (coordinates stay double in the batch)
  LineSearch line_search = LineSearch::wolfe;
};

/// One lockstep pass of the Wirz optimiser (fullerene::optimize's Polak-Ribiere+ CG with its
/// line search, golden-section or Wolfe) over the batch: one block per slot, one thread per atom,
/// coordinates, trial coordinates and the per-atom gradient pieces in shared memory. A kNew slot
/// (its start geometry already projected) starts its CG run; kOptimising slots continue theirs.
/// A slot that converges, fails or turns non-finite gets kConverged, kFailed or kInvalid.
void launch_optimise(const BatchView& b, const OptimiseSettings& s, cudaStream_t stream);

/// Blocks of the optimiser that the device runs at once for C_atoms with these settings: the
/// batch size at which every slot is worked on in the same wave.
[[nodiscard]] int optimise_resident_blocks(int atoms, const OptimiseSettings& s);

/// Energy and gradient (double precision) of every kNew or kOptimising slot's coordinates, into
/// energy[slot] and gradient[slot * atoms * 3 ...]; slots in other states are left alone.
void launch_energy_gradient(const BatchView& b, bool flatness, double* energy, double* gradient,
                            cudaStream_t stream);

}  // namespace molstep::fullerene::cuda
