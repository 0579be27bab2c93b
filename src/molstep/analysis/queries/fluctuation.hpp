// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include "molstep/analysis/queries/series_query.hpp"

namespace molstep::analysis {

/// Base of the thermodynamic fluctuation queries (cv, kappa): collects per-frame values of the
/// source's scalars or box, and the temperature T of the formula, which is `temp=` when given,
/// otherwise the mean of the source's "temp" scalar. Writes `<label>.csv` with frame, step,
/// time, the values and the temperature when the source has it.
class FluctuationQuery : public SeriesQuery {
 protected:
  FluctuationQuery(const QuerySpec& spec, QueryContext& context, Params& params, std::vector<std::string> columns);

  /// This frame's values, one per column given to the constructor.
  virtual void sample(const FrameData& data, std::span<double> values) = 0;
  /// The query's results for temperature `temperature`.
  [[nodiscard]] virtual nlohmann::json results(double temperature) = 0;

  /// Names the scalar a frame lacks (the check at construction covers the first frame only).
  double scalar(const FrameData& data, const std::string& name) const;
  [[nodiscard]] bool has_temperature_series() const { return temp_scalar_; }
  [[nodiscard]] std::size_t natoms() const { return natoms_; }

 private:
  void fill_row(const FrameData& data, std::span<double> row) final;
  [[nodiscard]] nlohmann::json series_results(const QueryOutput& out) final;
  [[nodiscard]] std::vector<std::size_t> plot_columns() const final;

  std::optional<double> temperature_;
  bool temp_scalar_ = false;
  std::size_t columns_ = 0;  // the derived query's columns, before the temperature
  std::size_t natoms_ = 0;
};

}  // namespace molstep::analysis
