// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/kappa.hpp"

namespace molstep::analysis {

KappaQuery::KappaQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : FluctuationQuery(spec, context, params, {"volume"}) {
  from_box_ = context.first_frame.has_box();
  if (!from_box_ && !context.first_frame.scalars.contains("volume")) {
    fail("needs volumes: a source with a box or a 'volume' scalar");
  }
  note("volume", from_box_ ? "box" : "scalar 'volume'");
  comments_.push_back("volume in " + units().length + "^3");
}

void KappaQuery::sample(const FrameData& data, std::span<double> values) {
  if (!from_box_) {
    values[0] = scalar(data, "volume");
    return;
  }
  if (!data.frame.has_box()) fail("frame " + std::to_string(data.index) + " has no box");
  values[0] = data.frame.volume();
}

nlohmann::json KappaQuery::results(double temperature) {
  const auto stats = series_stats(series().column(0));
  const double variance = stats.stddev * stats.stddev;
  nlohmann::json r = {
      {"ensemble", "isothermal-isobaric (NPT)"}, {"volume_mean", stats.mean}, {"volume_variance", variance}};
  if (units().reduced) {
    const double kappa = variance / (temperature * stats.mean);
    r["kappa"] = kappa;
    r["kappa_unit"] = "sigma^3/epsilon";
    r["bulk_modulus"] = 1 / kappa;
  } else {
    // V in A^3 = 1e-30 m^3, k_B T in J: kappa in 1/Pa; 1 bar = 1e5 Pa.
    const double per_pa = variance * 1e-30 / (constants::kBoltzmannSI * temperature * stats.mean);
    r["kappa_per_Pa"] = per_pa;
    r["kappa_per_bar"] = per_pa * 1e5;
    r["bulk_modulus_bar"] = 1 / (per_pa * 1e5);
  }
  return r;
}

std::string KappaQuery::plot_ylabel() const { return "volume (" + units().length + "^3)"; }

}  // namespace molstep::analysis
