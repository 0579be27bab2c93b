// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "molstep/analysis/backend.hpp"
#include "molstep/analysis/partition.hpp"
#include "molstep/analysis/query.hpp"

namespace molstep::analysis {

/// How a network is set up: its queries, the device of the shared per-frame work, the source's
/// unit system, and per-atom masses and charges (one entry per atom).
struct NetworkOptions {
  std::vector<QuerySpec> queries;
  bool gpu = false;
  std::string units = "real";
  std::vector<double> mass, charge;
  /// Frame-parallel over MPI ranks: each rank computes the shared work of its frames, and rank 0
  /// feeds the queries every frame's results in order (queries that read per-atom data cannot be
  /// distributed so and are refused).
  Partition partition;
};

/// The push network: every frame goes once through the fused one-body pass and the pair
/// histograms (on the CPU or GPU backend), then through every query in order.
class Network {
 public:
  Network(SelectionSet selections, const core::Frame& first_frame, NetworkOptions options);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  ~Network();

  /// Takes the next frame of the stream (every rank sees every frame; in a distributed network
  /// only the rank that owns it computes it). The backend may still be working on it when this
  /// returns; frames reach the queries in order, at most one frame behind.
  void push(core::Frame frame);
  /// Takes a frame whose positions live on the GPU (in-situ analysis of a GPU run); `meta` has
  /// the step, time, box and scalars only. Valid when needs_host_frame() is false.
  void push_device(core::Frame meta, const DevicePositions& positions);
  /// True when some query reads per-atom data on the host (so a GPU run must copy it there).
  [[nodiscard]] bool needs_host_frame() const { return requests_.need_positions() || requests_.need_velocities(); }
  /// Drains the pipeline and writes every query's results to `dir` and `summary["queries"]` (on
  /// rank 0 only, when distributed).
  void finish(const std::filesystem::path& dir, bool plot, nlohmann::json& summary);

  /// Frames pushed so far (on every rank, the whole stream's count).
  [[nodiscard]] std::size_t frames() const { return seen_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Query>>& queries() const { return queries_; }
  [[nodiscard]] std::string device() const { return backend_->name(); }

 private:
  void deliver_oldest();
  void deliver(const core::Frame& frame, std::size_t index, const std::vector<Moments>& moments);
  /// Rank 0 receives every rank's frame records and feeds them to the queries in frame order.
  void replay_distributed();

  SelectionSet selections_;
  Requests requests_;
  std::vector<std::unique_ptr<Query>> queries_;
  std::unique_ptr<Backend> backend_;
  Partition partition_;
  std::deque<std::pair<core::Frame, std::size_t>> in_flight_;  ///< frame, index in the stream
  std::size_t seen_ = 0;
  nlohmann::json records_ = nlohmann::json::array();  ///< distributed: this rank's frames' results
};

}  // namespace molstep::analysis
