// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/system.hpp"

namespace molstep::md {

/// Options of `velocity all create T SEED ...`, with LAMMPS's defaults.
struct VelocityCreate {
  enum class Loop { all, local, geom };
  double temperature = 0.0;
  int seed = 1;
  bool gaussian = false;  ///< dist gaussian (default uniform)
  bool zero_momentum = true;
  bool zero_rotation = false;
  Loop loop = Loop::all;
};

/// Assigns random velocities exactly as LAMMPS's `velocity create` does (same generator, same
/// loop, same summation order), then removes momentum/rotation and scales to the temperature.
/// Needs every atom's mass. Atoms must be in creation order for `loop local` to match LAMMPS.
void velocity_create(System& system, const VelocityCreate& options);

/// Scales all velocities so the temperature becomes `temperature` (LAMMPS `velocity all scale`).
void velocity_scale(System& system, double temperature);

/// Sum of m v^2 over all atoms, summed in index order (the order LAMMPS uses).
double twice_kinetic_mvv(const System& system);

/// Degrees of freedom of the thermo temperature: 3N - 3 (momentum is conserved).
double temperature_dof(const System& system);

/// Instantaneous kinetic temperature with 3N - 3 degrees of freedom.
double temperature(const System& system);

}  // namespace molstep::md
