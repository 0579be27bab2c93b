// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

/// `dipole`: electric dipole moment of the selection per frame, D = sum q_i (r_i - r0) with r0 the
/// centre of mass (`center=mass`, default, as MDAnalysis dipole_vector()) or the origin
/// (`center=origin`, the thesis's sum q_i r_i; the two agree for a neutral selection), in e*A
/// and debye; and a histogram of |D| over frames (`<label>_hist.csv`, `bins`, `dmax` in debye).
/// With `per=residue` the histogram is of the dipoles of the selection's residues (molecules)
/// over all molecules and frames, as gmx dipoles: each residue is made whole by taking every
/// atom's minimum image relative to the residue's first atom, so a molecule split by the
/// periodic boundary counts correctly as long as it spans less than half the box.
class DipoleQuery final : public MomentSeriesQuery {
 public:
  DipoleQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void evaluate(const Moments& m, const FrameData& data, std::span<double> values) override;
  [[nodiscard]] std::string plot_ylabel() const override;
  [[nodiscard]] std::vector<std::size_t> plot_columns() const override;
  void finish_extra(const QueryOutput& out, nlohmann::json& results) override;
  /// Mean |mu| (debye) of the residues in this frame; adds each to the histogram.
  double residue_dipoles(const core::Frame& frame);

  bool about_mass_ = true;
  bool per_residue_ = false;
  std::size_t bins_ = 50;
  std::optional<double> dmax_;  // debye
  // per=residue: residue r holds atoms_[offsets_[r] .. offsets_[r+1]) with their charges and masses
  std::vector<std::size_t> offsets_;
  std::vector<std::uint32_t> atoms_;
  std::vector<double> charge_, mass_;
  std::optional<Histogram> residue_hist_;
  double residue_samples_ = 0;
};

}  // namespace molstep::analysis
