// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace molstep::core {

/// A unit system as LAMMPS defines it (`units lj|metal`): the conversion constants used by
/// integrators, thermostats and thermo output, and the style's default timestep and skin.
struct UnitSystem {
  std::string name;
  double boltz;   ///< Boltzmann constant in energy/temperature
  double mvv2e;   ///< mass*velocity^2 -> energy
  double ftm2v;   ///< force/mass*time -> velocity
  double nktv2p;  ///< N k T / V -> pressure
  double dt;      ///< default timestep
  double skin;    ///< default neighbour skin
  bool lj_lattice;      ///< lattice scale is a reduced density rather than a length
  bool thermo_normalise; ///< default of thermo_modify norm
};

/// Returns the named unit system or throws molstep::Error listing the known names.
UnitSystem unit_system(const std::string& name);

}  // namespace molstep::core
