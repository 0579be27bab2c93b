// SPDX-License-Identifier: MIT
#include <chrono>
#include <cmath>
#include <cstdio>

#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/core/progress.hpp"
#include "molstep/md/cuda/fixes_cuda.cuh"
#include "molstep/md/cuda/neighbor_cuda.cuh"
#include "molstep/md/cuda/pair_cuda.cuh"
#include "molstep/md/cuda/run_cuda.hpp"
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


void upload(const System& s, DeviceAtoms& a) {
  const auto& h = s.atoms;
  a.n = h.size();
  std::vector<Packed4> pos(a.n);
  for (std::size_t i = 0; i < a.n; ++i) pos[i] = Packed4{h.x[i], h.y[i], h.z[i], static_cast<double>(h.type[i])};
  a.pos.upload(pos);
  a.vx.upload(h.vx);
  a.vy.upload(h.vy);
  a.vz.upload(h.vz);
  for (auto* f : {&a.fx, &a.fy, &a.fz}) {
    f->resize(a.n);
    f->zero();
  }
  a.type.upload(h.type);
  a.ix.upload(h.ix);
  a.iy.upload(h.iy);
  a.iz.upload(h.iz);
  a.id.upload(h.id);
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
  a.vx.download(h.vx);
  a.vy.download(h.vy);
  a.vz.download(h.vz);
  a.fx.download(h.fx);
  a.fy.download(h.fy);
  a.fz.download(h.fz);
  a.type.download(h.type);
  a.ix.download(h.ix);
  a.iy.download(h.iy);
  a.iz.download(h.iz);
  a.id.download(h.id);
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

RunSummary run(Simulation& sim, long nsteps) {
  if (device_count() == 0) throw Error("--device cuda: no CUDA device is available (use --device cpu)");
  System& s = sim.system;
  // The fixes' GPU twins first: a fix without one is an error naming --device cpu.
  const double dt = sim.dt();
  FixesCuda fixes(sim.fixes, s, dt);
  const std::size_t n = s.atoms.size();
  const double skin = sim.neighbor.settings.skin;
  const double rl = sim.pair->cutoff() + skin;
  for (int d = 0; d < 3; ++d)
    if (2.0 * rl > s.box.length(d))
      throw Error(format("pair cutoff plus skin (%g) is more than half the box length in %c (box length %g)", rl, "xyz"[d],
                              s.box.length(d)));
  // Memory check before any allocation: about 30 words per atom of state and scratch, plus the
  // list at 1.2 times the mean neighbour count.
  const double volume = s.box.volume();
  const double list_words = 1.2 * 4.18879 * rl * rl * rl * static_cast<double>(n) / volume + 16.0;
  const double need = static_cast<double>(n) * (30.0 * 8.0 + list_words * 4.0);
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
  NeighborCuda nb;
  DeviceList list;
  auto pair = PairCuda::make(*sim.pair, s.ntypes, sim.precision == Precision::mixed);
  nb.build(a, box, rl, list);
  long builds = 1;
  const Kick no_kick{false, 0.0, nullptr, nullptr, nullptr, nullptr};
  // The second half kick of the step, fused into the force kernel when no fix has work between
  // the forces and that kick (fix nve, fix nvt); otherwise (fix langevin adds its force at
  // post_force) the fixes kick in their own kernels after post_force, as on the CPU.
  const Kick kick = fixes.force_kick(a);
  pair->compute(a, box, list, true, no_kick);
  // As the CPU run: the fixes' setup after the setup forces (fix langevin adds its force for the
  // first step; fix nvt starts its chain from the host copy, which holds the same velocities).
  fixes.setup(s, a, integrators::RunInfo{dt, sim.step, sim.step + nsteps});
  auto ev = pair->reduce(n);
  download(a, s);
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
  timer.lap(core::Stage::force);
  sum.etotal_start = sim.total_energy(ev);
  sim.output().line(sim.thermo.header());
  sim.emit_thermo(ev);
  for (auto& dmp : sim.dumps) dmp->write(s, sim.step);
  sim.observe_analyses();
  timer.lap(core::Stage::output);

  const auto& ns = sim.neighbor.settings;
  const long last = sim.step + nsteps;
  long ago = 0;
  core::Progress progress("run", nsteps, "steps");
  // Stage times come from synchronising around the stages of every seventh step (7 shares no
  // factor with usual rebuild and thermo intervals, so rebuild steps are sampled in proportion);
  // the other steps run without any host round trip unless the displacement check or output
  // needs one.
  for (long k = 0; k < nsteps; ++k) {
    progress.update(k);
    const bool sample = k % 7 == 0;
    const auto lap = [&](core::Stage st) {
      if (!sample) return;
      MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
      timer.lap(st);
    };
    if (sample) {
      MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
      timer.skip();
    }
    ++sim.step;
    fixes.initial_integrate(a, sim.step);
    lap(core::Stage::integrate);
    ++ago;
    if (ago >= ns.delay && ago % ns.every == 0 && (!ns.check || nb.moved_beyond(a, 0.5 * skin))) {
      nb.build(a, box, rl, list);
      ++builds;
      ago = 0;
    }
    lap(core::Stage::neighbor);
    const bool thermo_step = sim.step == last || (sim.thermo.every > 0 && sim.step % sim.thermo.every == 0);
    pair->compute(a, box, list, thermo_step, kick);
    lap(core::Stage::force);
    fixes.post_force(a, sim.step);
    fixes.final_integrate(a, sim.step);
    sim.elapsed_time += dt;
    lap(core::Stage::integrate);
    bool need_host = thermo_step;
    for (auto& dmp : sim.dumps) need_host = need_host || sim.step % dmp->every() == 0;
    // In-situ analyses read the positions where they are unless a query needs them on the host.
    for (auto& an : sim.analyses) {
      if (!an->due(sim.step)) continue;
      if (an->device_ready()) {
        an->observe_device(analysis::DevicePositions{&a.pos.data()->x, 4, a.id.data(), n}, s, sim.step, dt);
      } else {
        need_host = true;
      }
    }
    if (need_host) {
      if (thermo_step) ev = pair->reduce(n);
      download(a, s);
      if (thermo_step) {
        progress.finish();
        sim.emit_thermo(ev);
      }
      for (auto& dmp : sim.dumps)
        if (sim.step % dmp->every() == 0) dmp->write(s, sim.step);
      sim.observe_analyses();
      if (sample) timer.lap(core::Stage::output);
    }
  }
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
  progress.finish();
  // Unsampled steps: spread their time over the stages in the sampled proportions.
  const double measured = timer.total();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sum.stages = timer;
  if (measured > 0.0) {
    core::StageTimer out;
    out.reset();
    for (int st = 0; st < static_cast<int>(core::Stage::count); ++st) {
      const auto stage = static_cast<core::Stage>(st);
      out.add(stage, timer.seconds(stage) * wall / measured);
    }
    sum.stages = out;
  }
  download(a, s);
  sum.etotal_end = sim.total_energy(ev);
  sum.neighbor_builds = builds - 1;
  sum.list_pairs = 0;
  sum.wall_seconds = wall;
  std::size_t bytes = nb.bytes() + pair->bytes() + fixes.bytes() + list.index.bytes() + list.count.bytes();
  bytes += a.pos.bytes();
  for (const auto* arr : {&a.vx, &a.vy, &a.vz, &a.fx, &a.fy, &a.fz}) bytes += arr->bytes();
  bytes += a.type.bytes() + a.ix.bytes() + a.iy.bytes() + a.iz.bytes() + a.id.bytes();
  sum.notes.push_back(format("GPU memory: %s allocated by molstep (neighbour list: %d slots per atom)",
                                  gib(static_cast<double>(bytes)).c_str(), list.max_neighbors));
  return sum;
}

}  // namespace molstep::md::cuda
