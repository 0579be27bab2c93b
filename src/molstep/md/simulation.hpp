// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "molstep/core/timer.hpp"
#include "molstep/md/dump.hpp"
#include "molstep/md/insitu_analysis.hpp"
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
  double wall_seconds = 0.0;   ///< the step loop, as LAMMPS's "Loop time" (setup not included)
  double setup_seconds = 0.0;  ///< the run's setup: first list build, forces, output (and on a GPU the upload)
  core::StageTimer stages;     ///< of the step loop
  long neighbor_builds = 0;
  std::size_t list_pairs = 0;   ///< entries in the last neighbour list
  std::size_t images = 0;       ///< ghost images of the last build (CPU)
  double etotal_start = 0.0, etotal_end = 0.0;  ///< total energy, not normalised
  std::string device;                           ///< where it ran, for the summary
  std::vector<std::string> notes;               ///< device-specific lines (memory, ...)
};

/// Where the run loop executes (`--device`).
enum class Device { cpu, cuda };

/// Arithmetic of the pair kernels (`--precision`): double throughout, or single-precision pair
/// terms with double accumulation and integration (GPU only).
enum class Precision { full, mixed };

/// Everything a deck sets up, and the velocity-Verlet run loop (LAMMPS's Verlet::run order).
class Simulation {
 public:
  explicit Simulation(Output& output) : out_(output) {}

  Device device = Device::cpu;
  Precision precision = Precision::full;
  System system;
  std::optional<Lattice> lattice;
  std::map<std::string, Region> regions;
  std::unique_ptr<potentials::PairStyle> pair;
  potentials::PairModify pair_modify;
  neighbor::Neighbor neighbor;
  std::vector<std::unique_ptr<integrators::Fix>> fixes;
  Thermo thermo;
  std::vector<std::unique_ptr<Dump>> dumps;
  std::vector<std::unique_ptr<InSituAnalysis>> analyses;
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

  /// Feeds every in-situ analysis due at this step from the host state.
  void observe_analyses();
  /// Commits every dump file and writes every analysis's results (end of a successful deck).
  void finish();

  /// Records the energy and virial of the current forces and prints a thermo row (used by the
  /// run loops of both devices).
  void emit_thermo(const potentials::EnergyVirial& ev);
  /// Total (not normalised) energy of the current state with the given potential energy.
  [[nodiscard]] double total_energy(const potentials::EnergyVirial& ev) const;
  [[nodiscard]] Output& output() { return out_; }

 private:
  void check_ready();
  RunSummary run_cpu(long n);
  void compute_forces(bool energy_virial);
  void print_thermo();
  void write_summary(const RunSummary& s);

  Output& out_;
  potentials::EnergyVirial ev_;
  int runs_ = 0;
};

}  // namespace molstep::md
