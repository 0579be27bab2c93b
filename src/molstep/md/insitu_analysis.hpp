// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "molstep/analysis/network.hpp"
#include "molstep/analysis/setup.hpp"
#include "molstep/md/system.hpp"

namespace molstep::md {

/// `analyze ID N QUERY...`: a push network fed by the running simulation every N steps. In a
/// GPU run the one-body sums and histograms are computed from the positions where they live,
/// beside the run loop; only queries that read per-atom data on the host (msd, vacf, density,
/// per-molecule dipoles) make the run copy positions to the host at those steps. Results are
/// written to the output directory when the deck ends.
class InSituAnalysis {
 public:
  InSituAnalysis(std::string id, long every, analysis::AnalysisSetup setup, std::filesystem::path out, bool plot);
  ~InSituAnalysis();

  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] long every() const { return every_; }
  [[nodiscard]] bool due(long step) const { return step % every_ == 0 && step != last_step_; }
  /// Whether observe_device() can be used (the network exists and reads nothing per atom on the host).
  [[nodiscard]] bool device_ready() const { return network_ && setup_.gpu && !network_->needs_host_frame(); }

  /// Feeds the current host state. The first call builds the network from it.
  void observe(const System& system, long step, double dt);
  /// Feeds positions on the GPU; `system` supplies the box and units only.
  void observe_device(const analysis::DevicePositions& positions, const System& system, long step, double dt);
  /// Writes every query's results and the summary; the analysis is over.
  void finish();

 private:
  std::string id_;
  long every_;
  analysis::AnalysisSetup setup_;
  std::filesystem::path out_;
  bool plot_;
  nlohmann::json summary_;
  std::unique_ptr<analysis::Network> network_;
  bool velocities_ = false;
  long last_step_ = -1;
};

}  // namespace molstep::md
