// SPDX-License-Identifier: MIT
#include "molstep/analysis/plan.hpp"

#include <fmt/format.h>

#include "molstep/core/error.hpp"

namespace molstep::analysis {

Plan::Plan(const SelectionSet& selections, const Requests& requests, std::vector<double> masses,
           std::vector<double> charges)
    : natoms(selections.natoms()), mass(std::move(masses)), charge(std::move(charges)) {
  if (mass.size() != natoms || charge.size() != natoms) {
    throw Error(fmt::format("analysis: {} masses and {} charges for {} atoms", mass.size(), charge.size(), natoms));
  }
  for (const int s : requests.moment_selections()) moment_atoms.push_back(selections[s].indices);
  for (const auto& spec : requests.pair_specs()) {
    PairTask task{spec, selections[spec.a].indices, {}};
    if (spec.b != spec.a) task.b = selections[spec.b].indices;
    pairs.push_back(std::move(task));
  }
}

PairBinning::PairBinning(const PairSpec& spec, const core::Frame& frame)
    : len{0, 0, 0}, inv_len{0, 0, 0}, rmax2(spec.rmax * spec.rmax), inv_width(spec.bins / spec.rmax), bins(spec.bins) {
  if (!spec.minimum_image) return;
  if (!frame.has_box()) {
    throw Error(fmt::format("frame at step {}: minimum image needs a box, and this frame has none", frame.step));
  }
  if (!frame.orthorhombic()) {
    throw Error(fmt::format("frame at step {}: minimum-image distances need an orthorhombic box (triclinic "
                            "boxes are not supported yet); use pbc=no for plain distances",
                            frame.step));
  }
  for (int d = 0; d < 3; ++d) {
    len[d] = frame.box[d][d];
    inv_len[d] = 1.0 / len[d];
  }
}

}  // namespace molstep::analysis
