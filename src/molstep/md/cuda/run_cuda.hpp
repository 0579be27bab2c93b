// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>

namespace molstep::md {
class Simulation;
struct RunSummary;
}  // namespace molstep::md

namespace molstep::md::cuda {

/// Number of usable CUDA devices: 0 when molstep was built without CUDA or none is present.
int device_count();

/// One line naming device 0 and its memory (empty when there is none).
std::string device_summary();

/// Threads per atom of the pair kernels for a system of `atoms` atoms on this device (see
/// PairCuda::threads_per_atom; 1 without CUDA).
int threads_per_atom(std::size_t atoms);

/// Runs `n` steps of `sim` with every per-step stage on the GPU (integration, binning and the
/// neighbour list, forces, energy and virial reductions). The host gets copies of the atoms only
/// at thermo and dump steps and at the end. Throws molstep::Error for what the GPU path does not
/// support yet (it names the alternative: --device cpu).
RunSummary run(Simulation& sim, long n);

}  // namespace molstep::md::cuda
