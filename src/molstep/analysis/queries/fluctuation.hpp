// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include "molstep/analysis/queries/common.hpp"

namespace molstep::analysis {

/// Base of the thermodynamic fluctuation queries (cv, kappa): collects per-frame values of the
/// source's scalars or box, and the temperature T of the formula, which is `temp=` when given,
/// otherwise the mean of the source's "temp" scalar. Writes `<label>.csv` with frame, step,
/// time, the values and the temperature when the source has it.
class FluctuationQuery : public QueryBase {
 public:
  void push(const FrameData& data) override;
  void finish(const FinalData& data, const QueryOutput& out) override;

 protected:
  FluctuationQuery(const QuerySpec& spec, QueryContext& context, Params& params, std::vector<std::string> columns);

  /// This frame's values, one per column given to the constructor.
  virtual void sample(const FrameData& data, std::span<double> values) = 0;
  /// The query's results for temperature `temperature`.
  [[nodiscard]] virtual nlohmann::json results(double temperature) = 0;
  [[nodiscard]] virtual std::string plot_ylabel() const = 0;

  /// Names the scalar a frame lacks (the check at construction covers the first frame only).
  double scalar(const FrameData& data, const std::string& name) const;
  [[nodiscard]] const TimeSeries& series() const { return series_; }
  [[nodiscard]] const UnitNames& units() const { return units_; }
  [[nodiscard]] bool has_temperature_series() const { return temp_scalar_; }
  [[nodiscard]] std::size_t natoms() const { return natoms_; }
  std::vector<std::string> comments_;

 private:
  UnitNames units_;
  std::optional<double> temperature_;
  bool temp_scalar_ = false;
  std::size_t columns_ = 0;
  std::size_t natoms_ = 0;
  TimeSeries series_;
  std::vector<double> row_;
};

}  // namespace molstep::analysis
