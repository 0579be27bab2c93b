// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "molstep/md/potentials/pair.hpp"
#include "molstep/md/system.hpp"

namespace molstep::md {

/// What a thermo row is computed from.
struct ThermoState {
  const System& system;
  const potentials::EnergyVirial& pair;  ///< energy and virial of the current forces
  long step;
  double dt;
  double elapsed_time;  ///< simulated time since the deck's first step
  long run_start = 0;   ///< first step of the current run
};

/// LAMMPS's thermo output: `thermo N`, `thermo_style one|custom ...`, `thermo_modify norm yes|no`
/// and `thermo_modify format float FMT`. Values use LAMMPS's definitions (temperature with 3N-3
/// degrees of freedom, pressure from the kinetic and virial terms) and its column headers.
class Thermo {
 public:
  /// Known keywords, as accepted by thermo_style custom.
  static const std::vector<std::string>& keywords();

  int every = 0;
  std::optional<bool> norm;  ///< unset: the unit style's default

  /// Throws molstep::Error for an unknown keyword.
  void set_columns(const std::vector<std::string>& columns);
  /// Accepts a printf conversion for floats such as "%12.8g" or "%.15g".
  void set_float_format(const std::string& format);

  [[nodiscard]] const std::vector<std::string>& columns() const { return columns_; }
  [[nodiscard]] std::string header() const;
  [[nodiscard]] std::vector<double> values(const ThermoState& state) const;
  [[nodiscard]] std::string row(const std::vector<double>& values) const;

  /// One keyword's value (also used by equal-style variables); nullopt if unknown.
  [[nodiscard]] std::optional<double> value(const std::string& keyword, const ThermoState& state) const;

 private:
  std::vector<std::string> columns_{"step", "temp", "epair", "emol", "etotal", "press"};
  std::string float_format_ = "%12.8g";
};

}  // namespace molstep::md
