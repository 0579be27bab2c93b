// SPDX-License-Identifier: MIT
// The GPU properties stage in a build without the CUDA toolkit.
#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/properties_cuda.hpp"

namespace molstep::fullerene::cuda {

std::vector<IsomerProperties> properties_on_gpu(const std::vector<CubicGraph>&,
                                                const std::vector<std::vector<std::array<double, 3>>>&, bool) {
  throw Error("this molstep was built without CUDA (configure with the CUDA toolkit installed, or use --device cpu)");
}

}  // namespace molstep::fullerene::cuda
