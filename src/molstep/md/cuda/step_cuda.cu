// SPDX-License-Identifier: MIT
#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/step_cuda.cuh"

namespace molstep::md::cuda {

StepCuda::StepCuda(const Parts& parts)
    : p_(parts),
      graphs_off_(!gpu::tuning().graphs                ? "MOLSTEP_CUDA_GRAPH=0"
                  : !parts.fixes.same_every_step() ? "a fix computes on the host every step"
                                                       : ""),
      graphs_(graphs_off_.empty()),
      fusable_(gpu::tuning().fuse_drift && parts.fixes.drift_fusable() && parts.pair.drifts()) {}

void StepCuda::initial(long /*step*/) {
  if (!drifted_) p_.fixes.initial_integrate(p_.atoms);
}

void StepCuda::neighbor(bool build_step) {
  if (!build_step) return;
  p_.neighbor.enqueue_step(p_.atoms, p_.list, p_.status, drifted_);
}

void StepCuda::forces(bool energy_virial, bool drift, bool next_build) {
  if (drift && !fusable_) throw Error("this run's force kernel cannot apply the next step's drift (internal error)");
  Kick kick = p_.kick;
  if (drift) {
    Drift& d = kick.drift;
    d.on = true;
    d.dt = p_.dt;
    d.pos = p_.atoms.pos.data();
    if (next_build) {
      const NeighborCuda::Check c = p_.neighbor.displacement_check();
      d.list_hold = c.hold;
      d.list_trigger = c.trigger;
      d.moved = &p_.status->moved;
    }
  }
  p_.pair.compute(p_.atoms, p_.box, p_.list, energy_virial, kick, drifted_);
  drifted_ = drift;
  if (drift) ++drifts_;
}

void StepCuda::final(long /*step*/) {
  p_.fixes.post_force(p_.atoms);
  p_.fixes.final_integrate(p_.atoms);
}

void StepCuda::enqueue(long step, bool build_step, bool drift, bool next_build) {
  initial(step);
  neighbor(build_step);
  forces(false, drift, next_build);
  final(step);
}

void StepCuda::run(long step, bool build_step, bool drift, bool next_build) {
  const int kind = (build_step ? 1 : 0) | (drifted_ ? 2 : 0) | (drift ? 4 : 0) | (next_build ? 8 : 0);
  gpu::Graph& graph = graph_[kind];
  bool& seen = seen_[kind];
  if (graphs_ && !graph.ready() && seen) {
    const bool before = drifted_;
    const long drifts = drifts_;
    try {
      graph.capture(gpu::stream(), [&] { enqueue(step, build_step, drift, next_build); });
    } catch (const Error& e) {
      graphs_ = false;
      graphs_off_ = std::string("capture failed: ") + e.what();
    }
    drifted_ = before;  // the capture only recorded the step
    drifts_ = drifts;
  }
  seen = true;
  if (graphs_ && graph.ready()) {
    graph.launch(gpu::stream());
    drifted_ = drift;
    if (drift) ++drifts_;
    ++replayed_;
  } else {
    enqueue(step, build_step, drift, next_build);
  }
}

void StepCuda::invalidate() {
  for (auto& g : graph_) g.reset();
  for (bool& s : seen_) s = false;
}

std::string StepCuda::summary() const {
  const std::string drift =
      fusable_ ? "; the next step's half kick and drift applied by the force kernel at " + std::to_string(drifts_) +
                     " steps (MOLSTEP_CUDA_DRIFT=0: in kernels of their own)"
               : "";
  if (!graphs_off_.empty()) return "GPU steps: launched kernel by kernel (" + graphs_off_ + ")" + drift;
  return "GPU steps: " + std::to_string(replayed_) +
         " replayed from CUDA graphs (MOLSTEP_CUDA_GRAPH=0: kernel by kernel), the rest launched kernel by kernel" +
         drift;
}

}  // namespace molstep::md::cuda
