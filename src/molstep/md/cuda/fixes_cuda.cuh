// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/integrators/fix.hpp"

namespace molstep::md::cuda {

/// The GPU twin of one fix: the hooks of integrators::Fix, applied to the atoms on the device
/// with the same arithmetic as the CPU fix, so CPU and GPU runs agree to round-off. The hooks
/// take no step number: what changes from step to step (the step that keys random numbers, a
/// ramped target, a thermostat's state) is kept and advanced in device memory, so every step
/// enqueues the same launches and a CUDA graph of one step can replay any other.
class FixCuda {
 public:
  virtual ~FixCuda() = default;
  /// At the start of a run, after the setup forces (as Fix::setup). `host` holds the same state
  /// as the device (the atoms in their host order). The step count (`clock`) holds the run's
  /// first step.
  virtual void setup(System& /*host*/, DeviceAtoms& /*atoms*/, const integrators::RunInfo& /*run*/) {}
  virtual void initial_integrate(DeviceAtoms& /*atoms*/) {}
  virtual void post_force(DeviceAtoms& /*atoms*/) {}
  virtual void final_integrate(DeviceAtoms& /*atoms*/) {}
  /// At the end of the run, the device idle: hands what the fix keeps on the device back to its
  /// CPU fix (the next run's setup, and the host's reads, go on from there).
  virtual void finish() {}

  /// Whether post_force changes anything (then no half kick may be fused into the force kernel,
  /// which runs before post_force).
  [[nodiscard]] virtual bool has_post_force() const { return false; }
  /// Whether final_integrate does anything, and whether it begins with the half kick
  /// v += dt/2 F/m (which the force kernel can then apply instead).
  [[nodiscard]] virtual bool has_final() const { return false; }
  [[nodiscard]] virtual bool final_begins_with_kick() const { return false; }
  /// Whether initial_integrate is exactly the half kick v += dt/2 F/m and the drift x += dt v
  /// (which the force kernel of the step before can then apply instead: Drift).
  [[nodiscard]] virtual bool initial_is_kick_and_drift() const { return false; }
  /// Whether a kernel of the fix reads the step count (`clock`), which then advances every step.
  [[nodiscard]] virtual bool uses_clock() const { return false; }
  /// Whether the hooks enqueue the same launches with the same arguments at every step, with
  /// nothing computed on the host between them (so a CUDA graph of a step can replay them).
  [[nodiscard]] virtual bool same_every_step() const { return false; }
  [[nodiscard]] virtual std::size_t bytes() const { return 0; }

  /// Set when the force kernel applies this fix's first half kick of final_integrate.
  bool kick_fused = false;
};

/// The GPU twins of a run's fixes, called in the fixes' order at each hook as the CPU run loop
/// does (initial_integrate, forces, post_force, final_integrate). nve, langevin and nvt have
/// twins; any other style is an Error naming --device cpu. All of them are replayable from CUDA
/// graphs and never wait for the device.
///
/// The step count: where a fix needs the step (langevin's random numbers and ramped target,
/// nvt's ramped target), the device keeps it, in one counter that a one-thread kernel advances
/// at the start of initial_integrate, unless the run is halted (StepStatus::halted). A step
/// halts, if at all, at its list build, after that advance; the later steps leave the count
/// alone, so when the host repairs the list and finishes the failed step (forces, post_force,
/// final_integrate) the count is that step's, and the next step advances it as usual.
class FixesCuda {
 public:
  /// Checks every fix and makes its twin (nothing but the step count, 8 bytes, is allocated on
  /// the device before setup).
  /// `halted`: the run's StepStatus::halted, which stops every change to the velocities and to
  /// the fixes' state on the device.
  FixesCuda(std::vector<std::unique_ptr<integrators::Fix>>& fixes, const System& system, double dt,
            const int* halted);
  ~FixesCuda();
  FixesCuda(const FixesCuda&) = delete;
  FixesCuda& operator=(const FixesCuda&) = delete;

  /// The half kick for the force kernel of the steps: on when the only thing between the forces
  /// and the end of the step is one fix's half kick followed by work that may read the kicked
  /// velocities (nve; nvt), off otherwise (langevin must add its force first).
  [[nodiscard]] Kick force_kick(DeviceAtoms& atoms) const;
  /// Sets the step count to run.first_step and sets up every fix (as Fix::setup).
  void setup(System& host, DeviceAtoms& atoms, const integrators::RunInfo& run);
  /// The hooks of the step whose number the device counts (initial_integrate advances it).
  void initial_integrate(DeviceAtoms& atoms);
  void post_force(DeviceAtoms& atoms);
  void final_integrate(DeviceAtoms& atoms);
  /// At the end of the run (waits for the device): checks that the device counted to
  /// `last_step`, and hands the fixes' device state back to the CPU fixes (FixCuda::finish).
  void finish(long last_step);
  [[nodiscard]] bool kick_fused() const { return fused_; }
  /// Whether a force kernel that applies the fused kick may also apply the next step's
  /// initial_integrate (Drift): one fix, whose initial_integrate is the half kick and drift
  /// (nve), with its second half kick fused, and no step count to advance.
  [[nodiscard]] bool drift_fusable() const;
  /// FixCuda::same_every_step of every fix.
  [[nodiscard]] bool same_every_step() const;
  [[nodiscard]] std::size_t bytes() const;

 private:
  std::vector<std::unique_ptr<FixCuda>> fixes_;
  bool fused_ = false;
  bool clocked_ = false;  ///< some fix reads the step count
  double half_dt_ = 0.0;
  const int* halted_ = nullptr;
  /// The step count on the device (the twins hold its address, which never changes).
  gpu::DeviceArray<long long> clock_;
};

}  // namespace molstep::md::cuda
