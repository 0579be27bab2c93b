// SPDX-License-Identifier: MIT
#include "support/gpu_compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "molstep/md/script/interpreter.hpp"
#include "support/paths.hpp"

namespace molstep::test {

DeckResult run_deck_text(const std::string& deck, const std::filesystem::path& dir, md::Device device,
                         md::Precision precision) {
  write_file(dir / "in.deck", deck);
  ScopedCwd cwd(dir);
  md::Output out(nullptr, std::nullopt, std::nullopt);
  md::Simulation sim(out);
  sim.device = device;
  sim.precision = precision;
  md::script::Interpreter interp(sim, out);
  interp.run_file(dir / "in.deck");
  return {sim.system, sim.last_energy_virial()};
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

}  // namespace molstep::test
