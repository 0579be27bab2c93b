// SPDX-License-Identifier: MIT
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "molstep/core/error.hpp"
#include "molstep/core/progress.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/fixes_cuda.cuh"
#include "molstep/md/cuda/neighbor_cuda.cuh"
#include "molstep/md/cuda/pair_cuda.cuh"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/cuda/step_cuda.cuh"
#include "molstep/md/cuda/step_status.cuh"
#include "molstep/md/simulation.hpp"

namespace molstep::md::cuda {

namespace {

// fmt does not compile under nvcc in C++20 mode, so this file formats with snprintf.
template <class... Args>
std::string format(const char* f, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

// Calls f(device array, host array) for each per-atom array that goes up and comes back as it
// is (positions travel packed, forces only come back).
template <class Atoms, class Host, class F>
void for_each_copied(Atoms& a, Host& h, F f) {
  f(a.vx, h.vx);
  f(a.vy, h.vy);
  f(a.vz, h.vz);
  f(a.type, h.type);
  f(a.ix, h.ix);
  f(a.iy, h.iy);
  f(a.iz, h.iz);
  f(a.id, h.id);
}

void upload(const System& s, DeviceAtoms& a) {
  const auto& h = s.atoms;
  a.n = h.size();
  std::vector<Packed4> pos(a.n);
  for (std::size_t i = 0; i < a.n; ++i) pos[i] = Packed4{h.x[i], h.y[i], h.z[i], static_cast<double>(h.type[i])};
  a.pos.upload(pos);
  for_each_copied(a, s.atoms, [](auto& device, auto& host) { device.upload(host); });
  for (auto* f : {&a.fx, &a.fy, &a.fz}) {
    f->resize(a.n);
    f->zero();
  }
  a.mass.upload(s.mass);
}

void download(const DeviceAtoms& a, System& s) {
  auto& h = s.atoms;
  std::vector<Packed4> pos;
  a.pos.download(pos);
  h.x.resize(a.n);
  h.y.resize(a.n);
  h.z.resize(a.n);
  for (std::size_t i = 0; i < a.n; ++i) {
    h.x[i] = pos[i].x;
    h.y[i] = pos[i].y;
    h.z[i] = pos[i].z;
  }
  for_each_copied(a, h, [](const auto& device, auto& host) { device.download(host); });
  a.fx.download(h.fx);
  a.fy.download(h.fy);
  a.fz.download(h.fz);
}

std::string gib(double bytes) { return format("%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

}  // namespace

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

std::string device_summary() {
  if (device_count() == 0) return {};
  cudaDeviceProp p{};
  MOLSTEP_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
  return format("%s (%s, sm_%d%d)", p.name, gib(static_cast<double>(p.totalGlobalMem)).c_str(), p.major, p.minor);
}

int threads_per_atom(std::size_t atoms) { return PairCuda::threads_per_atom(atoms); }

RunSummary run(Simulation& sim, long nsteps) {
  if (device_count() == 0) throw Error("--device cuda: no CUDA device is available (use --device cpu)");
  System& s = sim.system;
  const double dt = sim.dt();
  const long first = sim.step, last = sim.step + nsteps;
  StepStatus initial_status;
  initial_status.step = first;
  StepStatusChannel status(initial_status);
  // The fixes' GPU twins first: a fix without one is an error naming --device cpu.
  FixesCuda fixes(sim.fixes, s, dt, &status.device()->halted);
  const std::size_t n = s.atoms.size();
  const double skin = sim.neighbor.settings.skin;
  const double rl = sim.pair->cutoff() + skin;
  for (int d = 0; d < 3; ++d)
    if (2.0 * rl > s.box.length(d))
      throw Error(format("pair cutoff plus skin (%g) is more than half the box length in %c (box length %g)", rl, "xyz"[d],
                              s.box.length(d)));
  // Memory check before any allocation: about 30 words per atom of state and scratch, the list
  // at 1.2 times the mean neighbour count (three times for EAM, which keeps two inner lists as large),
  // and 3 words per cell of the list build (cells half the list cutoff wide: a dilute system
  // can have many more cells than atoms).
  const double volume = s.box.volume();
  const double list_words = 1.2 * 4.18879 * rl * rl * rl * static_cast<double>(n) / volume + 16.0;
  const double cells = volume / (0.125 * rl * rl * rl);
  const double lists = PairCuda::list_copies(*sim.pair);
  const double need = static_cast<double>(n) * (30.0 * 8.0 + lists * list_words * 4.0) + 12.0 * cells;
  std::size_t free_bytes = 0, total_bytes = 0;
  MOLSTEP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (need > 0.9 * static_cast<double>(free_bytes))
    throw Error(format("this run needs about %s of GPU memory and %s is free on %s (use fewer atoms or --device cpu)",
                            gib(need).c_str(), gib(static_cast<double>(free_bytes)).c_str(), device_summary().c_str()));

  RunSummary sum;
  sum.steps = nsteps;
  sum.atoms = n;
  sum.device = "GPU " + device_summary() + (sim.precision == Precision::mixed ? ", mixed precision" : "");
  if (!gpu::tuning().is_default()) sum.device += ", kernel variant " + gpu::tuning().describe();
  auto& timer = sum.stages;
  const auto t0 = std::chrono::steady_clock::now();
  timer.reset();

  DeviceAtoms a;
  upload(s, a);
  DeviceBox box{};
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = s.box.lo[d];
    box.len[d] = s.box.length(d);
    box.inv[d] = 1.0 / box.len[d];
  }
  const auto& ns = sim.neighbor.settings;
  const int every = std::max(1, ns.every);
  NeighborCuda nb(box, rl, ListRule{every, ns.delay, ns.check, skin}, n, PairCuda::list_by_distance(*sim.pair, n));
  DeviceList list;
  auto pair = PairCuda::make(*sim.pair, s.ntypes, sim.precision == Precision::mixed, n, skin);
  if (const int tpa = PairCuda::threads_per_atom(n); tpa > 1 && gpu::tuning().threads_per_atom == 0)
    sum.device += ", " + std::to_string(tpa) + " threads per atom";
  nb.build_now(a, list, status);
  const Kick no_kick{false, 0.0, nullptr, nullptr, nullptr, nullptr, nullptr};
  // The second half kick of the step, fused into the force kernel when no fix has work between
  // the forces and that kick (fix nve, fix nvt); otherwise (fix langevin adds its force at
  // post_force) the fixes kick in their own kernels after post_force, as on the CPU.
  const Kick kick = fixes.force_kick(a);
  pair->compute(a, box, list, true, no_kick, false);
  // As the CPU run: the fixes' setup after the setup forces (fix langevin adds its force for the
  // first step; fix nvt starts its chain from the host copy, which holds the same velocities).
  fixes.setup(s, a, integrators::RunInfo{dt, first, last});
  auto ev = pair->reduce(n);
  download(a, s);
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
  timer.lap(core::Stage::force);
  sum.etotal_start = sim.total_energy(ev);
  sim.output().line(sim.thermo.header());
  sim.emit_thermo(ev);
  for (auto& dmp : sim.dumps) dmp->write(s, sim.step);
  sim.observe_analyses();
  // The loop's clock starts here, as LAMMPS's "Loop time" does after Verlet::setup.
  const auto loop_start = std::chrono::steady_clock::now();
  sum.setup_seconds = std::chrono::duration<double>(loop_start - t0).count();
  timer.reset();

  StepCuda step({a, box, nb, list, *pair, fixes, status.device(), kick, dt});
  const auto build_step = [&](long t) { return (t - first) % every == 0; };
  const auto thermo_step = [&](long t) {
    return t == last || (sim.thermo.every > 0 && t % sim.thermo.every == 0);
  };
  const auto output_step = [&](long t) {
    bool out = thermo_step(t);
    for (auto& dmp : sim.dumps) out = out || t % dmp->every() == 0;
    for (auto& an : sim.analyses) out = out || an->due(t);
    return out;
  };

  // The host learns what the device decided (builds, a failed build) from StepStatus: at output
  // steps, which wait for the device anyway, and every kPoll steps from a copy posted kPoll steps
  // before (by then long arrived), so the steps between never wait. A build that fails (the list
  // overflowed) halts the device right after its list pass; the host finds out at the next read,
  // grows the list, lists again, winds its own step count back to the failed step and finishes
  // that step, so the run goes on exactly as if the list had been large enough.
  constexpr long kPoll = 32;
  struct Confirmed {
    long step;
    double elapsed;
  } good{first, sim.elapsed_time}, posted{-1, 0.0};
  const auto resume = [&](const StepStatus& st) {
    if (nb.repair(a, list, status)) step.invalidate();
    sim.elapsed_time = good.elapsed;
    for (long t = good.step; t < st.step; ++t) sim.elapsed_time += dt;
    sim.step = st.step;
    step.rewind();
    step.forces(thermo_step(sim.step));
    step.final(sim.step);
  };
  const auto settle = [&] {
    const StepStatus st = status.read();
    if (st.halted) resume(st);
    good = {sim.step, sim.elapsed_time};
    posted.step = -1;
  };
  const auto poll = [&] {
    if (posted.step >= 0) {
      const StepStatus st = status.collect();
      if (st.halted) {
        settle();
        return;
      }
      good = posted;
    }
    status.post();
    posted = {sim.step, sim.elapsed_time};
  };
  core::Progress progress("run", nsteps, "steps");
  const auto output = [&](long t) {
    bool need_host = thermo_step(t);
    for (auto& dmp : sim.dumps) need_host = need_host || t % dmp->every() == 0;
    // In-situ analyses read the positions where they are unless a query needs them on the host.
    for (auto& an : sim.analyses) {
      if (!an->due(t)) continue;
      if (an->device_ready()) {
        an->observe_device(analysis::DevicePositions{&a.pos.data()->x, 4, a.id.data(), n}, s, t, dt);
      } else {
        need_host = true;
      }
    }
    if (!need_host) return;
    if (thermo_step(t)) ev = pair->reduce(n);
    download(a, s);
    if (thermo_step(t)) {
      progress.finish();
      sim.emit_thermo(ev);
    }
    for (auto& dmp : sim.dumps)
      if (t % dmp->every() == 0) dmp->write(s, t);
    sim.observe_analyses();
  };

  // Stage times come from synchronising around the stages of sampled steps, every 7th (7 shares
  // no factor with usual rebuild and thermo intervals, so build steps are sampled in proportion),
  // or every 91st (7 x 13) where steps are replayed from graphs, whose gain a sample undoes.
  // The other steps run without any host round trip; output steps wait for the device.
  const long sample_every = step.graphs_on() ? 91 : 7;
  while (sim.step < last) {
    progress.update(sim.step - first);
    const long t = ++sim.step;
    const bool out = output_step(t), build = build_step(t);
    const bool sample = (t - first - 1) % sample_every == 0;
    // The force kernel may apply the next step's drift where nobody reads this step's end state.
    const bool drift = step.drift_fusable() && !out && t < last, next_build = drift && build_step(t + 1);
    if (!out && !sample) {
      step.run(t, build, drift, next_build);
    } else {
      const auto lap = [&](core::Stage st) {
        if (!sample) return;
        MOLSTEP_CUDA_CHECK(cudaStreamSynchronize(gpu::stream()));
        timer.lap(st);
      };
      if (sample) {
        MOLSTEP_CUDA_CHECK(cudaStreamSynchronize(gpu::stream()));
        timer.skip();
      }
      step.initial(t);
      lap(core::Stage::integrate);
      step.neighbor(build);
      lap(core::Stage::neighbor);
      step.forces(thermo_step(t), drift, next_build);
      lap(core::Stage::force);
      step.final(t);
      lap(core::Stage::integrate);
    }
    sim.elapsed_time += dt;
    if (out) {
      settle();
      if (output_step(sim.step)) output(sim.step);
      if (sample) timer.lap(core::Stage::output);
    } else if ((t - first) % kPoll == 0) {
      poll();
    }
  }
  const StepStatus final_status = status.read();
  // The fixes' state on the device (the Nose-Hoover chain) back to the CPU fixes, for the next run.
  fixes.finish(sim.step);
  progress.finish();
  // Unsampled steps: spread their time over the stages in the sampled proportions.
  const double measured = timer.total();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start).count();
  sum.stages = timer;
  if (measured > 0.0) {
    core::StageTimer spread;
    spread.reset();
    for (int st = 0; st < static_cast<int>(core::Stage::count); ++st) {
      const auto stage = static_cast<core::Stage>(st);
      spread.add(stage, timer.seconds(stage) * wall / measured);
    }
    sum.stages = spread;
  }
  download(a, s);
  sum.etotal_end = sim.total_energy(ev);
  sum.neighbor_builds = final_status.builds;
  sum.list_pairs = 0;
  sum.wall_seconds = wall;
  std::size_t bytes = nb.bytes() + pair->bytes() + fixes.bytes() + list.index.bytes() + list.count.bytes() +
                      status.bytes();
  bytes += a.pos.bytes();
  for (const auto* arr : {&a.vx, &a.vy, &a.vz, &a.fx, &a.fy, &a.fz}) bytes += arr->bytes();
  bytes += a.type.bytes() + a.ix.bytes() + a.iy.bytes() + a.iz.bytes() + a.id.bytes();
  sum.notes.push_back(format("GPU memory: %s allocated by molstep (neighbour list: %d slots per atom)",
                                  gib(static_cast<double>(bytes)).c_str(), list.max_neighbors));
  sum.notes.push_back(step.summary());
  sum.notes.push_back(format("GPU list build kernels launched with no build due: %lld steps (steps replayed from "
                             "CUDA graphs skip them)",
                             final_status.idle_builds));
  if (auto note = pair->summary(); !note.empty()) sum.notes.push_back(std::move(note));
  return sum;
}

}  // namespace molstep::md::cuda
