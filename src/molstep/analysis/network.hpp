// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "molstep/analysis/backend.hpp"
#include "molstep/analysis/query.hpp"

namespace molstep::analysis {

/// How a network is set up: its queries, the device of the shared per-frame work, the source's
/// unit system, and per-atom masses and charges (one entry per atom).
struct NetworkOptions {
  std::vector<QuerySpec> queries;
  bool gpu = false;
  std::string units = "real";
  std::vector<double> mass, charge;
};

/// The push network: every frame goes once through the fused one-body pass and the pair
/// histograms (on the CPU or GPU backend), then through every query in order.
class Network {
 public:
  Network(SelectionSet selections, const core::Frame& first_frame, NetworkOptions options);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  ~Network();

  /// Takes the next frame. The backend may still be working on it when this returns; frames
  /// reach the queries in order, at most one frame behind.
  void push(core::Frame frame);
  /// Takes a frame whose positions live on the GPU (in-situ analysis of a GPU run); `meta` has
  /// the step, time, box and scalars only. Valid when needs_host_frame() is false.
  void push_device(core::Frame meta, const DevicePositions& positions);
  /// True when some query reads per-atom data on the host (so a GPU run must copy it there).
  [[nodiscard]] bool needs_host_frame() const { return requests_.need_positions() || requests_.need_velocities(); }
  /// Drains the pipeline and writes every query's results to `dir` and `summary["queries"]`.
  void finish(const std::filesystem::path& dir, bool plot, nlohmann::json& summary);

  [[nodiscard]] std::size_t frames() const { return frames_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Query>>& queries() const { return queries_; }
  [[nodiscard]] std::string device() const { return backend_->name(); }

 private:
  void deliver_oldest();

  SelectionSet selections_;
  Requests requests_;
  std::vector<std::unique_ptr<Query>> queries_;
  std::unique_ptr<Backend> backend_;
  std::deque<core::Frame> in_flight_;
  std::size_t frames_ = 0;
};

}  // namespace molstep::analysis
