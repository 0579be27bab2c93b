// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/rdf.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace molstep::analysis {

namespace {

double half_smallest_length(const core::Frame& f) { return 0.5 * std::min({f.box[0][0], f.box[1][1], f.box[2][2]}); }

}  // namespace

RdfQuery::RdfQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : QueryBase(spec), units_(unit_names(context.units)) {
  const int sel1 = selection_param(params, context, "sel1", "all", true);
  const int sel2 = selection_param(params, context, "sel2", "all", true);
  const auto& a = context.selections[sel1].indices;
  const auto& b = context.selections[sel2].indices;
  same_ = sel1 == sel2;
  n1_ = a.size();
  n2_ = b.size();
  // Atoms in both selections: InterRDF pairs each with itself at r = 0; molstep does not.
  std::vector<std::uint32_t> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  overlap_ = common.size();

  const auto& f = context.first_frame;
  if (!f.has_box()) fail("g(r) is normalised by the box volume, and the source has no box");
  pbc_ = params.get_bool("pbc", true);
  note("pbc", pbc_);
  if (pbc_ && !f.orthorhombic()) fail("minimum-image distances need an orthorhombic box; use pbc=no");
  const double half = half_smallest_length(f);
  if (params.has("rmax")) {
    rmax_ = params.get_double("rmax");
    if (!(rmax_ > 0)) fail("rmax must be positive");
    if (pbc_ && rmax_ > half) {
      fail("rmax " + format_double(rmax_) + " exceeds half the smallest box length (" + format_double(half) +
           "): minimum-image distances beyond it are incomplete; lower rmax or use pbc=no");
    }
  } else {
    rmax_ = pbc_ ? std::min(15.0, half) : 15.0;
  }
  note("rmax", rmax_);
  const long bins = params.get_integer("bins", 75);
  if (bins < 1 || bins > 100000000) fail("bins must be between 1 and 1e8");
  bins_ = static_cast<int>(bins);
  note("bins", bins_);
  pairs_ = context.requests.pairs(PairSpec{sel1, sel2, rmax_, bins_, pbc_});
}

void RdfQuery::push(const FrameData& data) {
  const auto& f = data.frame;
  if (!f.has_box()) fail("frame " + std::to_string(data.index) + " has no box");
  volume_sum_ += f.volume();
  ++frames_;
  if (pbc_ && !warned_box_ && rmax_ > half_smallest_length(f)) {
    warned_box_ = true;
    warn("from frame " + std::to_string(data.index) +
         " the box is smaller than 2 rmax; counts near rmax are incomplete");
  }
}

void RdfQuery::finish(const FinalData& data, const QueryOutput& out) {
  const auto& counts = data.pair_counts[static_cast<std::size_t>(pairs_)];
  const double frames = static_cast<double>(frames_);
  const double volume = frames_ ? volume_sum_ / frames : std::nan("");
  const double pair_density = static_cast<double>(n1_) * static_cast<double>(n2_) / volume;
  const double width = rmax_ / bins_;
  std::vector<double> r, lo, hi, g, coordination;
  std::vector<std::int64_t> ordered;
  double cumulative = 0;
  std::size_t peak = 0;
  for (int k = 0; k < bins_; ++k) {
    const auto c = counts[static_cast<std::size_t>(k)] * (same_ ? 2u : 1u);
    // Edges as numpy.linspace(0, rmax, bins + 1): k * width, the last exactly rmax.
    const double r_lo = k * width;
    const double r_hi = k + 1 == bins_ ? rmax_ : (k + 1) * width;
    const double shell = 4.0 / 3.0 * std::numbers::pi * (r_hi * r_hi * r_hi - r_lo * r_lo * r_lo);
    lo.push_back(r_lo);
    hi.push_back(r_hi);
    r.push_back(0.5 * (r_lo + r_hi));
    ordered.push_back(static_cast<std::int64_t>(c));
    g.push_back(static_cast<double>(c) / (frames * shell * pair_density));
    cumulative += static_cast<double>(c);
    coordination.push_back(cumulative / (frames * static_cast<double>(n1_)));
    if (g.back() > g[peak]) peak = static_cast<std::size_t>(k);
  }
  const double shell0 = 4.0 / 3.0 * std::numbers::pi * hi[0] * hi[0] * hi[0];
  const double self_g0 = static_cast<double>(overlap_) / (shell0 * pair_density);
  nlohmann::json results = {{"peak_r", r[peak]},
                            {"peak_g", finite_or_null(g[peak])},
                            {"n_at_rmax", finite_or_null(coordination.back())},
                            {"n1", n1_},
                            {"n2", n2_},
                            {"mean_volume", finite_or_null(volume)},
                            {"density2", finite_or_null(static_cast<double>(n2_) / volume)},
                            {"self_pairs_excluded_per_frame", overlap_},
                            {"mdanalysis_g0", finite_or_null(g[0] + self_g0)},
                            {"overflow_pairs", counts.back() * (same_ ? 2u : 1u)}};
  write_table(
      out, "", {{"r", r}, {"r_lo", lo}, {"r_hi", hi}, {"g", g}, {"count", ordered}, {"n", coordination}},
      {"g(r) normalised as MDAnalysis InterRDF: g = count / (frames * shell volume * n1 * n2 / <V>), <V> = " +
           format_double(volume) + " " + units_.length + "^3",
       "count: ordered pairs (i in sel1, j in sel2, i != j) over " + std::to_string(frames_) +
           " frames; n: mean number of sel2 atoms within r_hi of a sel1 atom",
       "InterRDF also pairs the " + std::to_string(overlap_) +
           " atoms in both selections with themselves in bin 0 (g[0] there = " + format_double(g[0] + self_g0) + ")"});
  write_plot(out, "",
             {label() + ": radial distribution function", "r (" + units_.length + ")", "g(r)", {{"", r, g}}, false});
  publish(out, data.frames, std::move(results));
}

}  // namespace molstep::analysis
