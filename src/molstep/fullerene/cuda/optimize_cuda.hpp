// SPDX-License-Identifier: MIT
#pragma once

// Host entry points of the lockstep optimiser for tests and tools: whole batches in, results
// out, no CUDA types. Builds without CUDA throw molstep::Error from every function.

#include <array>
#include <vector>

#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/isomerspace.hpp"
#include "molstep/fullerene/optimize.hpp"

namespace molstep::fullerene::cuda {

struct EnergyGradient {
  double energy = 0;
  std::vector<std::array<double, 3>> gradient;
};

/// The Wirz energy and gradient of each (graph, coordinates) pair, computed on the GPU in double
/// precision, one block per pair. All graphs must have the same size.
[[nodiscard]] std::vector<EnergyGradient> energy_gradient_on_gpu(
    const std::vector<CubicGraph>& graphs, const std::vector<std::vector<std::array<double, 3>>>& positions,
    bool flatness = false);

struct GpuOptimized {
  IsomerStatus status = IsomerStatus::failed;
  int iterations = 0;
  std::vector<std::array<double, 3>> positions;
};

/// Optimises each (graph, start coordinates) pair on the GPU with the lockstep optimiser,
/// `chunk` CG iterations per launch (0: N/2), until every one has finished. `single` runs the
/// block's arithmetic in float.
[[nodiscard]] std::vector<GpuOptimized> optimize_on_gpu(const std::vector<CubicGraph>& graphs,
                                                        const std::vector<std::vector<std::array<double, 3>>>& positions,
                                                        const OptimizeOptions& options = {}, bool single = false,
                                                        int chunk = 0);

}  // namespace molstep::fullerene::cuda
