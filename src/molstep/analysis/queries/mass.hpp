// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

/// `mass`: total mass of the selection per frame, M = sum m_i (mass unit of the topology).
class MassQuery final : public MomentSeriesQuery {
 public:
  MassQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void evaluate(const Moments& m, const FrameData& data, std::span<double> values) override;
  [[nodiscard]] std::string plot_ylabel() const override;
};

}  // namespace molstep::analysis
