// SPDX-License-Identifier: MIT
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/step_cuda.cuh"

namespace molstep::md::cuda {

StepCuda::StepCuda(const Parts& parts)
    : p_(parts),
      graphs_off_(!gpu::tuning().graphs                ? "MOLSTEP_CUDA_GRAPH=0"
                  : !parts.fixes.same_every_step() ? "a fix computes on the host every step"
                                                       : ""),
      graphs_(graphs_off_.empty()) {}

void StepCuda::initial(long /*step*/) { p_.fixes.initial_integrate(p_.atoms); }

void StepCuda::neighbor(bool build_step) {
  if (!build_step) return;
  p_.neighbor.enqueue_decision(p_.atoms, p_.status);
  p_.neighbor.enqueue_build(p_.atoms, p_.list, p_.status);
}

void StepCuda::forces(bool energy_virial) { p_.pair.compute(p_.atoms, p_.box, p_.list, energy_virial, p_.kick); }

void StepCuda::final(long /*step*/) {
  p_.fixes.post_force(p_.atoms);
  p_.fixes.final_integrate(p_.atoms);
}

void StepCuda::enqueue(long step, bool build_step) {
  initial(step);
  neighbor(build_step);
  forces(false);
  final(step);
}

void StepCuda::run(long step, bool build_step) {
  gpu::Graph& graph = graph_[build_step ? 1 : 0];
  bool& seen = seen_[build_step ? 1 : 0];
  if (graphs_ && !graph.ready() && seen) {
    try {
      graph.capture(gpu::stream(), [&] { enqueue(step, build_step); });
    } catch (const Error& e) {
      graphs_ = false;
      graphs_off_ = std::string("capture failed: ") + e.what();
    }
  }
  seen = true;
  if (graphs_ && graph.ready()) {
    graph.launch(gpu::stream());
    ++replayed_;
  } else {
    enqueue(step, build_step);
  }
}

void StepCuda::invalidate() {
  for (auto& g : graph_) g.reset();
  seen_[0] = seen_[1] = false;
}

std::string StepCuda::summary() const {
  if (!graphs_off_.empty()) return "GPU steps: launched kernel by kernel (" + graphs_off_ + ")";
  return "GPU steps: " + std::to_string(replayed_) +
         " replayed from CUDA graphs (MOLSTEP_CUDA_GRAPH=0: kernel by kernel), the rest launched kernel by kernel";
}

}  // namespace molstep::md::cuda
