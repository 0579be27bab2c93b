// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "molstep/analysis/plan.hpp"

namespace molstep::analysis {

/// Positions that live in GPU memory: atom k at packed[k * stride + 0..2], with atom id
/// id[k] (1-based, a permutation of 1..n), so the atom's index in selections is id[k] - 1.
struct DevicePositions {
  const double* packed = nullptr;
  int stride = 4;
  const std::int64_t* id = nullptr;
  std::size_t n = 0;
};

/// Where the engine's shared per-frame work runs: the fused one-body pass and the pair
/// histograms. A backend may work asynchronously: submit() starts a frame and returns, and
/// collect() waits for the oldest frame not yet collected. At most two frames are in flight, so
/// a caller keeps the submitted frame alive until its collect().
class Backend {
 public:
  virtual ~Backend() = default;
  virtual void submit(const core::Frame& frame) = 0;
  /// Like submit(), with the positions already on the GPU (a running molstep md): `frame` has
  /// the step, time and box only. Throws molstep::Error on a backend without a GPU.
  virtual void submit_device(const core::Frame& frame, const DevicePositions& positions);
  /// Moments of the oldest uncollected frame, by moments request.
  virtual std::vector<Moments> collect() = 0;
  /// Pair counts summed over every collected frame, by pairs request.
  virtual std::vector<std::vector<std::uint64_t>> pair_totals() = 0;
  [[nodiscard]] virtual std::string name() const = 0;
};

std::unique_ptr<Backend> make_cpu_backend(Plan plan);
/// Throws molstep::Error when molstep was built without CUDA or no GPU is present.
std::unique_ptr<Backend> make_cuda_backend(Plan plan);

/// The CPU kernels, also used by tests as the reference for the CUDA backend.
std::vector<Moments> compute_moments(const Plan& plan, const core::Frame& frame);
/// Adds this frame's counts for `task` to `counts` (bins + 1 entries).
void add_pair_counts(const PairTask& task, const core::Frame& frame, std::vector<std::uint64_t>& counts);

}  // namespace molstep::analysis
