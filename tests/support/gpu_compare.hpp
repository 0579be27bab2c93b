// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "molstep/md/potentials/pair.hpp"
#include "molstep/md/simulation.hpp"
#include "molstep/md/system.hpp"

namespace molstep::test {

/// What a deck run in-process left: the final state, the last energy/virial, the thermo rows,
/// the first fix nvt's chain energy (0 without one) and everything it printed (the run
/// summaries with their "Neighbour list builds" and GPU lines).
struct DeckResult {
  md::System system;
  md::potentials::EnergyVirial ev;
  std::vector<nlohmann::json> thermo;
  double chain_energy = 0.0;
  std::string printed;
};

/// Runs `deck` (text) in `dir` on one device.
DeckResult run_deck_text(const std::string& deck, const std::filesystem::path& dir, md::Device device,
                         md::Precision precision = md::Precision::full);

/// Runs `deck` on the CPU (the reference) and the GPU: energy and virial agree to `rel`, and every
/// force to `rel` of the RMS force (the first ten atoms that differ are reported).
void expect_gpu_matches_cpu(const std::string& deck, const std::string& name, double rel,
                            md::Precision precision = md::Precision::full);

/// Runs `deck` on both devices: every thermo value, the final energy and virial to `rel`
/// relative; every atom's unwrapped position to `rel` of the box length, velocity and force to
/// `rel` of their RMS values (atoms matched by id: the GPU sorts them by cell). Returns both
/// results (CPU first) for further checks.
std::pair<DeckResult, DeckResult> expect_same_trajectory(const std::string& deck, const std::string& name, double rel);

/// Values for the GPU's MOLSTEP_CUDA_* variables (gpu::Tuning), by name.
using TuningEnv = std::map<std::string, std::string>;

/// Two runs of one deck ended in the same bits: every atom's state (slot by slot), the last
/// energy and virial, the thermo rows, fix nvt's chain and the neighbour-list builds counted.
void expect_identical_runs(const DeckResult& a, const DeckResult& b);

/// Sets the MOLSTEP_CUDA_LIST/TPA/SORT/PAD/GRAPH/BINS/PRUNE/TABLES/TABLE_BLOCK/ORDER/DRIFT variables (unset where not given) and re-reads
/// them; restores the previous environment and re-reads it again when it goes.
class ScopedTuning {
 public:
  explicit ScopedTuning(const TuningEnv& values);
  ~ScopedTuning();
  ScopedTuning(const ScopedTuning&) = delete;
  ScopedTuning& operator=(const ScopedTuning&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

/// The number right after the last `label` in `printed` (e.g. "Neighbour list builds: "); -1 if
/// there is none.
long last_count(const std::string& printed, const std::string& label);

}  // namespace molstep::test
