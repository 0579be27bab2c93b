// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "molstep/analysis/query.hpp"

namespace molstep::analysis {

/// A pair request with its selections' atom indices resolved.
struct PairTask {
  PairSpec spec;
  std::vector<std::uint32_t> a, b;  ///< atom indices; b is empty when spec.a == spec.b
};

/// What the backends compute for every frame, fixed before the first frame: the fused one-body
/// pass (moments of each requested selection, from per-atom masses and charges) and the pair
/// histograms. Built from the queries' Requests.
struct Plan {
  std::size_t natoms = 0;
  std::vector<double> mass, charge;                       ///< per atom
  std::vector<std::vector<std::uint32_t>> moment_atoms;   ///< per moments request
  std::vector<PairTask> pairs;                            ///< per pairs request

  Plan(const SelectionSet& selections, const Requests& requests, std::vector<double> masses,
       std::vector<double> charges);
};

/// Exact pair-distance binning shared by the CPU and CUDA backends: the same operations in the
/// same order (no fused multiply-add), so both put every pair in the same bin.
struct PairBinning {
  double len[3];      ///< box lengths (minimum image) or 0 for plain distances
  double inv_len[3];  ///< 1 / len, or 0
  double rmax2;
  double inv_width;   ///< bins / rmax
  int bins;

  PairBinning(const PairSpec& spec, const core::Frame& frame);
};

}  // namespace molstep::analysis
