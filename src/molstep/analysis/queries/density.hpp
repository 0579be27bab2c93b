// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/common.hpp"

namespace molstep::analysis {

/// `density`: density profile along `axis` (x, y or z; default z) in `bins` slabs (default 100)
/// of each frame's box, averaged over frames, as gmx density: every atom of the selection is
/// wrapped into the box along the axis (the box spans 0 .. L) and adds its weight to its slab,
/// divided by the slab volume V / bins of that frame. `type` chooses the weight: number (1,
/// atoms/A^3), mass (g/cm^3 for masses in g/mol), charge (e/A^3) or electron (Z - q, e/A^3,
/// with Z from the element). Needs a box; a triclinic box only along z (slabs parallel to the
/// a-b plane).
class DensityQuery final : public QueryBase {
 public:
  DensityQuery(const QuerySpec& spec, QueryContext& context, Params& params);
  void push(const FrameData& data) override;
  void finish(const FinalData& data, const QueryOutput& out) override;

 private:
  UnitNames units_;
  int axis_ = 2;
  std::string type_ = "number";
  std::string unit_;
  double scale_ = 1.0;  // to the reported unit (g/cm^3 for mass)
  std::vector<std::uint32_t> atoms_;
  std::vector<double> weight_;  // per selected atom
  std::vector<double> sums_;    // sum over frames of weight / slab volume
  double length_sum_ = 0;       // sum over frames of the box length along the axis
  std::size_t frames_ = 0;
};

}  // namespace molstep::analysis
