// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "molstep/core/timer.hpp"
#include "molstep/io/lammps_dump.hpp"
#include "molstep/md/integrators/fix.hpp"
#include "molstep/md/lattice.hpp"
#include "molstep/md/neighbor/neighbor.hpp"
#include "molstep/md/output.hpp"
#include "molstep/md/potentials/pair.hpp"
#include "molstep/md/system.hpp"
#include "molstep/md/thermo.hpp"

namespace molstep::md {

/// A `region ID block xlo xhi ylo yhi zlo zhi` in box units.
struct Region {
  std::array<double, 3> lo{}, hi{};
};

/// Figures of one `run`, for the summary and for tests.
struct RunSummary {
  long steps = 0;
  std::size_t atoms = 0;
  double wall_seconds = 0.0;
  core::StageTimer stages;
  long neighbor_builds = 0;
  double etotal_start = 0.0, etotal_end = 0.0;  ///< total energy, not normalised
};

/// Everything a deck sets up, and the velocity-Verlet run loop (LAMMPS's Verlet::run order).
class Simulation {
 public:
  explicit Simulation(Output& output) : out_(output) {}

  System system;
  std::optional<Lattice> lattice;
  std::map<std::string, Region> regions;
  std::unique_ptr<potentials::PairStyle> pair;
  potentials::PairModify pair_modify;
  neighbor::Neighbor neighbor;
  std::vector<std::unique_ptr<integrators::Fix>> fixes;
  Thermo thermo;
  std::vector<std::unique_ptr<io::CustomDump>> dumps;
  std::optional<double> timestep;  ///< unset: the unit style's default
  long step = 0;
  long run_start = 0;  ///< first step of the current (or last) run
  double elapsed_time = 0.0;

  /// Runs n steps (`run N`). Throws molstep::Error when the setup is incomplete.
  RunSummary run(long n);

  /// The energy and virial of the most recent force evaluation that computed them.
  [[nodiscard]] const potentials::EnergyVirial& last_energy_virial() const { return ev_; }
  [[nodiscard]] ThermoState thermo_state() const;
  [[nodiscard]] double dt() const { return timestep.value_or(system.units.dt); }

  /// Commits every dump file (end of a successful deck).
  void finish();

 private:
  void check_ready() const;
  void compute_forces(bool energy_virial);
  void print_thermo();
  void write_summary(const RunSummary& s);

  Output& out_;
  potentials::EnergyVirial ev_;
  int runs_ = 0;
};

}  // namespace molstep::md
