// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

/// `com`: centre of mass of the selection per frame, c = sum m_i r_i / M, from the coordinates
/// as stored (no unwrapping across periodic boundaries, like MDAnalysis center_of_mass()).
class ComQuery final : public MomentSeriesQuery {
 public:
  ComQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void evaluate(const Moments& m, const FrameData& data, std::span<double> values) override;
  [[nodiscard]] std::string plot_ylabel() const override;
};

}  // namespace molstep::analysis
