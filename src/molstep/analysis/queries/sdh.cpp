// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/sdh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace molstep::analysis {

double box_diagonal(const std::array<std::array<double, 3>, 3>& box) {
  double longest = 0;
  for (const double sb : {-1.0, 1.0}) {
    for (const double sc : {-1.0, 1.0}) {
      double d2 = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        const double v = box[0][k] + sb * box[1][k] + sc * box[2][k];
        d2 += v * v;
      }
      longest = std::max(longest, std::sqrt(d2));
    }
  }
  return longest;
}

SdhQuery::SdhQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : QueryBase(spec), units_(unit_names(context.units)) {
  const int sel = selection_param(params, context, "sel", "all", false);
  const auto& indices = context.selections[sel].indices;
  atoms_ = indices.size();
  const auto& f = context.first_frame;
  const bool pbc = params.get_bool("pbc", f.has_box());
  note("pbc", pbc);
  if (pbc && !f.has_box()) fail("pbc=yes needs a box, and the source has none");
  if (pbc && !f.orthorhombic()) fail("minimum-image distances need an orthorhombic box; use pbc=no");
  width_ = params.get_double("width", 0.1);
  if (!(width_ > 0)) fail("width must be positive");
  note("width", width_);

  double rmax = 0;
  if (params.has("rmax")) {
    rmax = params.get_double("rmax");
  } else if (f.has_box()) {
    rmax = pbc ? 0.5 * box_diagonal(f.box) : box_diagonal(f.box);
  } else if (f.natoms() == context.selections.natoms() && !indices.empty()) {
    double lo[3], hi[3];
    for (int c = 0; c < 3; ++c) lo[c] = std::numeric_limits<double>::infinity(), hi[c] = -lo[c];
    for (const auto i : indices) {
      const double r[3] = {f.x[i], f.y[i], f.z[i]};
      for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], r[c]), hi[c] = std::max(hi[c], r[c]);
    }
    rmax = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                     (hi[2] - lo[2]) * (hi[2] - lo[2]));
    warn("no box: rmax is the first frame's bounding-box diagonal; later frames may overflow");
  } else {
    fail("the source has no box; give rmax");
  }
  if (!(rmax > 0)) rmax = width_;  // a single atom or coincident atoms: one bucket
  // A whole number of buckets of exactly `width` (a ratio within 1e-9 of an integer is taken
  // as that integer, so rmax=10,width=0.1 gives 100 buckets, not 101).
  const double ratio = rmax / width_;
  const double nearest = std::round(ratio);
  const double buckets = std::abs(ratio - nearest) <= 1e-9 * nearest ? nearest : std::ceil(ratio);
  if (buckets > 1e8) fail("rmax / width gives more than 1e8 buckets");
  bins_ = std::max(1, static_cast<int>(buckets));
  note("rmax", bins_ * width_);
  note("bins", bins_);
  pairs_ = context.requests.pairs(PairSpec{sel, sel, bins_ * width_, bins_, pbc});
}

void SdhQuery::finish(const FinalData& data, const QueryOutput& out) {
  const auto& counts = data.pair_counts[static_cast<std::size_t>(pairs_)];
  const auto edges = bin_edges(static_cast<std::size_t>(bins_), width_);
  std::vector<std::int64_t> count;
  std::vector<double> per_frame;
  std::uint64_t total = 0;
  const double frames = static_cast<double>(data.frames);
  for (std::size_t b = 0; b < counts.size(); ++b) total += counts[b];
  for (int b = 0; b < bins_; ++b) {
    const auto c = counts[static_cast<std::size_t>(b)];
    count.push_back(static_cast<std::int64_t>(c));
    per_frame.push_back(data.frames ? static_cast<double>(c) / frames : 0.0);
  }
  const std::uint64_t overflow = counts.back();
  const std::uint64_t n = atoms_;
  const std::uint64_t expected = static_cast<std::uint64_t>(data.frames) * (n * (n > 0 ? n - 1 : 0) / 2);
  if (total != expected) warn("pair total differs from frames * N (N - 1) / 2");
  write_table(out, "", {{"r_lo", edges.lo}, {"r_hi", edges.hi}, {"count", count}, {"count_per_frame", per_frame}},
              {"unordered pairs i < j by distance (" + units_.length + "), summed over " + std::to_string(data.frames) +
                   " frames",
               "overflow (r >= " + format_double(bins_ * width_) + "): " + std::to_string(overflow)});
  nlohmann::json results = {{"pairs_total", total},
                            {"pairs_expected", expected},
                            {"check", total == expected},
                            {"overflow", overflow},
                            {"atoms", atoms_},
                            {"bins", bins_},
                            {"rmax", bins_ * width_}};
  write_plot(out, "",
             {label() + ": distance histogram",
              "r (" + units_.length + ")",
              "pairs per frame",
              {{"", edges.mid, per_frame}},
              true});
  publish(out, data.frames, std::move(results));
}

}  // namespace molstep::analysis
