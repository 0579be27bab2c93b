// SPDX-License-Identifier: MIT
// The GPU graph stages of a build without the CUDA toolkit.
#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/graph_stages.hpp"

namespace molstep::fullerene::cuda {

GraphStagesOutput run_graph_stages(const std::vector<Triangulation>&, std::span<const int>) {
  throw Error(
      "this molstep was built without CUDA (configure with the CUDA toolkit installed to run the GPU fullerene "
      "stages)");
}

}  // namespace molstep::fullerene::cuda
