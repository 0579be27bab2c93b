// SPDX-License-Identifier: MIT
// The lockstep optimiser's host entry points in a build without the CUDA toolkit.
#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/optimize_cuda.hpp"

namespace molstep::fullerene::cuda {

std::vector<EnergyGradient> energy_gradient_on_gpu(const std::vector<CubicGraph>&,
                                                   const std::vector<std::vector<std::array<double, 3>>>&, bool) {
  throw Error("this molstep was built without CUDA: the GPU force field is not available");
}

std::vector<GpuOptimized> optimize_on_gpu(const std::vector<CubicGraph>&,
                                          const std::vector<std::vector<std::array<double, 3>>>&,
                                          const OptimizeOptions&, bool, int) {
  throw Error("this molstep was built without CUDA: the GPU optimiser is not available");
}

}  // namespace molstep::fullerene::cuda
