// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/com.hpp"

namespace molstep::analysis {

ComQuery::ComQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : MomentSeriesQuery(spec, context, params, {"x", "y", "z"}, true) {
  comments_.push_back("centre of mass in " + units().length);
}

void ComQuery::evaluate(const Moments& m, const FrameData& /*data*/, std::span<double> values) {
  for (std::size_t d = 0; d < 3; ++d) values[d] = m.mr[d] / m.mass;
}

std::string ComQuery::plot_ylabel() const { return "centre of mass (" + units().length + ")"; }

}  // namespace molstep::analysis
