// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "molstep/gpu/graph.cuh"
#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/cuda/fixes_cuda.cuh"
#include "molstep/md/cuda/neighbor_cuda.cuh"
#include "molstep/md/cuda/pair_cuda.cuh"
#include "molstep/md/cuda/step_status.cuh"

namespace molstep::md::cuda {

/// One velocity-Verlet step of a GPU run, enqueued on gpu::stream() without waiting for the
/// device, in the CPU loop's order: initial_integrate; at a step where a neighbour-list build may
/// fall due (a "build step"), the displacement check, the decision and the build, all on the
/// device (NeighborCuda); the forces, with the second half kick fused where the fixes allow;
/// post_force; final_integrate. A step without output can be replayed from a CUDA graph captured
/// from the same launches: one graph for build steps and one for the others, each captured at
/// the second step of its kind (the first runs directly and makes any allocation), so the two
/// ways run the same kernels with the same arguments in the same order.
class StepCuda {
 public:
  struct Parts {
    DeviceAtoms& atoms;
    DeviceBox box;
    NeighborCuda& neighbor;
    DeviceList& list;
    PairCuda& pair;
    FixesCuda& fixes;
    StepStatus* status;
    Kick kick;  ///< the fused second half kick (FixesCuda::force_kick)
  };
  /// Graphs are used unless MOLSTEP_CUDA_GRAPH=0 or a fix computes on the host every step.
  explicit StepCuda(const Parts& parts);

  // The stages of a step, launched directly (the run loop times them one by one when it samples).
  // `step` names the step for the reader only: the fixes count the steps on the device
  // (FixesCuda), so every step launches the same kernels with the same arguments.
  void initial(long step);
  void neighbor(bool build_step);
  void forces(bool energy_virial);
  void final(long step);

  /// A whole step without energy and virial: replayed from its kind's graph where there is one,
  /// otherwise launched directly.
  void run(long step, bool build_step);
  /// Forgets the graphs (after the list was reallocated: they hold its address).
  void invalidate();
  /// Whether steps without output are replayed from graphs.
  [[nodiscard]] bool graphs_on() const { return graphs_; }
  /// One line for the run summary: how the steps were launched.
  [[nodiscard]] std::string summary() const;

 private:
  void enqueue(long step, bool build_step);

  Parts p_;
  std::string graphs_off_;  ///< why graphs are not used (empty: they are)
  bool graphs_;
  gpu::Graph graph_[2];     ///< [build_step]
  bool seen_[2] = {false, false};
  long replayed_ = 0;
};

}  // namespace molstep::md::cuda
