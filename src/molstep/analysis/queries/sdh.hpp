// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/common.hpp"

namespace molstep::analysis {

/// `sdh`: spatial distance histogram, every unordered pair i < j of the selection once per frame,
/// in buckets of `width` (default 0.1 length units) from 0 to `rmax`, summed over frames (the
/// engine counts the pairs exactly, on the CPU or GPU). `pbc` (default: yes when the source has
/// a box) uses minimum-image distances (orthorhombic boxes). Default rmax: half the first frame's
/// box diagonal with pbc (the longest minimum-image distance), the longest body diagonal
/// without, or the diagonal of the first frame's bounding box of the selection when there is no
/// box; rmax is rounded up to a whole number of buckets. Pairs at r >= rmax are counted in an
/// overflow reported in the summary, which also checks total = frames N (N - 1) / 2.
class SdhQuery final : public QueryBase {
 public:
  SdhQuery(const QuerySpec& spec, QueryContext& context, Params& params);
  void push(const FrameData& /*data*/) override {}
  void finish(const FinalData& data, const QueryOutput& out) override;

 private:
  UnitNames units_;
  int pairs_ = 0;
  double width_ = 0.1;
  int bins_ = 0;
  std::size_t atoms_ = 0;
};

/// The longest distance between two points of the box spanned by `box` (its longest body
/// diagonal).
double box_diagonal(const std::array<std::array<double, 3>, 3>& box);

}  // namespace molstep::analysis
