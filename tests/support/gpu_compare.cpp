// SPDX-License-Identifier: MIT
#include "support/gpu_compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/md/integrators/nose_hoover.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "support/paths.hpp"

namespace molstep::test {

DeckResult run_deck_text(const std::string& deck, const std::filesystem::path& dir, md::Device device,
                         md::Precision precision) {
  write_file(dir / "in.deck", deck);
  const auto jsonl = dir / "thermo.jsonl";
  DeckResult r;
  {
    ScopedCwd cwd(dir);
    std::ostringstream printed;
    md::Output out(&printed, std::nullopt, jsonl);
    md::Simulation sim(out);
    sim.device = device;
    sim.precision = precision;
    md::script::Interpreter interp(sim, out);
    interp.run_file(dir / "in.deck");
    sim.finish();
    r.system = sim.system;
    r.ev = sim.last_energy_virial();
    for (const auto& f : sim.fixes)
      if (const auto* nh = dynamic_cast<const md::integrators::FixNoseHoover*>(f.get())) {
        r.chain_energy = nh->chain_energy();
        break;
      }
    r.printed = printed.str();
  }
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) r.thermo.push_back(nlohmann::json::parse(line));
  return r;
}

void expect_gpu_matches_cpu(const std::string& deck, const std::string& name, double rel, md::Precision precision) {
  const auto cpu = run_deck_text(deck, scratch_dir(name + "-cpu"), md::Device::cpu);
  const auto gpu = run_deck_text(deck, scratch_dir(name + "-gpu"), md::Device::cuda, precision);
  EXPECT_NEAR(gpu.ev.energy, cpu.ev.energy, rel * std::fabs(cpu.ev.energy));
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(gpu.ev.virial[k], cpu.ev.virial[k], rel * std::fabs(cpu.ev.virial[0]) + 1e-300) << "virial " << k;
  std::map<std::int64_t, std::size_t> at;
  for (std::size_t i = 0; i < gpu.system.atoms.size(); ++i) at[gpu.system.atoms.id[i]] = i;
  const auto& a = cpu.system.atoms;
  double rms = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) rms += a.fx[i] * a.fx[i] + a.fy[i] * a.fy[i] + a.fz[i] * a.fz[i];
  rms = std::sqrt(rms / (3.0 * static_cast<double>(a.size())));
  ASSERT_GT(rms, 0.0);
  ASSERT_EQ(at.size(), a.size());
  int reported = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t j = at.at(a.id[i]);
    const double d = std::max({std::fabs(gpu.system.atoms.fx[j] - a.fx[i]), std::fabs(gpu.system.atoms.fy[j] - a.fy[i]),
                               std::fabs(gpu.system.atoms.fz[j] - a.fz[i])});
    if (d > rel * rms && reported++ < 10)
      ADD_FAILURE() << "atom " << a.id[i] << ": force differs by " << d << " (RMS force " << rms << ")";
  }
  EXPECT_EQ(reported, 0) << "atoms whose GPU force differs from the CPU's";
}

namespace {

double rms(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
  return std::sqrt(s / (3.0 * static_cast<double>(x.size())));
}

void compare_trajectories(const DeckResult& cpu, const DeckResult& gpu, double rel) {
  ASSERT_EQ(gpu.thermo.size(), cpu.thermo.size());
  ASSERT_GE(cpu.thermo.size(), 2u);
  for (std::size_t r = 0; r < cpu.thermo.size(); ++r)
    for (const auto& item : cpu.thermo[r].items()) {
      const std::string& key = item.key();
      if (!item.value().is_number()) continue;
      ASSERT_TRUE(gpu.thermo[r].contains(key)) << key;
      const double want = item.value().get<double>(), got = gpu.thermo[r].at(key).get<double>();
      EXPECT_NEAR(got, want, rel * std::max(std::fabs(want), 1.0)) << "thermo row " << r << " " << key;
    }

  EXPECT_NEAR(gpu.ev.energy, cpu.ev.energy, rel * std::fabs(cpu.ev.energy));
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(gpu.ev.virial[k], cpu.ev.virial[k], rel * std::fabs(cpu.ev.virial[0]) + 1e-300) << "virial " << k;
  EXPECT_NEAR(gpu.chain_energy, cpu.chain_energy, rel * std::max(std::fabs(cpu.chain_energy), 1.0));

  const auto& a = cpu.system.atoms;
  const auto& b = gpu.system.atoms;
  ASSERT_EQ(b.size(), a.size());
  std::map<std::int64_t, std::size_t> at;
  for (std::size_t j = 0; j < b.size(); ++j) at[b.id[j]] = j;
  ASSERT_EQ(at.size(), a.size());
  const double vrms = rms(a.vx, a.vy, a.vz), frms = rms(a.fx, a.fy, a.fz);
  ASSERT_GT(vrms, 0.0);
  ASSERT_GT(frms, 0.0);
  int reported = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t j = at.at(a.id[i]);
    bool bad = false;
    for (int d = 0; d < 3; ++d) {
      const double dx = gpu.system.unwrapped(j, d) - cpu.system.unwrapped(i, d);
      bad = bad || !(std::fabs(dx) <= rel * cpu.system.box.length(d));
    }
    const double dv[3] = {b.vx[j] - a.vx[i], b.vy[j] - a.vy[i], b.vz[j] - a.vz[i]};
    const double df[3] = {b.fx[j] - a.fx[i], b.fy[j] - a.fy[i], b.fz[j] - a.fz[i]};
    for (int d = 0; d < 3; ++d) bad = bad || !(std::fabs(dv[d]) <= rel * vrms) || !(std::fabs(df[d]) <= rel * frms);
    if (bad && reported++ < 5)
      ADD_FAILURE() << "atom " << a.id[i] << ": GPU x " << gpu.system.unwrapped(j, 0) << " v " << b.vx[j] << " f "
                    << b.fx[j] << ", CPU x " << cpu.system.unwrapped(i, 0) << " v " << a.vx[i] << " f " << a.fx[i];
  }
  EXPECT_EQ(reported, 0) << "atoms whose GPU state differs from the CPU's by more than " << rel;
}

}  // namespace

std::pair<DeckResult, DeckResult> expect_same_trajectory(const std::string& deck, const std::string& name, double rel) {
  auto cpu = run_deck_text(deck, scratch_dir(name + "-cpu"), md::Device::cpu);
  auto gpu = run_deck_text(deck, scratch_dir(name + "-gpu"), md::Device::cuda);
  compare_trajectories(cpu, gpu, rel);
  return {std::move(cpu), std::move(gpu)};
}

void expect_identical_runs(const DeckResult& a, const DeckResult& b) {
  EXPECT_EQ(last_count(a.printed, "Neighbour list builds: "), last_count(b.printed, "Neighbour list builds: "));
  EXPECT_EQ(a.thermo, b.thermo);
  EXPECT_EQ(a.ev.energy, b.ev.energy);
  EXPECT_EQ(a.chain_energy, b.chain_energy);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(a.ev.virial[k], b.ev.virial[k]) << "virial " << k;
  const auto& p = a.system.atoms;
  const auto& q = b.system.atoms;
  ASSERT_EQ(p.size(), q.size());
  int differ = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const bool same = p.id[i] == q.id[i] && p.x[i] == q.x[i] && p.y[i] == q.y[i] && p.z[i] == q.z[i] &&
                      p.vx[i] == q.vx[i] && p.vy[i] == q.vy[i] && p.vz[i] == q.vz[i] && p.fx[i] == q.fx[i] &&
                      p.fy[i] == q.fy[i] && p.fz[i] == q.fz[i] && p.ix[i] == q.ix[i] && p.iy[i] == q.iy[i] &&
                      p.iz[i] == q.iz[i];
    if (!same && differ++ < 5) ADD_FAILURE() << "atom slot " << i << " (id " << p.id[i] << ") differs";
  }
  EXPECT_EQ(differ, 0);
}

long last_count(const std::string& printed, const std::string& label) {
  const auto at = printed.rfind(label);
  if (at == std::string::npos) return -1;
  const char* first = printed.c_str() + at + label.size();
  char* end = nullptr;
  const long v = std::strtol(first, &end, 10);
  return end == first ? -1 : v;
}

namespace {
const char* const kTuningVariables[] = {"MOLSTEP_CUDA_LIST", "MOLSTEP_CUDA_TPA",   "MOLSTEP_CUDA_SORT",
                                        "MOLSTEP_CUDA_PAD",  "MOLSTEP_CUDA_GRAPH", "MOLSTEP_CUDA_BINS",
                                        "MOLSTEP_CUDA_PRUNE", "MOLSTEP_CUDA_TABLES", "MOLSTEP_CUDA_TABLE_BLOCK",
                                        "MOLSTEP_CUDA_ORDER", "MOLSTEP_CUDA_DRIFT"};
}  // namespace

ScopedTuning::ScopedTuning(const TuningEnv& values) {
  for (const char* name : kTuningVariables) {
    const char* v = std::getenv(name);
    saved_.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
    const auto it = values.find(name);
    if (it != values.end())
      ::setenv(name, it->second.c_str(), 1);
    else
      ::unsetenv(name);
  }
  gpu::reload_tuning();
}

ScopedTuning::~ScopedTuning() {
  for (const auto& [name, v] : saved_) {
    if (v)
      ::setenv(name.c_str(), v->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
  try {
    gpu::reload_tuning();
  } catch (const Error&) {
    // The surrounding environment was invalid to begin with; nothing to restore.
  }
}

}  // namespace molstep::test
