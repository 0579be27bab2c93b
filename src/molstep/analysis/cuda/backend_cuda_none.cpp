// SPDX-License-Identifier: MIT
#include "molstep/analysis/backend.hpp"
#include "molstep/core/error.hpp"

namespace molstep::analysis {

std::unique_ptr<Backend> make_cuda_backend(Plan) {
  throw Error("--device cuda: this molstep was built without CUDA; use --device cpu");
}

}  // namespace molstep::analysis
