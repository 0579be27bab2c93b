// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "molstep/core/error.hpp"

namespace molstep::gpu {

/// Turns a failed CUDA call into a molstep::Error naming the call.
inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw Error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace molstep::gpu

#define MOLSTEP_CUDA_CHECK(call) ::molstep::gpu::check((call), #call)
