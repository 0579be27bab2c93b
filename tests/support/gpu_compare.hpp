// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

#include "molstep/md/potentials/pair.hpp"
#include "molstep/md/simulation.hpp"
#include "molstep/md/system.hpp"

namespace molstep::test {

/// The final state and last energy/virial of a deck run in-process.
struct DeckResult {
  md::System system;
  md::potentials::EnergyVirial ev;
};

/// Runs `deck` (text) in `dir` on one device and returns the final state and energy/virial.
DeckResult run_deck_text(const std::string& deck, const std::filesystem::path& dir, md::Device device,
                         md::Precision precision = md::Precision::full);

/// Runs `deck` on the CPU (the reference) and the GPU: energy and virial agree to `rel`, and every
/// force to `rel` of the RMS force (the first ten atoms that differ are reported).
void expect_gpu_matches_cpu(const std::string& deck, const std::string& name, double rel,
                            md::Precision precision = md::Precision::full);

}  // namespace molstep::test
