// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/mass.hpp"

namespace molstep::analysis {

MassQuery::MassQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : MomentSeriesQuery(spec, context, params, {"mass"}, false) {
  comments_.push_back("mass in " + units().mass);
}

void MassQuery::evaluate(const Moments& m, const FrameData& /*data*/, std::span<double> values) { values[0] = m.mass; }

std::string MassQuery::plot_ylabel() const { return "mass (" + units().mass + ")"; }

}  // namespace molstep::analysis
