// SPDX-License-Identifier: MIT
#include "molstep/analysis/network.hpp"

#include <fmt/format.h>

#include <set>

#include "molstep/core/error.hpp"

namespace molstep::analysis {

Network::Network(SelectionSet selections, const core::Frame& first_frame, NetworkOptions options)
    : selections_(std::move(selections)) {
  QueryContext context{selections_, requests_, first_frame, options.units};
  std::set<std::string> labels;
  for (auto spec : options.queries) {
    // Two queries of one kind get distinct output files: rdf, rdf_2, ...
    const std::string base = spec.label;
    for (int k = 2; labels.contains(spec.label); ++k) spec.label = fmt::format("{}_{}", base, k);
    labels.insert(spec.label);
    queries_.push_back(make_query(spec, context));
  }
  Plan plan(selections_, requests_, std::move(options.mass), std::move(options.charge));
  backend_ = options.gpu ? make_cuda_backend(std::move(plan)) : make_cpu_backend(std::move(plan));
}

Network::~Network() = default;

void Network::push(core::Frame frame) {
  if (frame.natoms() != selections_.natoms()) {
    throw Error(fmt::format("frame {} (step {}) has {} atoms; the first frame had {}", frames_ + in_flight_.size(),
                            frame.step, frame.natoms(), selections_.natoms()));
  }
  backend_->submit(frame);
  in_flight_.push_back(std::move(frame));
  if (in_flight_.size() == 2) deliver_oldest();
}

void Network::push_device(core::Frame meta, const DevicePositions& positions) {
  if (needs_host_frame()) throw Error("in-situ analysis: a query needs atoms on the host; push host frames");
  backend_->submit_device(meta, positions);
  in_flight_.push_back(std::move(meta));
  if (in_flight_.size() == 2) deliver_oldest();
}

void Network::deliver_oldest() {
  const auto moments = backend_->collect();
  const FrameData data{in_flight_.front(), frames_, moments};
  for (auto& q : queries_) q->push(data);
  in_flight_.pop_front();
  ++frames_;
}

void Network::finish(const std::filesystem::path& dir, bool plot, nlohmann::json& summary) {
  while (!in_flight_.empty()) deliver_oldest();
  const auto totals = backend_->pair_totals();
  const FinalData data{frames_, totals};
  std::filesystem::create_directories(dir);
  auto& out = summary["queries"];
  out = nlohmann::json::object();
  for (auto& q : queries_) {
    auto& entry = out[q->label()];
    entry = nlohmann::json::object();
    q->finish(data, QueryOutput{dir, plot, entry});
  }
}

}  // namespace molstep::analysis
