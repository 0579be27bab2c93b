// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/moment_series.hpp"

namespace molstep::analysis {

/// `inertia`: inertia tensor about the centre of mass, I = sum m_i (|r_i - c|^2 1 - (r_i - c)(r_i - c)^T),
/// its six components and its principal moments (eigenvalues, ascending) per frame.
class InertiaQuery final : public MomentSeriesQuery {
 public:
  InertiaQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void evaluate(const Moments& m, const FrameData& data, std::span<double> values) override;
  [[nodiscard]] std::string plot_ylabel() const override;
  [[nodiscard]] std::vector<std::size_t> plot_columns() const override;
};

}  // namespace molstep::analysis
