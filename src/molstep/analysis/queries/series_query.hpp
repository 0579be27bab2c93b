// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "molstep/analysis/queries/common.hpp"

namespace molstep::analysis {

/// Base of the queries that give one row of values per frame (the one-body moment series and
/// the fluctuation queries). It keeps the rows as a TimeSeries and finishes the same way for
/// all of them: `<label>.csv` (frame, step, time, then the columns, under the header comments
/// in comments_), the query's results with every column's statistics added as "series", and a
/// plot of the columns against time.
class SeriesQuery : public QueryBase {
 public:
  void push(const FrameData& data) final;
  void finish(const FinalData& data, const QueryOutput& out) final;

 protected:
  SeriesQuery(const QuerySpec& spec, QueryContext& context, std::vector<std::string> columns);

  /// Fills this frame's row, one value per column given to the constructor.
  virtual void fill_row(const FrameData& data, std::span<double> row) = 0;
  /// The query's results; called after `<label>.csv` is written and before the plot, so that
  /// files it writes come between them in the summary.
  [[nodiscard]] virtual nlohmann::json series_results(const QueryOutput& out) = 0;
  [[nodiscard]] virtual std::string plot_ylabel() const = 0;
  /// The columns the plot shows (all when empty).
  [[nodiscard]] virtual std::vector<std::size_t> plot_columns() const { return {}; }

  [[nodiscard]] const TimeSeries& series() const { return series_; }
  [[nodiscard]] const UnitNames& units() const { return units_; }
  /// Lines for the CSV header comments (units of the columns).
  std::vector<std::string> comments_;

 private:
  UnitNames units_;
  TimeSeries series_;
  std::vector<double> row_;
};

}  // namespace molstep::analysis
