// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/inertia.hpp"

namespace molstep::analysis {

InertiaQuery::InertiaQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : MomentSeriesQuery(spec, context, params, {"Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz", "I1", "I2", "I3"}, true) {
  comments_.push_back("inertia tensor about the centre of mass in " + units().mass + " " + units().length +
                      "^2; Ixy = -sum m (x - cx)(y - cy); I1 <= I2 <= I3 are the principal moments");
}

void InertiaQuery::evaluate(const Moments& m, const FrameData& /*data*/, std::span<double> values) {
  const auto s = central_second_moments(m);
  const double ixx = s[1] + s[2];
  const double iyy = s[0] + s[2];
  const double izz = s[0] + s[1];
  const double ixy = -s[3];
  const double ixz = -s[4];
  const double iyz = -s[5];
  const auto principal = symmetric_eigenvalues({{{ixx, ixy, ixz}, {ixy, iyy, iyz}, {ixz, iyz, izz}}});
  const double all[9] = {ixx, iyy, izz, ixy, ixz, iyz, principal[0], principal[1], principal[2]};
  for (std::size_t k = 0; k < 9; ++k) values[k] = all[k];
}

std::string InertiaQuery::plot_ylabel() const { return "I (" + units().mass + " " + units().length + "^2)"; }

std::vector<std::size_t> InertiaQuery::plot_columns() const { return {6, 7, 8}; }

}  // namespace molstep::analysis
