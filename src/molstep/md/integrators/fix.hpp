// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "molstep/core/args.hpp"
#include "molstep/md/system.hpp"

namespace molstep::md::integrators {

/// The run a fix takes part in: timestep and the first and last step (for ramped targets).
struct RunInfo {
  double dt;
  long first_step;
  long last_step;
};

/// A `fix` in the velocity-Verlet step, with LAMMPS's hooks in LAMMPS's order:
/// initial_integrate (half kick, drift) -> forces -> post_force -> final_integrate (half kick).
class Fix {
 public:
  explicit Fix(std::string id) : id_(std::move(id)) {}
  virtual ~Fix() = default;

  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] virtual std::string_view style() const = 0;
  /// Whether the dynamics this fix adds conserve the total energy (true for plain NVE).
  [[nodiscard]] virtual bool conserves_energy() const { return false; }

  virtual void setup(System& /*system*/, const RunInfo& /*run*/) {}
  virtual void initial_integrate(System& /*system*/, long /*step*/) {}
  virtual void post_force(System& /*system*/, long /*step*/) {}
  virtual void final_integrate(System& /*system*/, long /*step*/) {}

 private:
  std::string id_;
};

/// The registry: `fix ID all STYLE args...` -> a fix, or an error listing the known styles.
std::unique_ptr<Fix> make_fix(const std::string& id, const std::string& style, const core::ArgReader& args);

}  // namespace molstep::md::integrators
