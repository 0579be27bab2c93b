// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/lag_query.hpp"

namespace molstep::analysis {

LagQuery::LagQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : QueryBase(spec), units_(unit_names(context.units)), history_(0) {
  const int sel = selection_param(params, context, "sel", "all", true);
  atoms_ = context.selections[sel].indices;
  history_ = AtomHistory(atoms_.size());

  const auto dims = parse_dims(params.get_string("dims", "xyz"));
  if (!dims) fail("dims must be one of xyz, xy, xz, yz, x, y, z");
  dims_ = *dims;
  note("dims", dims_.name);
}

double* LagQuery::add_frame(const core::Frame& f) {
  times_.push_back(f.time);
  return history_.append();
}

LagQuery::LagAxis LagQuery::lag_axis() {
  LagAxis axis;
  axis.spacing = frame_spacing(times_);
  if (!axis.spacing.warning.empty()) warn(axis.spacing.warning);
  axis.time_unit = axis.spacing.has_time ? units_.time : "frame";
  for (std::size_t k = 0; k < history_.frames(); ++k) {
    axis.lag.push_back(static_cast<std::int64_t>(k));
    axis.time.push_back(static_cast<double>(k) * axis.spacing.dt);
  }
  return axis;
}

void LagQuery::add_diffusion(nlohmann::json& results, double diffusion, const LagAxis& axis) const {
  results["D"] = finite_or_null(diffusion);
  results["D_unit"] = units_.length + "^2/" + axis.time_unit;
  // Reduced (lj) units and lags counted in frames have no conversion to SI.
  if (!units_.reduced && axis.spacing.has_time) {
    results["D_1e-5_cm2_per_s"] = finite_or_null(diffusion * constants::kDiffusion1e5Cm2PerSPerA2PerPs);
  }
}

}  // namespace molstep::analysis
