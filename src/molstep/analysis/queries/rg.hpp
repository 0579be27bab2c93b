// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

/// `rg`: mass-weighted radius of gyration per frame, Rg^2 = sum m_i |r_i - c|^2 / M (MDAnalysis
/// radius_of_gyration()), and the radii about the x, y and z axes as gmx gyrate defines them,
/// Rg_x^2 = sum m_i ((y_i - c_y)^2 + (z_i - c_z)^2) / M (the two components perpendicular to x).
class RgQuery final : public MomentSeriesQuery {
 public:
  RgQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void evaluate(const Moments& m, const FrameData& data, std::span<double> values) override;
  [[nodiscard]] std::string plot_ylabel() const override;
};

}  // namespace molstep::analysis
