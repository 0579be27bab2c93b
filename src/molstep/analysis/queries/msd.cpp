// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/msd.hpp"

#include <cmath>

namespace molstep::analysis {

MsdQuery::MsdQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : LagQuery(spec, context, params) {
  const std::string unwrap = params.get_string("unwrap", "nojump");
  if (unwrap != "nojump" && unwrap != "none") fail("unwrap must be nojump or none, found '" + unwrap + "'");
  nojump_ = unwrap == "nojump";
  note("unwrap", unwrap);
  if (nojump_) {
    const auto& f = context.first_frame;
    if (!f.has_box()) fail("unwrap=nojump needs a periodic box; the source has none (use unwrap=none)");
    if (!f.orthorhombic())
      fail("unwrap=nojump needs an orthorhombic box (unwrap the trajectory first, then unwrap=none)");
  }

  fit_start_ = params.get_double("fit_start", 0.1);
  fit_end_ = params.get_double("fit_end", 0.5);
  if (!(fit_start_ >= 0 && fit_start_ < fit_end_ && fit_end_ <= 1)) {
    fail("need 0 <= fit_start < fit_end <= 1 (fractions of the longest lag)");
  }
  note("fit_start", fit_start_);
  note("fit_end", fit_end_);
  context.requests.positions();
}

void MsdQuery::push(const FrameData& data) {
  const auto& f = data.frame;
  double* now = add_frame(f);
  const std::size_t n = atoms().size();
  const bool first = history().frames() == 1;
  if (nojump_ && !first && !f.orthorhombic()) {
    fail("frame " + std::to_string(data.index) + " has a triclinic box; unwrap=nojump needs orthorhombic boxes");
  }
  const double* before = first ? nullptr : history().frame(history().frames() - 2);
  const MinimumImage image(f);
  if (nojump_) previous_.resize(3 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto i = atoms()[k];
    const double r[3] = {f.x[i], f.y[i], f.z[i]};
    if (!nojump_ || first) {
      for (int c = 0; c < 3; ++c) now[3 * k + c] = r[c];
    } else {
      // The unwrapped position moves by the minimum image of the step between the stored
      // (wrapped) positions of consecutive frames, in this frame's box.
      double d[3] = {r[0] - previous_[3 * k], r[1] - previous_[3 * k + 1], r[2] - previous_[3 * k + 2]};
      image.apply(d[0], d[1], d[2]);
      for (int c = 0; c < 3; ++c) now[3 * k + c] = before[3 * k + c] + d[c];
    }
    if (nojump_) {
      for (int c = 0; c < 3; ++c) previous_[3 * k + c] = r[c];
    }
  }
}

void MsdQuery::finish(const FinalData& data, const QueryOutput& out) {
  const auto use = dims().use;
  const auto msd = history().lag_average([use](const double* a, const double* b) {
    double s = 0;
    for (int c = 0; c < 3; ++c) {
      if (use[static_cast<std::size_t>(c)]) s += (b[c] - a[c]) * (b[c] - a[c]);
    }
    return s;
  });
  const LagAxis axis = lag_axis();
  const std::vector<double>& lag_time = axis.time;
  const std::string& time_unit = axis.time_unit;
  // The fit window in lags, inclusive: [ceil(start * L), floor(end * L)] with L the longest lag.
  const double longest = msd.empty() ? 0.0 : static_cast<double>(msd.size() - 1);
  const auto first = static_cast<std::size_t>(std::ceil(fit_start_ * longest));
  const auto last = static_cast<std::size_t>(std::floor(fit_end_ * longest));
  nlohmann::json results = nlohmann::json::object();
  LineFit fit{};
  if (!msd.empty() && last > first) {
    fit =
        fit_line(std::span(lag_time).subspan(first, last - first + 1), std::span(msd).subspan(first, last - first + 1));
  } else {
    warn("too few frames for the diffusion fit (need two lags in the window)");
    fit = fit_line({}, {});
  }
  const double diffusion = fit.slope / (2.0 * dims().count);
  results["fit"] = {{"first_lag", first},
                    {"last_lag", last},
                    {"points", fit.points},
                    {"slope", finite_or_null(fit.slope)},
                    {"intercept", finite_or_null(fit.intercept)}};
  add_diffusion(results, diffusion, axis);
  results["msd_at_longest_lag"] = msd.empty() ? nlohmann::json(nullptr) : nlohmann::json(msd.back());

  write_table(
      out, "", {{"lag", axis.lag}, {"time", lag_time}, {"msd", msd}},
      {"MSD in " + units().length + "^2 over dims " + dims().name + "; time = lag * " + format_double(axis.spacing.dt) +
           " " + time_unit,
       "D = slope / (2 * " + std::to_string(dims().count) + ") = " + format_double(diffusion) + " " + units().length +
           "^2/" + time_unit + " from lags " + std::to_string(first) + " to " + std::to_string(last)});
  core::PlotSpec plot{label() + ": mean square displacement",
                      "lag time (" + time_unit + ")",
                      "MSD (" + units().length + "^2)",
                      {{"MSD", lag_time, msd}},
                      false};
  if (std::isfinite(fit.slope)) {
    std::vector<double> x{lag_time[first], lag_time[last]};
    std::vector<double> y{fit.intercept + fit.slope * x[0], fit.intercept + fit.slope * x[1]};
    plot.series.push_back({"fit", x, y});
  }
  write_plot(out, "", std::move(plot));
  publish(out, data.frames, std::move(results));
}

}  // namespace molstep::analysis
