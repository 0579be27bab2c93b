// SPDX-License-Identifier: MIT
// The GPU twins of fix nve, fix langevin and fix nvt. Each does on the device what its CPU fix
// does on the host, hook by hook, with the same scalars computed by the CPU fix's own code on
// the host (the Langevin amplitudes, the Nose-Hoover chain), so the two runs agree to round-off.
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
#include "molstep/md/integrators/nve.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md::cuda {

namespace {

void check_launch() { MOLSTEP_CUDA_CHECK(cudaGetLastError()); }

// initial_integrate of fix nve (SCALE false) and fix nvt (SCALE true: the chain's velocity
// scaling first, rounded on its own as on the CPU): v *= scale; v += dt/2 F/m; x += dt v.
// Like every kernel here that changes positions or velocities, it does nothing while the run is
// halted (StepStatus::halted).
template <bool SCALE>
__global__ void initial_kernel(std::size_t n, const int* halted, double scale, double half_dt, double dt,
                               const double* mass, Packed4* pos, double* vx, double* vy, double* vz, const double* fx,
                               const double* fy, const double* fz) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || *halted != 0) return;
  Packed4 p = pos[i];
  const double dtfm = half_dt / mass[static_cast<int>(p.w)];
  double v0 = vx[i], v1 = vy[i], v2 = vz[i];
  if (SCALE) {
    v0 = __dmul_rn(v0, scale);
    v1 = __dmul_rn(v1, scale);
    v2 = __dmul_rn(v2, scale);
  }
  v0 += dtfm * fx[i];
  v1 += dtfm * fy[i];
  v2 += dtfm * fz[i];
  vx[i] = v0;
  vy[i] = v1;
  vz[i] = v2;
  p.x += dt * v0;
  p.y += dt * v1;
  p.z += dt * v2;
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
    const double dtfm = half_dt / m;
    v0 += dtfm * fx[i];
    v1 += dtfm * fy[i];
    v2 += dtfm * fz[i];
    vx[i] = v0;
    vy[i] = v1;
    vz[i] = v2;
  }
  if (MVV) mvv[i] = (v0 * v0 + v1 * v1 + v2 * v2) * m;
}

__global__ void scale_kernel(std::size_t n, const int* halted, double scale, double* vx, double* vy, double* vz) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || *halted != 0) return;
  vx[i] = __dmul_rn(vx[i], scale);
  vy[i] = __dmul_rn(vy[i], scale);
  vz[i] = __dmul_rn(vz[i], scale);
}

// fix langevin's post_force: F += friction v + sqrt(m) noise (r - 1/2) per component, with r
// from the counter-based generator keyed by (seed, atom id, step, component) as on the CPU.
// The operations are rounded one by one (no fused multiply-add), in the CPU's order.
__global__ void langevin_kernel(std::size_t n, const int* type, const std::int64_t* id, const double* vx,
                                const double* vy, const double* vz, double* fx, double* fy, double* fz,
                                const double* friction, const double* sqrt_mass, double noise, core::CounterRng rng,
                                std::uint64_t step) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const int t = type[i];
  const double g1 = friction[t];
  const double g2 = __dmul_rn(sqrt_mass[t], noise);
  const auto key = static_cast<std::uint64_t>(id[i]);
  const auto term = [&](double v, std::uint32_t d) {
    return __dadd_rn(__dmul_rn(g1, v), __dmul_rn(g2, __dsub_rn(rng.uniform(key, step, d), 0.5)));
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
  void initial_integrate(DeviceAtoms& a, long) override {
    gpu::launch(a.n, initial_kernel<false>, a.n, halted_, 1.0, half_dt_, dt_, a.mass.data(), a.pos.data(),
                a.vx.data(), a.vy.data(), a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data());
    check_launch();
  }
  void final_integrate(DeviceAtoms& a, long) override {
    if (kick_fused) return;
    gpu::launch(a.n, final_kernel<true, false>, a.n, halted_, half_dt_, a.mass.data(), a.type.data(), a.vx.data(),
                a.vy.data(), a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data(), nullptr);
    check_launch();
  }
  [[nodiscard]] bool has_final() const override { return true; }
  [[nodiscard]] bool final_begins_with_kick() const override { return true; }
  [[nodiscard]] bool same_every_step() const override { return true; }

 private:
  double half_dt_, dt_;
  const int* halted_;
};

// ---- fix langevin -----------------------------------------------------------------------------

class LangevinCuda final : public FixCuda {
 public:
  LangevinCuda(const integrators::FixLangevin& fix, const System& s) : fix_(fix), units_(s.units) {}
  void setup(System& host, DeviceAtoms& a, const integrators::RunInfo& run) override {
    // Per-type terms, computed on the host by the CPU fix's own functions (so bit for bit the same).
    std::vector<double> friction(host.mass.size(), 0.0), sqrt_mass(host.mass.size(), 0.0);
    for (std::size_t t = 1; t < host.mass.size(); ++t) {
      friction[t] = fix_.friction(units_, host.mass[t]);
      sqrt_mass[t] = std::sqrt(host.mass[t]);
    }
    friction_.upload(friction);
    sqrt_mass_.upload(sqrt_mass);
    run_ = run;
    post_force(a, run.first_step);  // as FixLangevin::setup: the setup forces get the thermostat too
  }
  void post_force(DeviceAtoms& a, long step) override {
    const double noise = fix_.noise(units_, run_, step);
    gpu::launch(a.n, langevin_kernel, a.n, a.type.data(), a.id.data(), a.vx.data(), a.vy.data(), a.vz.data(),
                a.fx.data(), a.fy.data(), a.fz.data(), friction_.data(), sqrt_mass_.data(), noise, fix_.rng(),
                static_cast<std::uint64_t>(step));
    check_launch();
  }
  [[nodiscard]] bool has_post_force() const override { return true; }
  [[nodiscard]] std::size_t bytes() const override { return friction_.bytes() + sqrt_mass_.bytes(); }

 private:
  const integrators::FixLangevin& fix_;
  core::UnitSystem units_;
  integrators::RunInfo run_{0.0, 0, 0};
  gpu::DeviceArray<double> friction_, sqrt_mass_;
};

// ---- fix nvt ----------------------------------------------------------------------------------

// The chain (a few scalars) stays in the CPU fix object and advances there with the CPU's code;
// the device supplies the kinetic energy after the second half kick (one reduction and one
// 8-byte copy per step) and applies the velocity scalings.
class NoseHooverCuda final : public FixCuda {
 public:
  NoseHooverCuda(integrators::FixNoseHoover& fix, const System& s, double half_dt, double dt, const int* halted)
      : fix_(fix), half_dt_(half_dt), dt_(dt), dof_(temperature_dof(s)), mvv2e_(s.units.mvv2e),
        boltz_(s.units.boltz), halted_(halted) {}
  void setup(System& host, DeviceAtoms& a, const integrators::RunInfo& run) override {
    mvv_.resize(a.n);
    sum_.resize(1);
    std::size_t scratch = 0;
    MOLSTEP_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, scratch, mvv_.data(), sum_.data(), static_cast<int>(a.n)));
    scratch_.resize(scratch > 0 ? scratch : 1);  // never a null pointer (cub would take it for a size query)
    // The host copy holds the device's velocities: the chain starts from them as on the CPU.
    fix_.setup(host, run);
  }
  void initial_integrate(DeviceAtoms& a, long step) override {
    const double scale = fix_.chain_before_kick(step);
    gpu::launch(a.n, initial_kernel<true>, a.n, halted_, scale, half_dt_, dt_, a.mass.data(), a.pos.data(),
                a.vx.data(), a.vy.data(), a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data());
    check_launch();
  }
  void final_integrate(DeviceAtoms& a, long) override {
    const auto launch = [&](auto kernel) {
      gpu::launch(a.n, kernel, a.n, halted_, half_dt_, a.mass.data(), a.type.data(), a.vx.data(), a.vy.data(),
                  a.vz.data(), a.fx.data(), a.fy.data(), a.fz.data(), mvv_.data());
    };
    kick_fused ? launch(final_kernel<false, true>) : launch(final_kernel<true, true>);
    check_launch();
    std::size_t scratch = scratch_.size();
    MOLSTEP_CUDA_CHECK(cub::DeviceReduce::Sum(scratch_.data(), scratch, mvv_.data(), sum_.data(),
                                              static_cast<int>(a.n), gpu::stream()));
    double mvv = 0.0;
    MOLSTEP_CUDA_CHECK(cudaMemcpy(&mvv, sum_.data(), sizeof(double), cudaMemcpyDeviceToHost));
    // md::temperature's formula, with the sum from the device.
    const double t = dof_ <= 0.0 ? 0.0 : mvv * (mvv2e_ / (dof_ * boltz_));
    const double scale = fix_.chain_after_kick(t);
    gpu::launch(a.n, scale_kernel, a.n, halted_, scale, a.vx.data(), a.vy.data(), a.vz.data());
    check_launch();
  }
  [[nodiscard]] bool has_final() const override { return true; }
  [[nodiscard]] bool final_begins_with_kick() const override { return true; }
  [[nodiscard]] bool needs_host_each_step() const override { return true; }
  [[nodiscard]] std::size_t bytes() const override { return mvv_.bytes() + sum_.bytes() + scratch_.bytes(); }

 private:
  integrators::FixNoseHoover& fix_;
  double half_dt_, dt_, dof_, mvv2e_, boltz_;
  const int* halted_;
  gpu::DeviceArray<double> mvv_, sum_;
  gpu::DeviceArray<unsigned char> scratch_;
};

}  // namespace

FixesCuda::FixesCuda(std::vector<std::unique_ptr<integrators::Fix>>& fixes, const System& s, double dt,
                     const int* halted)
    : half_dt_(0.5 * dt * s.units.ftm2v), halted_(halted) {
  for (auto& f : fixes) {
    const std::string style(f->style());
    if (style == "nve" && dynamic_cast<integrators::FixNve*>(f.get())) {
      fixes_.push_back(std::make_unique<NveCuda>(half_dt_, dt, halted));
    } else if (auto* lv = style == "langevin" ? dynamic_cast<integrators::FixLangevin*>(f.get()) : nullptr) {
      fixes_.push_back(std::make_unique<LangevinCuda>(*lv, s));
    } else if (auto* nh = style == "nvt" ? dynamic_cast<integrators::FixNoseHoover*>(f.get()) : nullptr) {
      fixes_.push_back(std::make_unique<NoseHooverCuda>(*nh, s, half_dt_, dt, halted));
    } else {
      throw Error("fix " + style + " runs only on the CPU so far (use --device cpu)");
    }
  }
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

bool FixesCuda::same_every_step() const {
  return std::all_of(fixes_.begin(), fixes_.end(), [](const auto& f) { return f->same_every_step(); });
}

bool FixesCuda::needs_host_each_step() const {
  return std::any_of(fixes_.begin(), fixes_.end(), [](const auto& f) { return f->needs_host_each_step(); });
}

void FixesCuda::setup(System& host, DeviceAtoms& a, const integrators::RunInfo& run) {
  for (auto& f : fixes_) f->setup(host, a, run);
}

void FixesCuda::initial_integrate(DeviceAtoms& a, long step) {
  for (auto& f : fixes_) f->initial_integrate(a, step);
}

void FixesCuda::post_force(DeviceAtoms& a, long step) {
  for (auto& f : fixes_) f->post_force(a, step);
}

void FixesCuda::final_integrate(DeviceAtoms& a, long step) {
  for (auto& f : fixes_) f->final_integrate(a, step);
}

std::size_t FixesCuda::bytes() const {
  std::size_t b = 0;
  for (const auto& f : fixes_) b += f->bytes();
  return b;
}

}  // namespace molstep::md::cuda
