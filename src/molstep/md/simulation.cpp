// SPDX-License-Identifier: MIT
#include "molstep/md/simulation.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "molstep/core/error.hpp"
#include "molstep/core/progress.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md {

void Simulation::check_ready() {
  if (!system.box_defined) throw Error("run: no simulation box (use create_box or read_data first)");
  if (system.atoms.size() == 0) throw Error("run: the system has no atoms");
  if (!pair) throw Error("run: no pair style defined (use pair_style and pair_coeff)");
  // The pair style first: its complaint (a type without coefficients or potential file) is the
  // one to fix before any about masses.
  pair->init(system.ntypes, pair_modify);
  for (int t = 1; t <= system.ntypes; ++t)
    if (!system.mass_set[static_cast<std::size_t>(t)])
      throw Error("run: no mass set for atom type " + std::to_string(t) + " (use the mass command)");
  if (!(dt() > 0.0)) throw Error("run: the timestep must be positive");
}

void Simulation::compute_forces(bool energy_virial) {
  auto& f = neighbor.clear_forces();
  const auto ev = pair->compute({neighbor.list(), neighbor.packed(), neighbor.ghost_map()}, f, energy_virial);
  if (energy_virial) ev_ = ev;
  neighbor.store_forces(system);
}

ThermoState Simulation::thermo_state() const { return ThermoState{system, ev_, step, dt(), elapsed_time, run_start}; }

void Simulation::print_thermo() {
  const auto values = thermo.values(thermo_state());
  if (!std::isfinite(ev_.energy) || !std::isfinite(temperature(system)))
    throw Error("run: the system blew up at step " + std::to_string(step) +
                " (non-finite energy or temperature): check the timestep, overlapping atoms and thermostat settings");
  out_.line(thermo.row(values));
  out_.thermo_row(runs_, thermo.columns(), values);
}

double Simulation::total_energy(const potentials::EnergyVirial& ev) const {
  Thermo t;
  t.norm = false;
  return *t.value("etotal", ThermoState{system, ev, step, dt(), elapsed_time, run_start});
}

void Simulation::emit_thermo(const potentials::EnergyVirial& ev) {
  ev_ = ev;
  print_thermo();
}

RunSummary Simulation::run(long n) {
  if (n < 0) throw Error("run: the number of steps must not be negative");
  if (precision == Precision::mixed && device != Device::cuda)
    throw Error("run: --precision mixed is implemented on the GPU only (use --device cuda, or double precision)");
  check_ready();
  ++runs_;
  run_start = step;
  RunSummary sum = device == Device::cuda ? cuda::run(*this, n) : run_cpu(n);
  write_summary(sum);
  return sum;
}

RunSummary Simulation::run_cpu(long n) {
  RunSummary sum;
  sum.steps = n;
  sum.atoms = system.atoms.size();
  const auto t0 = std::chrono::steady_clock::now();
  auto& timer = sum.stages;
  timer.reset();

  neighbor.rebuild(system, pair->cutoff());
  const long builds_before = neighbor.builds();
  timer.lap(core::Stage::neighbor);
  compute_forces(true);
  const integrators::RunInfo info{dt(), step, step + n};
  for (auto& fix : fixes) fix->setup(system, info);
  timer.lap(core::Stage::force);
  sum.etotal_start = total_energy(ev_);
  out_.line(thermo.header());
  print_thermo();
  for (auto& d : dumps) d->write(system, step);
  observe_analyses();
  // The loop's clock starts here, as LAMMPS's "Loop time" does after Verlet::setup.
  const auto loop_start = std::chrono::steady_clock::now();
  sum.setup_seconds = std::chrono::duration<double>(loop_start - t0).count();
  timer.reset();

  const long last = step + n;
  core::Progress progress("run", n, "steps");
  for (long k = 0; k < n; ++k) {
    progress.update(k);
    ++step;
    for (auto& fix : fixes) fix->initial_integrate(system, step);
    timer.lap(core::Stage::integrate);
    if (neighbor.due(system)) neighbor.rebuild(system, pair->cutoff());
    else neighbor.refresh(system);
    timer.lap(core::Stage::neighbor);
    const bool thermo_step = step == last || (thermo.every > 0 && step % thermo.every == 0);
    compute_forces(thermo_step);
    timer.lap(core::Stage::force);
    for (auto& fix : fixes) fix->post_force(system, step);
    for (auto& fix : fixes) fix->final_integrate(system, step);
    elapsed_time += dt();
    timer.lap(core::Stage::integrate);
    if (thermo_step) {
      progress.finish();  // clear the progress line before the thermo row
      print_thermo();
    }
    for (auto& d : dumps)
      if (step % d->every() == 0) d->write(system, step);
    observe_analyses();
    timer.lap(core::Stage::output);
  }
  progress.finish();
  sum.etotal_end = total_energy(ev_);
  sum.neighbor_builds = neighbor.builds() - builds_before;
  sum.list_pairs = neighbor.list().pairs();
  sum.images = neighbor.ghosts();
  sum.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start).count();
  return sum;
}

void Simulation::write_summary(const RunSummary& s) {
  const double wall = s.wall_seconds > 0.0 ? s.wall_seconds : 1e-9;
  const std::string where = s.device.empty() ? fmt::format("{} thread(s)", omp_get_max_threads()) : s.device;
  out_.line(fmt::format("Loop time of {:.6g} s on {} for {} steps with {} atoms", s.wall_seconds, where, s.steps,
                        s.atoms));
  const bool lj = system.units.name == "lj";
  const double per_day = dt() * static_cast<double>(s.steps) / wall * 86400.0 * (lj ? 1.0 : 1e-3);
  out_.line(fmt::format("Performance: {:.4g} atom-steps/s, {:.4g} steps/s, {:.4g} {}/day",
                        static_cast<double>(s.atoms) * static_cast<double>(s.steps) / wall,
                        static_cast<double>(s.steps) / wall, per_day, lj ? "tau" : "ns"));
  out_.line(fmt::format("Setup time of {:.6g} s (first neighbour list, forces and output{})", s.setup_seconds,
                        device == Device::cuda ? ", upload to the GPU" : ""));
  out_.line("Stage      time (s)   % of loop");
  for (int k = 0; k < static_cast<int>(core::Stage::count); ++k) {
    const auto st = static_cast<core::Stage>(k);
    out_.line(fmt::format("{:<10} {:9.4f}   {:6.2f}", core::stage_name(st), s.stages.seconds(st),
                          100.0 * s.stages.seconds(st) / wall));
  }
  out_.line(fmt::format("Neighbour list builds: {}   ghost atoms: {}   pairs in list: {}", s.neighbor_builds, s.images,
                        s.list_pairs));
  for (const auto& note : s.notes) out_.line(note);
  const bool conservative =
      !fixes.empty() && std::all_of(fixes.begin(), fixes.end(), [](const auto& f) { return f->conserves_energy(); });
  if (conservative && s.etotal_start != 0.0)
    out_.line(fmt::format("Energy drift over the run: {:.3e} (relative change of total energy)",
                          (s.etotal_end - s.etotal_start) / std::fabs(s.etotal_start)));
  out_.line("");
}

void Simulation::observe_analyses() {
  for (auto& a : analyses)
    if (a->due(step)) a->observe(system, step, dt());
}

void Simulation::finish() {
  for (auto& d : dumps) d->commit();
  for (auto& a : analyses) a->finish();
}

}  // namespace molstep::md
