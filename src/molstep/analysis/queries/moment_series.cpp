// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

MomentSeriesQuery::MomentSeriesQuery(const QuerySpec& spec, QueryContext& context, Params& params,
                                     std::vector<std::string> columns, bool need_mass)
    : SeriesQuery(spec, context, std::move(columns)), need_mass_(need_mass) {
  selection_ = selection_param(params, context, "sel", "all", need_mass);
  moments_ = context.requests.moments(selection_);
}

void MomentSeriesQuery::fill_row(const FrameData& data, std::span<double> row) {
  const Moments& m = data.moments[static_cast<std::size_t>(moments_)];
  if (need_mass_ && !(m.mass > 0)) {
    fail("the selection has no mass in frame " + std::to_string(data.index) + " (total mass " + std::to_string(m.mass) +
         "); give masses through the topology");
  }
  evaluate(m, data, row);
}

nlohmann::json MomentSeriesQuery::series_results(const QueryOutput& out) {
  nlohmann::json results = nlohmann::json::object();
  finish_extra(out, results);
  return results;
}

std::array<double, 6> central_second_moments(const Moments& m) {
  const double inv_mass = 1.0 / m.mass;
  return {m.mrr[0] - m.mr[0] * m.mr[0] * inv_mass, m.mrr[1] - m.mr[1] * m.mr[1] * inv_mass,
          m.mrr[2] - m.mr[2] * m.mr[2] * inv_mass, m.mrr[3] - m.mr[0] * m.mr[1] * inv_mass,
          m.mrr[4] - m.mr[0] * m.mr[2] * inv_mass, m.mrr[5] - m.mr[1] * m.mr[2] * inv_mass};
}

}  // namespace molstep::analysis
