// SPDX-License-Identifier: MIT
// Where an isomer slot of a GPU batch stands: plain C++, so that the host code and tests that
// build without the CUDA headers (graph_stages.hpp) name the same values as the kernels.
#pragma once

#include <cstdint>

namespace molstep::fullerene::cuda {

/// The lockstep kernels run one block per slot and act only on the slots in the state they
/// handle, so a batch can hold isomers at different stages.
enum SlotStatus : std::int32_t {
  kEmpty = 0,       ///< free: the queue may fill it
  kNew = 1,         ///< holds a dual graph; the graph stages (dualise, Tutte, projection) are due
  kOptimising = 2,  ///< has a start geometry and CG state; more iterations are due
  kConverged = 3,   ///< done, converged (properties due, then drained)
  kFailed = 4,      ///< done: iteration budget spent or the line search stalled
  kInvalid = 5,     ///< done: energy or geometry not finite, or the Tutte solve failed
};

}  // namespace molstep::fullerene::cuda
