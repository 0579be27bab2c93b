// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/common.hpp"

namespace molstep::analysis {

/// `rdf`: radial distribution function g(r) between `sel1` and `sel2` (default all), normalised
/// as MDAnalysis InterRDF (norm="rdf"):
///   g(r_k) = C_k / (F * V_k * n1 n2 / <V>),  V_k = 4/3 pi (r_{k+1}^3 - r_k^3),
/// with C_k the ordered pairs (i in sel1, j in sel2, i != j) in bin k summed over F frames, and
/// <V> the mean box volume. Unlike InterRDF, an atom in both selections is not paired with
/// itself (InterRDF puts those zero distances into bin 0), so bins >= 1 agree with InterRDF and
/// bin 0 differs by the self term, reported in the summary. With sel1 = sel2 the engine counts
/// each unordered pair once and C_k is twice that. The running coordination number
/// n(r) = (n2/<V>) int_0^r g 4 pi r'^2 dr' = sum_{k: r_{k+1} <= r} C_k / (F n1) is written too.
/// Defaults follow InterRDF (75 bins, rmax 15) with rmax capped at half the smallest box length;
/// with minimum image (`pbc`, default yes; orthorhombic boxes) a larger rmax is an error.
class RdfQuery final : public QueryBase {
 public:
  RdfQuery(const QuerySpec& spec, QueryContext& context, Params& params);
  void push(const FrameData& data) override;
  void finish(const FinalData& data, const QueryOutput& out) override;

 private:
  UnitNames units_;
  int pairs_ = 0;
  bool same_ = false;
  bool pbc_ = true;
  double rmax_ = 15.0;
  int bins_ = 75;
  std::size_t n1_ = 0, n2_ = 0, overlap_ = 0;
  double volume_sum_ = 0;
  std::size_t frames_ = 0;
  bool warned_box_ = false;
};

}  // namespace molstep::analysis
