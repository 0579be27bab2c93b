// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/lag_query.hpp"

namespace molstep::analysis {

/// `vacf`: velocity autocorrelation C(tau) = < v_i(t0) . v_i(t0 + tau) > averaged over the
/// selection's atoms and all time origins (components per `dims`, default xyz), unnormalised and
/// normalised by C(0), and the Green-Kubo self-diffusion coefficient
/// D = (1 / dims) int_0^tau_end C(tau) dtau (trapezoid rule), with tau_end = `int_end` times the
/// longest lag (default 0.5: the last half of the lags averages over few origins, and gmx
/// velacc likewise stops at half the trajectory). The running integral is written per lag.
/// Needs velocities in the source; keeps F x N x 3 doubles, like msd.
class VacfQuery final : public LagQuery {
 public:
  VacfQuery(const QuerySpec& spec, QueryContext& context, Params& params);
  void push(const FrameData& data) override;
  void finish(const FinalData& data, const QueryOutput& out) override;

 private:
  double int_end_ = 0.5;
};

}  // namespace molstep::analysis
