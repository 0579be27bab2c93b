// SPDX-License-Identifier: MIT
#include "molstep/md/insitu_analysis.hpp"

#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"
#include "molstep/md/snapshot.hpp"

namespace molstep::md {

InSituAnalysis::InSituAnalysis(std::string id, long every, analysis::AnalysisSetup setup, std::filesystem::path out,
                               bool plot)
    : id_(std::move(id)), every_(every), setup_(std::move(setup)), out_(std::move(out)), plot_(plot) {
  if (every_ <= 0) throw Error("analyze " + id_ + ": interval must be a positive number of steps");
  if (setup_.queries.empty()) throw Error("analyze " + id_ + ": no queries given");
}

InSituAnalysis::~InSituAnalysis() = default;

void InSituAnalysis::observe(const System& system, long step, double dt) {
  last_step_ = step;
  if (!network_) {
    auto first = snapshot(system, step, dt, true);
    summary_["source"] = "molstep md (in situ), every " + std::to_string(every_) + " steps";
    summary_["atoms"] = first.natoms();
    summary_["units"] = setup_.units;
    network_ = analysis::build_network(topology_of(system), first, setup_, summary_);
    network_->push(std::move(first));
    return;
  }
  network_->push(snapshot(system, step, dt, true));
}

void InSituAnalysis::observe_device(const analysis::DevicePositions& positions, const System& system, long step,
                                    double dt) {
  last_step_ = step;
  network_->push_device(snapshot_meta(system, step, dt), positions);
}

void InSituAnalysis::finish() {
  if (!network_) return;
  network_->finish(out_, plot_, summary_);
  summary_["frames"] = network_->frames();
  summary_["device"] = network_->device();
  core::AtomicFile file(out_ / "summary.json");
  file.stream() << summary_.dump(2) << '\n';
  file.commit();
  network_.reset();
}

}  // namespace molstep::md
