// SPDX-License-Identifier: MIT
#include "molstep/analysis/network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "molstep/core/error.hpp"

namespace molstep::analysis {

Network::Network(SelectionSet selections, const core::Frame& first_frame, NetworkOptions options)
    : selections_(std::move(selections)), partition_(options.partition) {
  QueryContext context{selections_, requests_, first_frame, options.units};
  std::set<std::string> labels;
  for (auto spec : options.queries) {
    // Two queries of one kind get distinct output files: rdf, rdf_2, ...
    const std::string base = spec.label;
    for (int k = 2; labels.contains(spec.label); ++k) spec.label = fmt::format("{}_{}", base, k);
    labels.insert(spec.label);
    queries_.push_back(make_query(spec, context));
  }
  if (partition_.distributed() && needs_host_frame()) {
    throw Error(fmt::format("{} MPI ranks: a query reads every frame's atoms (msd, vacf, density, dipole per "
                            "residue), which frame-parallel analysis cannot split; run it without mpirun",
                            partition_.size));
  }
  Plan plan(selections_, requests_, std::move(options.mass), std::move(options.charge));
  backend_ = options.gpu ? make_cuda_backend(std::move(plan)) : make_cpu_backend(std::move(plan));
}

Network::~Network() = default;

void Network::push(core::Frame frame) {
  const std::size_t index = seen_++;
  if (frame.natoms() != selections_.natoms()) {
    throw Error(fmt::format("frame {} (step {}) has {} atoms; the first frame had {}", index, frame.step,
                            frame.natoms(), selections_.natoms()));
  }
  if (!partition_.mine(index)) return;
  backend_->submit(frame);
  in_flight_.emplace_back(std::move(frame), index);
  if (in_flight_.size() == 2) deliver_oldest();
}

void Network::push_device(core::Frame meta, const DevicePositions& positions) {
  if (needs_host_frame()) throw Error("in-situ analysis: a query needs atoms on the host; push host frames");
  const std::size_t index = seen_++;
  backend_->submit_device(meta, positions);
  in_flight_.emplace_back(std::move(meta), index);
  if (in_flight_.size() == 2) deliver_oldest();
}

void Network::deliver_oldest() {
  const auto moments = backend_->collect();
  const auto& [frame, index] = in_flight_.front();
  if (partition_.distributed()) {
    // Only what queries may read without per-atom data: step, time, box, scalars, the sums.
    nlohmann::json m = nlohmann::json::array();
    for (const auto& x : moments) m.push_back(x.packed());
    records_.push_back({{"index", index}, {"step", frame.step}, {"time", frame.time}, {"box", frame.box},
                        {"scalars", frame.scalars}, {"moments", m}});
  } else {
    deliver(frame, index, moments);
  }
  in_flight_.pop_front();
}

void Network::deliver(const core::Frame& frame, std::size_t index, const std::vector<Moments>& moments) {
  const FrameData data{frame, index, moments};
  for (auto& q : queries_) q->push(data);
}

void Network::replay_distributed() {
  const auto texts = gather_text(partition_, records_.dump());
  if (partition_.rank != 0) return;
  std::vector<nlohmann::json> all;
  for (const auto& t : texts) {
    for (auto& r : nlohmann::json::parse(t)) all.push_back(std::move(r));
  }
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a["index"].template get<std::size_t>() < b["index"].template get<std::size_t>(); });
  for (const auto& r : all) {
    core::Frame meta;
    meta.step = r["step"].get<std::int64_t>();
    meta.time = r["time"].get<double>();
    meta.box = r["box"].get<decltype(meta.box)>();
    meta.scalars = r["scalars"].get<decltype(meta.scalars)>();
    std::vector<Moments> moments;
    for (const auto& v : r["moments"]) moments.push_back(Moments::unpack(v.get<std::array<double, Moments::kValues>>()));
    deliver(meta, r["index"].get<std::size_t>(), moments);
  }
}

void Network::finish(const std::filesystem::path& dir, bool plot, nlohmann::json& summary) {
  while (!in_flight_.empty()) deliver_oldest();
  auto totals = backend_->pair_totals();
  if (partition_.distributed()) {
    for (auto& t : totals) sum_counts(partition_, t);
    replay_distributed();
    if (partition_.rank != 0) return;
  }
  const FinalData data{seen_, totals};
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
