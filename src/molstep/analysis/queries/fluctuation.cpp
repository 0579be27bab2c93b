// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/fluctuation.hpp"

namespace molstep::analysis {

namespace {

std::vector<std::string> with_temperature(std::vector<std::string> columns, bool temp) {
  if (temp) columns.emplace_back("temp");
  return columns;
}

}  // namespace

FluctuationQuery::FluctuationQuery(const QuerySpec& spec, QueryContext& context, Params& params,
                                   std::vector<std::string> columns)
    : QueryBase(spec),
      units_(unit_names(context.units)),
      temp_scalar_(context.first_frame.scalars.contains("temp")),
      columns_(columns.size()),
      natoms_(context.selections.natoms()),
      series_(with_temperature(std::move(columns), temp_scalar_)) {
  if (params.has("temp")) {
    temperature_ = params.get_double("temp");
    if (!(*temperature_ > 0)) fail("temp must be positive");
    note("temp", *temperature_);
  } else if (temp_scalar_) {
    note("temp", "mean of the source's temp");
  } else {
    fail("needs a temperature: give temp=T, or a source with a 'temp' scalar");
  }
  row_.resize(series_.names().size());
}

double FluctuationQuery::scalar(const FrameData& data, const std::string& name) const {
  const auto it = data.frame.scalars.find(name);
  if (it == data.frame.scalars.end()) fail("frame " + std::to_string(data.index) + " lacks the scalar '" + name + "'");
  return it->second;
}

void FluctuationQuery::push(const FrameData& data) {
  sample(data, std::span(row_).first(columns_));
  if (temp_scalar_) row_.back() = scalar(data, "temp");
  series_.add(data, row_);
}

void FluctuationQuery::finish(const FinalData& data, const QueryOutput& out) {
  const double temperature =
      temperature_ ? *temperature_ : series_stats(series_.column(series_.names().size() - 1)).mean;
  if (series_.frames() < 2) warn("fewer than two frames: no fluctuations");
  write_table(out, "", series_.table(), comments_);
  auto r = results(temperature);
  r["temperature"] = temperature;
  r["series"] = series_.statistics();
  std::vector<std::size_t> plotted;
  for (std::size_t c = 0; c < columns_; ++c) plotted.push_back(c);
  write_plot(out, "", series_.plot(label(), "time (" + units_.time + ")", plot_ylabel(), plotted));
  publish(out, data.frames, std::move(r));
}

}  // namespace molstep::analysis
