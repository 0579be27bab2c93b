// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/charge.hpp"

namespace molstep::analysis {

ChargeQuery::ChargeQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : MomentSeriesQuery(spec, context, params, {"charge"}, false) {
  comments_.push_back("charge in e");
}

void ChargeQuery::evaluate(const Moments& m, const FrameData& /*data*/, std::span<double> values) {
  values[0] = m.charge;
}

std::string ChargeQuery::plot_ylabel() const { return "charge (e)"; }

}  // namespace molstep::analysis
