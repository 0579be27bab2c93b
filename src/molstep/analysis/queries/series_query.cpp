// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/series_query.hpp"

#include <utility>

namespace molstep::analysis {

SeriesQuery::SeriesQuery(const QuerySpec& spec, QueryContext& context, std::vector<std::string> columns)
    : QueryBase(spec), units_(unit_names(context.units)), series_(std::move(columns)) {
  row_.resize(series_.names().size());
}

void SeriesQuery::push(const FrameData& data) {
  fill_row(data, row_);
  series_.add(data, row_);
}

void SeriesQuery::finish(const FinalData& data, const QueryOutput& out) {
  write_table(out, "", series_.table(), comments_);
  nlohmann::json results = series_results(out);
  results["series"] = series_.statistics();
  write_plot(out, "", series_.plot(label(), "time (" + units_.time + ")", plot_ylabel(), plot_columns()));
  publish(out, data.frames, std::move(results));
}

}  // namespace molstep::analysis
