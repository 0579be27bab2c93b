// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

/// `charge`: total charge of the selection per frame, Q = sum q_i (e).
class ChargeQuery final : public MomentSeriesQuery {
 public:
  ChargeQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void evaluate(const Moments& m, const FrameData& data, std::span<double> values) override;
  [[nodiscard]] std::string plot_ylabel() const override;
};

}  // namespace molstep::analysis
