// SPDX-License-Identifier: MIT
#include <deque>

#include "molstep/analysis/backend.hpp"
#include "molstep/core/error.hpp"

namespace molstep::analysis {

void Backend::submit_device(const core::Frame&, const DevicePositions&) {
  throw Error("in-situ analysis: positions on the GPU need the CUDA analysis backend");
}

namespace {

/// Computes each frame as it is submitted (the queue in front of the engine already overlaps
/// reading with computing).
class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(Plan plan) : plan_(std::move(plan)), totals_(plan_.pairs.size()) {
    for (std::size_t k = 0; k < plan_.pairs.size(); ++k) totals_[k].assign(static_cast<std::size_t>(plan_.pairs[k].spec.bins) + 1, 0);
  }
  void submit(const core::Frame& frame) override {
    done_.push_back(compute_moments(plan_, frame));
    for (std::size_t k = 0; k < plan_.pairs.size(); ++k) add_pair_counts(plan_.pairs[k], frame, totals_[k]);
  }
  std::vector<Moments> collect() override {
    auto m = std::move(done_.front());
    done_.pop_front();
    return m;
  }
  std::vector<std::vector<std::uint64_t>> pair_totals() override { return totals_; }
  [[nodiscard]] std::string name() const override { return "cpu"; }

 private:
  Plan plan_;
  std::deque<std::vector<Moments>> done_;
  std::vector<std::vector<std::uint64_t>> totals_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(Plan plan) { return std::make_unique<CpuBackend>(std::move(plan)); }

}  // namespace molstep::analysis
