// SPDX-License-Identifier: MIT
#pragma once

// The GPU properties stage seen from plain C++ (no CUDA headers), for tests and tools: a batch
// of isomers in, their IsomerProperties out. The pipeline itself drives the stage through
// properties_cuda.cuh.

#include <array>
#include <vector>

#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/properties.hpp"

namespace molstep::fullerene::cuda {

/// IsomerProperties of each (graph, positions) pair computed on the GPU (one batch slot each;
/// all graphs of one size), with the optional flatness term in the energy. Agrees with
/// isomer_properties(ForceField(graph, {.flatness}), positions) to rounding. Throws
/// molstep::Error for mismatched sizes, an unsupported size, a missing CUDA device or a failed
/// CUDA call ("this molstep was built without CUDA ..." in a build without it). A graph that is
/// not a fullerene gets NaN in every field.
[[nodiscard]] std::vector<IsomerProperties> properties_on_gpu(
    const std::vector<CubicGraph>& graphs, const std::vector<std::vector<std::array<double, 3>>>& positions,
    bool flatness = false);

}  // namespace molstep::fullerene::cuda
