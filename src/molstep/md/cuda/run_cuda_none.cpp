// SPDX-License-Identifier: MIT
// The CUDA entry points of a build without the CUDA toolkit.
#include "molstep/core/error.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/simulation.hpp"

namespace molstep::md::cuda {

int device_count() { return 0; }

std::string device_summary() { return {}; }

int threads_per_atom(std::size_t) { return 1; }

RunSummary run(Simulation&, long) {
  throw Error("this molstep was built without CUDA (configure with the CUDA toolkit installed, or use --device cpu)");
}

}  // namespace molstep::md::cuda
