// SPDX-License-Identifier: MIT
// The GPU twins of fix nve, fix langevin and fix nvt. Each does on the device what its CPU fix
// does on the host, hook by hook, with the same scalars: those that stay fixed over a run are
// computed by the CPU fix's own code on the host (the Langevin friction and noise scale), those
// that change from step to step by the CPU fix's own inline functions run on the device (the
// ramped target, the Nose-Hoover chain: integrators/target.hpp, nose_hoover_chain.hpp), from a
// step count and a chain state kept in device memory. So the two runs agree to round-off, and
// every step enqueues the same launches with the same arguments, with nothing computed or
// waited for on the host (FixCuda::same_every_step).
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "molstep/core/counter_rng.hpp"
#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/fixes_cuda.cuh"
#include "molstep/md/integrators/langevin.hpp"
#include "molstep/md/integrators/nose_hoover.hpp"
#include "molstep/md/integrators/nose_hoover_chain.hpp"
#include "molstep/md/integrators/nve.hpp"
#include "molstep/md/integrators/target.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md::cuda {

namespace {

using integrators::NoseHooverChain;
using integrators::RunInfo;

void check_launch() { MOLSTEP_CUDA_CHECK(cudaGetLastError()); }

// Every kernel here that changes positions, velocities or a fix's state on the device does
// nothing while the run is halted (StepStatus::halted): the step is finished later, after the
// host has repaired the list, and must then find everything as the failed build left it.

// The step count: one more at the start of every step that is not halted (FixesCuda).
__global__ void tick_kernel(const int* halted, long long* clock) {
  if (*halted != 0) return;
  *clock += 1;
}

// Atom i's v += dtfm F (v0..v2 in, the kicked velocity out and stored).
__device__ inline void half_kick(std::size_t i, double dtfm, double& v0, double& v1, double& v2, const double* fx,
                                 const double* fy, const double* fz, double* vx, double* vy, double* vz) {
  v0 = kicked(v0, dtfm, fx[i]);
  v1 = kicked(v1, dtfm, fy[i]);
  v2 = kicked(v2, dtfm, fz[i]);
  vx[i] = v0;
  vy[i] = v1;
  vz[i] = v2;
}

// initial_integrate of fix nve (SCALE false) and fix nvt (SCALE true: the chain's velocity
// scaling first, by the factor the chain kernel left at *scale, rounded on its own as on the
// CPU): v *= scale; v += dt/2 F/m; x += dt v.
template <bool SCALE>
__global__ void initial_kernel(std::size_t n, const int* halted, const double* scale, double half_dt, double dt,
                               const double* mass, Packed4* pos, double* vx, double* vy, double* vz, const double* fx,
                               const double* fy, const double* fz) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || *halted != 0) return;
  Packed4 p = pos[i];
  const double dtfm = half_dt / mass[static_cast<int>(p.w)];
  double v0 = vx[i], v1 = vy[i], v2 = vz[i];
  if (SCALE) {
    const double s = *scale;
    v0 = __dmul_rn(v0, s);
    v1 = __dmul_rn(v1, s);
    v2 = __dmul_rn(v2, s);
  }
  half_kick(i, dtfm, v0, v1, v2, fx, fy, fz, vx, vy, vz);
  p.x = drifted(p.x, dt, v0);
  p.y = drifted(p.y, dt, v1);
  p.z = drifted(p.z, dt, v2);
  pos[i] = p;
}

// The half kick v += dt/2 F/m (KICK) and/or each atom's m v^2 after it, for the kinetic energy
// (MVV).
template <bool KICK, bool MVV>
__global__ void final_kernel(std::size_t n, const int* halted, double half_dt, const double* mass, const int* type,
                             double* vx, double* vy, double* vz, const double* fx, const double* fy, const double* fz,
                             double* mvv) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || *halted != 0) return;
  const double m = mass[type[i]];
  double v0 = vx[i], v1 = vy[i], v2 = vz[i];
  if (KICK) {
    half_kick(i, half_dt / m, v0, v1, v2, fx, fy, fz, vx, vy, vz);
  }
  if (MVV) mvv[i] = (v0 * v0 + v1 * v1 + v2 * v2) * m;
}

// v *= *scale, the factor the chain kernel left.
__global__ void scale_kernel(std::size_t n, const int* halted, const double* scale, double* vx, double* vy,
                             double* vz) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || *halted != 0) return;
  const double s = *scale;
  vx[i] = __dmul_rn(vx[i], s);
  vy[i] = __dmul_rn(vy[i], s);
  vz[i] = __dmul_rn(vz[i], s);
}

// fix nvt's chain, one thread: the half step before the first kick, at the step the device
// counts (the target ramps with it). The factor goes to *scale for initial_kernel<true>.
__global__ void chain_before_kernel(const int* halted, const long long* clock, NoseHooverChain* chain,
                                    double* scale) {
  if (*halted != 0) return;
  NoseHooverChain c = *chain;
  *scale = integrators::chain_before_kick(c, static_cast<long>(*clock));
  *chain = c;
}

// fix nvt's chain, one thread: the half step after the second kick, from the temperature of the
// kicked velocities (md::temperature's formula on the device's sum of m v^2; t_factor is
// mvv2e / (dof kB), 0 where there are no degrees of freedom). The factor goes to *scale for
// scale_kernel.
__global__ void chain_after_kernel(const int* halted, const double* mvv_sum, double t_factor, bool has_dof,
                                   NoseHooverChain* chain, double* scale) {
  if (*halted != 0) return;
  const double t = has_dof ? __dmul_rn(*mvv_sum, t_factor) : 0.0;
  NoseHooverChain c = *chain;
  *scale = integrators::chain_after_kick(c, t);
  *chain = c;
}

// What fix langevin's force needs besides the atoms: per type, friction(m) and sqrt(m); the
// noise's scale and the target's ramp, which with the step count give the amplitude at a step
// as FixLangevin::noise does; and the generator.
struct LangevinTerms {
  const double* friction;
  const double* sqrt_mass;
  double noise_scale;
  double t_start, t_stop;
  RunInfo run;
  core::CounterRng rng;
};

// fix langevin's post_force: F += friction v + sqrt(m) noise (r - 1/2) per component, with r
// from the counter-based generator keyed by (seed, atom id, step, component) as on the CPU, the
// step and the ramped amplitude from the step count on the device. The operations are rounded
// one by one (no fused multiply-add), in the CPU's order. It changes forces only, which the
// force kernel writes anew at every step (and at the redo of a halted one), so it need not
// check for a halt.
__global__ void langevin_kernel(std::size_t n, const int* type, const std::int64_t* id, const double* vx,
                                const double* vy, const double* vz, double* fx, double* fy, double* fz,
                                const long long* clock, LangevinTerms lt) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const long step = static_cast<long>(*clock);
  const double tsqrt = integrators::rn::sqrt(integrators::target_temperature(lt.t_start, lt.t_stop, lt.run, step));
  const double noise = __dmul_rn(lt.noise_scale, tsqrt);
  const int t = type[i];
  const double g1 = lt.friction[t];
  const double g2 = __dmul_rn(lt.sqrt_mass[t], noise);
  const auto key = static_cast<std::uint64_t>(id[i]);
  const auto st = static_cast<std::uint64_t>(step);
  const auto term = [&](double v, std::uint32_t d) {
    return __dadd_rn(__dmul_rn(g1, v), __dmul_rn(g2, __dsub_rn(lt.rng.uniform(key, st, d), 0.5)));
  };
  fx[i] = __dadd_rn(fx[i], term(vx[i], 0));
  fy[i] = __dadd_rn(fy[i], term(vy[i], 1));
  fz[i] = __dadd_rn(fz[i], term(vz[i], 2));
}

Kick kick_of(DeviceAtoms& a, double half_dt, const int* halted) {
  return Kick{true, half_dt, a.mass.data(), a.vx.data(), a.vy.data(), a.vz.data(), halted};
}

// ---- fix nve ----------------------------------------------------------------------------------

class NveCuda final : public FixCuda {
 public:
  NveCuda(double half_dt, double dt, const int* halted) : half_dt_(half_dt), dt_(dt), halted_(halted) {}
  void initial_integrate(DeviceAtoms& a) override {
    gpu::launch(a.n, initial_kernel<false>, a.n, halted_, nullptr, half_dt_, dt_, a.mass.data(), a.pos.data(),
                a.vx.data(), a.vy.data(), a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data());
    check_launch();
  }
  void final_integrate(DeviceAtoms& a) override {
    if (kick_fused) return;
    gpu::launch(a.n, final_kernel<true, false>, a.n, halted_, half_dt_, a.mass.data(), a.type.data(), a.vx.data(),
                a.vy.data(), a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data(), nullptr);
    check_launch();
  }
  [[nodiscard]] bool has_final() const override { return true; }
  [[nodiscard]] bool final_begins_with_kick() const override { return true; }
  [[nodiscard]] bool initial_is_kick_and_drift() const override { return true; }
  [[nodiscard]] bool same_every_step() const override { return true; }

 private:
  double half_dt_, dt_;
  const int* halted_;
};

// ---- fix langevin -----------------------------------------------------------------------------

class LangevinCuda final : public FixCuda {
 public:
  LangevinCuda(const integrators::FixLangevin& fix, const System& s, const long long* clock)
      : fix_(fix), units_(s.units), clock_(clock) {}
  void setup(System& host, DeviceAtoms& a, const RunInfo& run) override {
    // Per-type terms and the noise's scale, computed on the host by the CPU fix's own functions
    // (so bit for bit the same).
    std::vector<double> friction(host.mass.size(), 0.0), sqrt_mass(host.mass.size(), 0.0);
    for (std::size_t t = 1; t < host.mass.size(); ++t) {
      friction[t] = fix_.friction(units_, host.mass[t]);
      sqrt_mass[t] = std::sqrt(host.mass[t]);
    }
    friction_.upload(friction);
    sqrt_mass_.upload(sqrt_mass);
    noise_scale_ = fix_.noise_scale(units_, run);
    run_ = run;
    post_force(a);  // as FixLangevin::setup: the setup forces get the thermostat too (the count is run.first_step)
  }
  void post_force(DeviceAtoms& a) override {
    const LangevinTerms lt{friction_.data(), sqrt_mass_.data(), noise_scale_, fix_.t_start(), fix_.t_stop(), run_,
                           fix_.rng()};
    gpu::launch(a.n, langevin_kernel, a.n, a.type.data(), a.id.data(), a.vx.data(), a.vy.data(), a.vz.data(),
                a.fx.data(), a.fy.data(), a.fz.data(), clock_, lt);
    check_launch();
  }
  [[nodiscard]] bool has_post_force() const override { return true; }
  [[nodiscard]] bool uses_clock() const override { return true; }
  [[nodiscard]] bool same_every_step() const override { return true; }
  [[nodiscard]] std::size_t bytes() const override { return friction_.bytes() + sqrt_mass_.bytes(); }

 private:
  const integrators::FixLangevin& fix_;
  core::UnitSystem units_;
  const long long* clock_;
  RunInfo run_{0.0, 0, 0};
  double noise_scale_ = 0.0;
  gpu::DeviceArray<double> friction_, sqrt_mass_;
};

// ---- fix nvt ----------------------------------------------------------------------------------

// The chain lives in device memory for the run: copied there from the CPU fix after its setup,
// advanced by one-thread kernels with the CPU fix's own inline code (before the first kick, at
// the step the device counts; after the second kick, from the kinetic energy summed on the
// device), and copied back to the CPU fix at the end of the run. The velocity scalings read the
// factor the chain kernels leave in device memory. cub's reduction is deterministic (a fixed
// grid and order for a given atom count), so a step gives the same bits whether replayed from a
// graph or launched directly.
class NoseHooverCuda final : public FixCuda {
 public:
  NoseHooverCuda(integrators::FixNoseHoover& fix, const System& s, double half_dt, double dt, const int* halted,
                 const long long* clock)
      : fix_(fix), half_dt_(half_dt), dt_(dt), halted_(halted), clock_(clock) {
    const double dof = temperature_dof(s);
    has_dof_ = dof > 0.0;
    t_factor_ = has_dof_ ? s.units.mvv2e / (dof * s.units.boltz) : 0.0;  // md::temperature's factor
  }
  void setup(System& host, DeviceAtoms& a, const RunInfo& run) override {
    mvv_.resize(a.n);
    sum_.resize(1);
    scale_.resize(2);
    std::size_t scratch = 0;
    MOLSTEP_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, scratch, mvv_.data(), sum_.data(), static_cast<int>(a.n)));
    scratch_.resize(scratch > 0 ? scratch : 1);  // never a null pointer (cub would take it for a size query)
    // The host copy holds the device's velocities: the chain starts from them as on the CPU,
    // continuing the last run's eta and eta_dot (handed back by finish()).
    fix_.setup(host, run);
    chain_.upload(std::vector<NoseHooverChain>{fix_.chain()});
  }
  void initial_integrate(DeviceAtoms& a) override {
    chain_before_kernel<<<1, 1, 0, gpu::stream()>>>(halted_, clock_, chain_.data(), scale_.data());
    check_launch();
    gpu::launch(a.n, initial_kernel<true>, a.n, halted_, scale_.data(), half_dt_, dt_, a.mass.data(), a.pos.data(),
                a.vx.data(), a.vy.data(), a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data());
    check_launch();
  }
  void final_integrate(DeviceAtoms& a) override {
    const auto launch = [&](auto kernel) {
      gpu::launch(a.n, kernel, a.n, halted_, half_dt_, a.mass.data(), a.type.data(), a.vx.data(), a.vy.data(),
                  a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data(), mvv_.data());
    };
    kick_fused ? launch(final_kernel<false, true>) : launch(final_kernel<true, true>);
    check_launch();
    // While halted, mvv holds an earlier step's values and the sum is not read.
    std::size_t scratch = scratch_.size();
    MOLSTEP_CUDA_CHECK(cub::DeviceReduce::Sum(scratch_.data(), scratch, mvv_.data(), sum_.data(),
                                              static_cast<int>(a.n), gpu::stream()));
    chain_after_kernel<<<1, 1, 0, gpu::stream()>>>(halted_, sum_.data(), t_factor_, has_dof_, chain_.data(),
                                                   scale_.data() + 1);
    check_launch();
    gpu::launch(a.n, scale_kernel, a.n, halted_, scale_.data() + 1, a.vx.data(), a.vy.data(), a.vz.data());
    check_launch();
  }
  void finish() override {
    std::vector<NoseHooverChain> c;
    chain_.download(c);
    fix_.set_chain(c.at(0));
  }
  [[nodiscard]] bool has_final() const override { return true; }
  [[nodiscard]] bool final_begins_with_kick() const override { return true; }
  [[nodiscard]] bool uses_clock() const override { return true; }
  [[nodiscard]] bool same_every_step() const override { return true; }
  [[nodiscard]] std::size_t bytes() const override {
    return mvv_.bytes() + sum_.bytes() + scale_.bytes() + scratch_.bytes() + chain_.bytes();
  }

 private:
  integrators::FixNoseHoover& fix_;
  double half_dt_, dt_;
  const int* halted_;
  const long long* clock_;
  bool has_dof_ = false;
  double t_factor_ = 0.0;
  gpu::DeviceArray<double> mvv_, sum_;
  gpu::DeviceArray<double> scale_;  ///< the chain's factors: [0] before the first kick, [1] after the second
  gpu::DeviceArray<unsigned char> scratch_;
  gpu::DeviceArray<NoseHooverChain> chain_;
};

}  // namespace

FixesCuda::FixesCuda(std::vector<std::unique_ptr<integrators::Fix>>& fixes, const System& s, double dt,
                     const int* halted)
    : half_dt_(0.5 * dt * s.units.ftm2v), halted_(halted) {
  clock_.resize(1);
  for (auto& f : fixes) {
    const std::string style(f->style());
    if (style == "nve" && dynamic_cast<integrators::FixNve*>(f.get())) {
      fixes_.push_back(std::make_unique<NveCuda>(half_dt_, dt, halted));
    } else if (auto* lv = style == "langevin" ? dynamic_cast<integrators::FixLangevin*>(f.get()) : nullptr) {
      fixes_.push_back(std::make_unique<LangevinCuda>(*lv, s, clock_.data()));
    } else if (auto* nh = style == "nvt" ? dynamic_cast<integrators::FixNoseHoover*>(f.get()) : nullptr) {
      fixes_.push_back(std::make_unique<NoseHooverCuda>(*nh, s, half_dt_, dt, halted, clock_.data()));
    } else {
      throw Error("fix " + style + " runs only on the CPU so far (use --device cpu)");
    }
  }
  clocked_ = std::any_of(fixes_.begin(), fixes_.end(), [](const auto& f) { return f->uses_clock(); });
  // The force kernel may apply the half kick that begins final_integrate only when nothing comes
  // between the forces and that kick: no post_force work, and one fix with final_integrate work.
  bool post_force = false;
  int finals = 0;
  FixCuda* kicker = nullptr;
  for (auto& f : fixes_) {
    post_force = post_force || f->has_post_force();
    if (f->has_final()) {
      ++finals;
      kicker = f.get();
    }
  }
  fused_ = !post_force && finals == 1 && kicker->final_begins_with_kick();
  if (fused_) kicker->kick_fused = true;
}

FixesCuda::~FixesCuda() = default;

Kick FixesCuda::force_kick(DeviceAtoms& a) const {
  if (fused_) return kick_of(a, half_dt_, halted_);
  return Kick{false, 0.0, nullptr, nullptr, nullptr, nullptr, nullptr};
}

bool FixesCuda::drift_fusable() const {
  return fused_ && !clocked_ && fixes_.size() == 1 && fixes_.front()->initial_is_kick_and_drift();
}

bool FixesCuda::same_every_step() const {
  return std::all_of(fixes_.begin(), fixes_.end(), [](const auto& f) { return f->same_every_step(); });
}

void FixesCuda::setup(System& host, DeviceAtoms& a, const integrators::RunInfo& run) {
  // A plain copy: ordered with the stream of the step (an ordinary, blocking stream).
  clock_.upload(std::vector<long long>{static_cast<long long>(run.first_step)});
  for (auto& f : fixes_) f->setup(host, a, run);
}

void FixesCuda::initial_integrate(DeviceAtoms& a) {
  if (clocked_) {
    tick_kernel<<<1, 1, 0, gpu::stream()>>>(halted_, clock_.data());
    check_launch();
  }
  for (auto& f : fixes_) f->initial_integrate(a);
}

void FixesCuda::post_force(DeviceAtoms& a) {
  for (auto& f : fixes_) f->post_force(a);
}

void FixesCuda::final_integrate(DeviceAtoms& a) {
  for (auto& f : fixes_) f->final_integrate(a);
}

void FixesCuda::finish(long last_step) {
  MOLSTEP_CUDA_CHECK(cudaStreamSynchronize(gpu::stream()));
  if (clocked_) {
    std::vector<long long> count;
    clock_.download(count);
    if (count.at(0) != static_cast<long long>(last_step))
      throw Error("internal error: the GPU fixes counted to step " + std::to_string(count.at(0)) +
                  " where the run ended at step " + std::to_string(last_step) + " (please report this)");
  }
  for (auto& f : fixes_) f->finish();
}

std::size_t FixesCuda::bytes() const {
  std::size_t b = clock_.bytes();
  for (const auto& f : fixes_) b += f->bytes();
  return b;
}

}  // namespace molstep::md::cuda
