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
/// post_force; final_integrate. Where drift_fusable(), a step whose end state nobody reads (no
/// output, not the run's last) has its force kernel apply the next step's initial_integrate too
/// (fix nve's half kick and drift) and the next step's displacement checks (Drift); the next
/// step then skips those kernels. A step without output can be replayed from a CUDA graph
/// captured from the same launches: one graph per kind of step (build step or not, drift
/// applied by the step before or not, drift fused or not, next step a build step or not), each
/// captured at the second step of its kind (the first runs directly and makes any allocation),
/// so the two ways run the same kernels with the same arguments in the same order.
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
    double dt;
  };
  /// Graphs are used unless MOLSTEP_CUDA_GRAPH=0 or a fix computes on the host every step.
  explicit StepCuda(const Parts& parts);

  // The stages of a step, launched directly (the run loop times them one by one when it samples).
  // `step` names the step for the reader only: the fixes count the steps on the device
  // (FixesCuda), so every step launches the same kernels with the same arguments.
  // initial() and the check of neighbor() are skipped after a step whose force kernel applied
  // them (Drift); forces() applies the next step's with `drift` (only where drift_fusable()),
  // checking the displacements the next step's list decision needs where `next_build`.
  void initial(long step);
  void neighbor(bool build_step);
  void forces(bool energy_virial, bool drift = false, bool next_build = false);
  void final(long step);

  /// A whole step without energy and virial: replayed from its kind's graph where there is one,
  /// otherwise launched directly.
  void run(long step, bool build_step, bool drift, bool next_build);
  /// Forgets the graphs (after the list was reallocated: they hold its address).
  void invalidate();
  /// Before the host finishes a step the device halted at (a list that overflowed): the step
  /// before's drift, if any, took effect, but the halted step's force kernel did nothing, so
  /// the step after starts from its own initial_integrate.
  void rewind() { drifted_ = false; }
  /// Whether the force kernel may apply the next step's half kick and drift: the fixes allow it
  /// (FixesCuda::drift_fusable), the pair style can (PairCuda::drifts), MOLSTEP_CUDA_DRIFT is
  /// not 0.
  [[nodiscard]] bool drift_fusable() const { return fusable_; }
  /// Whether steps without output are replayed from graphs.
  [[nodiscard]] bool graphs_on() const { return graphs_; }
  /// One line for the run summary: how the steps were launched.
  [[nodiscard]] std::string summary() const;

 private:
  void enqueue(long step, bool build_step, bool drift, bool next_build);

  Parts p_;
  std::string graphs_off_;  ///< why graphs are not used (empty: they are)
  bool graphs_;
  bool fusable_;
  bool drifted_ = false;    ///< the last step enqueued applied the next one's drift
  static constexpr int kKinds = 16;
  gpu::Graph graph_[kKinds];  ///< [build_step | drifted << 1 | drift << 2 | next_build << 3]
  bool seen_[kKinds] = {};
  long replayed_ = 0;
  long drifts_ = 0;  ///< steps whose force kernel applied the next step's drift
};

}  // namespace molstep::md::cuda
