// SPDX-License-Identifier: MIT
#include "molstep/core/units.hpp"

#include "molstep/core/error.hpp"

namespace molstep::core {

// Constants are LAMMPS's (update.cpp) so that thermo output agrees digit for digit.
UnitSystem unit_system(const std::string& name) {
  if (name == "lj") return {"lj", 1.0, 1.0, 1.0, 1.0, 0.005, 0.3, true, true};
  if (name == "metal")
    return {"metal", 8.617343e-5, 1.0364269e-4, 1.0 / 1.0364269e-4, 1.6021765e6, 0.001, 2.0, false, false};
  throw Error("unknown units '" + name + "' (known: lj, metal)");
}

}  // namespace molstep::core
