// SPDX-License-Identifier: MIT
// The lockstep GPU graph stages (dualise, Tutte, spherical projection) seen from plain C++: for
// tests and tools that must build without the CUDA headers.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "molstep/fullerene/cuda/slot_status.hpp"
#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene::cuda {

/// What the graph stages leave in each slot of a batch, copied back to the host.
struct GraphStagesOutput {
  std::vector<CubicGraph> graphs;                               ///< per slot: the fullerene (dualise)
  std::vector<std::vector<std::array<double, 2>>> layouts;      ///< per slot: the Tutte embedding
  std::vector<std::vector<std::array<double, 3>>> positions;    ///< per slot: the start geometry, Angstrom
  std::vector<int> status;                                      ///< per slot: SlotStatus after the stages
};

/// Runs dualise, Tutte and projection on the GPU for duals of one size (one slot each, in order)
/// and copies every slot back. `status` (if not empty, one per dual) gives each slot's status
/// before the run; by default every slot is kNew. The kernels act on kNew slots only: before they
/// run, every slot's neighbours are set to -1 and its layout and positions to NaN, so a slot they
/// skip, or leave when its Tutte solve fails (status kInvalid), comes back that way. Throws
/// molstep::Error when the duals differ in size or there is no usable GPU.
GraphStagesOutput run_graph_stages(const std::vector<Triangulation>& duals, std::span<const int> status = {});

}  // namespace molstep::fullerene::cuda
