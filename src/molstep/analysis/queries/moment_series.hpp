// SPDX-License-Identifier: MIT
#pragma once

#include <span>
#include <string>
#include <vector>

#include "molstep/analysis/queries/series_query.hpp"

namespace molstep::analysis {

/// A one-body query: each frame's values follow from the Moments of one selection (`sel`,
/// default all), which the engine computes in its fused pass; the query never loops over atoms.
/// Writes `<label>.csv` (frame, step, time, the columns) and a summary with the mean, standard
/// deviation, minimum and maximum of every column.
class MomentSeriesQuery : public SeriesQuery {
 protected:
  /// `need_mass`: the values divide by the selection's total mass, so a frame whose selection
  /// has no mass is an error (rather than a column of NaN).
  MomentSeriesQuery(const QuerySpec& spec, QueryContext& context, Params& params, std::vector<std::string> columns,
                    bool need_mass);

  /// Fills this frame's values (one per column).
  virtual void evaluate(const Moments& m, const FrameData& data, std::span<double> values) = 0;
  /// Extra results and files (e.g. the dipole histogram).
  virtual void finish_extra(const QueryOutput& /*out*/, nlohmann::json& /*results*/) {}

  [[nodiscard]] int selection() const { return selection_; }

 private:
  void fill_row(const FrameData& data, std::span<double> row) final;
  [[nodiscard]] nlohmann::json series_results(const QueryOutput& out) final;

  int selection_ = 0;
  int moments_ = 0;
  bool need_mass_ = false;
};

/// Mass-weighted second moments about the centre of mass, S_ab = sum m (r_a - c_a)(r_b - c_b),
/// ordered xx, yy, zz, xy, xz, yz, from the sums about the origin: S_ab = sum m r_a r_b -
/// (sum m r_a)(sum m r_b) / M.
std::array<double, 6> central_second_moments(const Moments& m);

}  // namespace molstep::analysis
