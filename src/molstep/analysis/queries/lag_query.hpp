// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "molstep/analysis/queries/common.hpp"

namespace molstep::analysis {

/// Base of the time-lag queries (msd, vacf): both keep a per-atom 3-vector of one selection
/// (`sel`, default all) for every frame, average a term of two frames' vectors over atoms and
/// time origins for every lag at the end, over the components `dims` picks (default xyz), and
/// report a self-diffusion coefficient.
class LagQuery : public QueryBase {
 protected:
  LagQuery(const QuerySpec& spec, QueryContext& context, Params& params);

  /// Records the time of frame `f` and returns its N x 3 block of the history to fill.
  double* add_frame(const core::Frame& f);

  /// The lags 0 .. F-1 of the F frames and their times.
  struct LagAxis {
    FrameSpacing spacing;
    std::string time_unit;  ///< units().time, or "frame" when the frames carry no time
    std::vector<std::int64_t> lag;
    std::vector<double> time;  ///< lag * spacing.dt
  };
  /// The lag axis of the frames so far; warns when they are not evenly spaced in time.
  LagAxis lag_axis();

  /// Adds D (`diffusion`, in length^2/time), its unit and, where the units allow, its value
  /// in 1e-5 cm^2/s to `results`.
  void add_diffusion(nlohmann::json& results, double diffusion, const LagAxis& axis) const;

  [[nodiscard]] const UnitNames& units() const { return units_; }
  [[nodiscard]] const Dims& dims() const { return dims_; }
  [[nodiscard]] const std::vector<std::uint32_t>& atoms() const { return atoms_; }
  [[nodiscard]] const AtomHistory& history() const { return history_; }

 private:
  UnitNames units_;
  Dims dims_;
  std::vector<std::uint32_t> atoms_;
  AtomHistory history_;
  std::vector<double> times_;
};

}  // namespace molstep::analysis
