// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/integrators/fix.hpp"

namespace molstep::md::cuda {

/// The GPU twin of one fix: the hooks of integrators::Fix, applied to the atoms on the device
/// with the same arithmetic as the CPU fix, so CPU and GPU runs agree to round-off.
class FixCuda {
 public:
  virtual ~FixCuda() = default;
  /// At the start of a run, after the setup forces (as Fix::setup). `host` holds the same state
  /// as the device (the atoms in their host order).
  virtual void setup(System& /*host*/, DeviceAtoms& /*atoms*/, const integrators::RunInfo& /*run*/) {}
  virtual void initial_integrate(DeviceAtoms& /*atoms*/, long /*step*/) {}
  virtual void post_force(DeviceAtoms& /*atoms*/, long /*step*/) {}
  virtual void final_integrate(DeviceAtoms& /*atoms*/, long /*step*/) {}

  /// Whether post_force changes anything (then no half kick may be fused into the force kernel,
  /// which runs before post_force).
  [[nodiscard]] virtual bool has_post_force() const { return false; }
  /// Whether final_integrate does anything, and whether it begins with the half kick
  /// v += dt/2 F/m (which the force kernel can then apply instead).
  [[nodiscard]] virtual bool has_final() const { return false; }
  [[nodiscard]] virtual bool final_begins_with_kick() const { return false; }
  /// Whether the hooks enqueue the same launches with the same arguments at every step, with
  /// nothing computed on the host between them (so a CUDA graph of a step can replay them).
  [[nodiscard]] virtual bool same_every_step() const { return false; }
  /// Whether a hook waits for the device every step and keeps state on the host that a step
  /// on a halted device would spoil (the run then reads StepStatus right after a build).
  [[nodiscard]] virtual bool needs_host_each_step() const { return false; }
  [[nodiscard]] virtual std::size_t bytes() const { return 0; }

  /// Set when the force kernel applies this fix's first half kick of final_integrate.
  bool kick_fused = false;
};

/// The GPU twins of a run's fixes, called in the fixes' order at each hook as the CPU run loop
/// does (initial_integrate, forces, post_force, final_integrate). nve, langevin and nvt have
/// twins; any other style is an Error naming --device cpu.
class FixesCuda {
 public:
  /// Checks every fix and makes its twin (nothing is allocated on the device before setup).
  /// `halted`: the run's StepStatus::halted, which stops every change to the velocities.
  FixesCuda(std::vector<std::unique_ptr<integrators::Fix>>& fixes, const System& system, double dt,
            const int* halted);
  ~FixesCuda();
  FixesCuda(const FixesCuda&) = delete;
  FixesCuda& operator=(const FixesCuda&) = delete;

  /// The half kick for the force kernel of the steps: on when the only thing between the forces
  /// and the end of the step is one fix's half kick followed by work that may read the kicked
  /// velocities (nve; nvt), off otherwise (langevin must add its force first).
  [[nodiscard]] Kick force_kick(DeviceAtoms& atoms) const;
  void setup(System& host, DeviceAtoms& atoms, const integrators::RunInfo& run);
  void initial_integrate(DeviceAtoms& atoms, long step);
  void post_force(DeviceAtoms& atoms, long step);
  void final_integrate(DeviceAtoms& atoms, long step);
  [[nodiscard]] bool kick_fused() const { return fused_; }
  /// FixCuda::same_every_step of every fix; FixCuda::needs_host_each_step of any.
  [[nodiscard]] bool same_every_step() const;
  [[nodiscard]] bool needs_host_each_step() const;
  [[nodiscard]] std::size_t bytes() const;

 private:
  std::vector<std::unique_ptr<FixCuda>> fixes_;
  bool fused_ = false;
  double half_dt_ = 0.0;
  const int* halted_ = nullptr;
};

}  // namespace molstep::md::cuda
