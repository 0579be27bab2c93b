// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/fluctuation.hpp"

namespace molstep::analysis {

namespace {

bool has_temp_scalar(const QueryContext& context) { return context.first_frame.scalars.contains("temp"); }

std::vector<std::string> with_temperature(std::vector<std::string> columns, bool temp) {
  if (temp) columns.emplace_back("temp");
  return columns;
}

}  // namespace

FluctuationQuery::FluctuationQuery(const QuerySpec& spec, QueryContext& context, Params& params,
                                   std::vector<std::string> columns)
    : SeriesQuery(spec, context, with_temperature(std::move(columns), has_temp_scalar(context))),
      temp_scalar_(has_temp_scalar(context)),
      columns_(series().names().size() - (temp_scalar_ ? 1 : 0)),
      natoms_(context.selections.natoms()) {
  if (params.has("temp")) {
    temperature_ = params.get_double("temp");
    if (!(*temperature_ > 0)) fail("temp must be positive");
    note("temp", *temperature_);
  } else if (temp_scalar_) {
    note("temp", "mean of the source's temp");
  } else {
    fail("needs a temperature: give temp=T, or a source with a 'temp' scalar");
  }
}

double FluctuationQuery::scalar(const FrameData& data, const std::string& name) const {
  const auto it = data.frame.scalars.find(name);
  if (it == data.frame.scalars.end()) fail("frame " + std::to_string(data.index) + " lacks the scalar '" + name + "'");
  return it->second;
}

void FluctuationQuery::fill_row(const FrameData& data, std::span<double> row) {
  sample(data, row.first(columns_));
  if (temp_scalar_) row.back() = scalar(data, "temp");
}

nlohmann::json FluctuationQuery::series_results(const QueryOutput& /*out*/) {
  const double temperature =
      temperature_ ? *temperature_ : series_stats(series().column(series().names().size() - 1)).mean;
  if (series().frames() < 2) warn("fewer than two frames: no fluctuations");
  auto r = results(temperature);
  r["temperature"] = temperature;
  return r;
}

std::vector<std::size_t> FluctuationQuery::plot_columns() const {
  // The query's own values only: the temperature column, when there is one, has other units.
  std::vector<std::size_t> plotted;
  for (std::size_t c = 0; c < columns_; ++c) plotted.push_back(c);
  return plotted;
}

}  // namespace molstep::analysis
