// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/msd.hpp"

#include <cmath>

namespace molstep::analysis {

MsdQuery::MsdQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : QueryBase(spec), units_(unit_names(context.units)), history_(0) {
  const int sel = selection_param(params, context, "sel", "all", true);
  atoms_ = context.selections[sel].indices;
  history_ = AtomHistory(atoms_.size());

  const auto dims = parse_dims(params.get_string("dims", "xyz"));
  if (!dims) fail("dims must be one of xyz, xy, xz, yz, x, y, z");
  dims_ = *dims;
  note("dims", dims_.name);

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
  double* now = history_.append();
  const std::size_t n = atoms_.size();
  const bool first = history_.frames() == 1;
  if (nojump_ && !first && !f.orthorhombic()) {
    fail("frame " + std::to_string(data.index) + " has a triclinic box; unwrap=nojump needs orthorhombic boxes");
  }
  const double* before = first ? nullptr : history_.frame(history_.frames() - 2);
  const MinimumImage image(f);
  if (nojump_) previous_.resize(3 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto i = atoms_[k];
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
  times_.push_back(f.time);
}

void MsdQuery::finish(const FinalData& data, const QueryOutput& out) {
  const auto use = dims_.use;
  const auto msd = history_.lag_average([use](const double* a, const double* b) {
    double s = 0;
    for (int c = 0; c < 3; ++c) {
      if (use[static_cast<std::size_t>(c)]) s += (b[c] - a[c]) * (b[c] - a[c]);
    }
    return s;
  });
  const auto spacing = frame_spacing(times_);
  if (!spacing.warning.empty()) warn(spacing.warning);
  const std::string time_unit = spacing.has_time ? units_.time : "frame";

  std::vector<std::int64_t> lag;
  std::vector<double> lag_time;
  for (std::size_t k = 0; k < msd.size(); ++k) {
    lag.push_back(static_cast<std::int64_t>(k));
    lag_time.push_back(static_cast<double>(k) * spacing.dt);
  }
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
  const double diffusion = fit.slope / (2.0 * dims_.count);
  const auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  results["fit"] = {{"first_lag", first},
                    {"last_lag", last},
                    {"points", fit.points},
                    {"slope", finite(fit.slope)},
                    {"intercept", finite(fit.intercept)}};
  results["D"] = finite(diffusion);
  results["D_unit"] = units_.length + "^2/" + time_unit;
  if (!units_.reduced && spacing.has_time) {
    results["D_1e-5_cm2_per_s"] = finite(diffusion * constants::kDiffusion1e5Cm2PerSPerA2PerPs);
  }
  results["msd_at_longest_lag"] = msd.empty() ? nlohmann::json(nullptr) : nlohmann::json(msd.back());

  write_table(
      out, "", {{"lag", lag}, {"time", lag_time}, {"msd", msd}},
      {"MSD in " + units_.length + "^2 over dims " + dims_.name + "; time = lag * " + format_double(spacing.dt) + " " +
           time_unit,
       "D = slope / (2 * " + std::to_string(dims_.count) + ") = " + format_double(diffusion) + " " + units_.length +
           "^2/" + time_unit + " from lags " + std::to_string(first) + " to " + std::to_string(last)});
  core::PlotSpec plot{label() + ": mean square displacement",
                      "lag time (" + time_unit + ")",
                      "MSD (" + units_.length + "^2)",
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
