// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/lag_query.hpp"

namespace molstep::analysis {

/// `msd`: mean square displacement against lag time, MSD(tau) = < |r_i(t0 + tau) - r_i(t0)|^2 >
/// averaged over the selection's atoms and all time origins t0 (Einstein, as MDAnalysis
/// EinsteinMSD with fft=False; `dims` = xyz, xy, xz, yz, x, y or z as its msd_type), and the
/// self-diffusion coefficient D = slope / (2 dims) from a least-squares line through MSD(tau) for
/// lags between `fit_start` and `fit_end` (fractions of the longest lag, default 0.1 and 0.5).
///
/// Positions must be unwrapped: `unwrap=nojump` (default) adds up the minimum-image
/// displacement between consecutive frames (as MDAnalysis' NoJump transformation; needs an
/// orthorhombic box and atoms that move less than half a box length between frames);
/// `unwrap=none` uses the coordinates as given (LAMMPS xu/yu/zu, GROMACS trjconv -pbc nojump).
/// Memory: the unwrapped positions of the selection for every frame, F x N x 3 doubles; the
/// direct O(F^2 N) sum runs once at the end, parallel over lags.
class MsdQuery final : public LagQuery {
 public:
  MsdQuery(const QuerySpec& spec, QueryContext& context, Params& params);
  void push(const FrameData& data) override;
  void finish(const FinalData& data, const QueryOutput& out) override;

 private:
  bool nojump_ = true;
  double fit_start_ = 0.1, fit_end_ = 0.5;
  std::vector<double> previous_;  // the previous frame's wrapped positions (nojump)
};

}  // namespace molstep::analysis
