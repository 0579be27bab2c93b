// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/rg.hpp"

#include <algorithm>
#include <cmath>

namespace molstep::analysis {

RgQuery::RgQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : MomentSeriesQuery(spec, context, params, {"rg", "rg_x", "rg_y", "rg_z"}, true) {
  comments_.push_back("radii of gyration in " + units().length +
                      "; rg_x uses the y and z components (radius about the x axis, as gmx gyrate)");
}

void RgQuery::evaluate(const Moments& m, const FrameData& /*data*/, std::span<double> values) {
  const auto s = central_second_moments(m);
  // Rounding can leave a tiny negative second moment for a selection of one atom.
  const auto root = [&m](double v) { return std::sqrt(std::max(0.0, v) / m.mass); };
  values[0] = root(s[0] + s[1] + s[2]);
  values[1] = root(s[1] + s[2]);
  values[2] = root(s[0] + s[2]);
  values[3] = root(s[0] + s[1]);
}

std::string RgQuery::plot_ylabel() const { return "Rg (" + units().length + ")"; }

}  // namespace molstep::analysis
