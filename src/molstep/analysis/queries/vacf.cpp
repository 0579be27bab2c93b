// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/vacf.hpp"

#include <cmath>

namespace molstep::analysis {

VacfQuery::VacfQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : LagQuery(spec, context, params) {
  int_end_ = params.get_double("int_end", 0.5);
  if (!(int_end_ > 0 && int_end_ <= 1)) fail("int_end must be in (0, 1] (a fraction of the longest lag)");
  note("int_end", int_end_);
  if (!context.first_frame.has_velocities()) fail("vacf needs velocities, and the source carries none");
  context.requests.velocities();
}

void VacfQuery::push(const FrameData& data) {
  const auto& f = data.frame;
  if (!f.has_velocities()) fail("frame " + std::to_string(data.index) + " has no velocities");
  double* v = add_frame(f);
  for (std::size_t k = 0; k < atoms().size(); ++k) {
    const auto i = atoms()[k];
    v[3 * k] = f.vx[i];
    v[3 * k + 1] = f.vy[i];
    v[3 * k + 2] = f.vz[i];
  }
}

void VacfQuery::finish(const FinalData& data, const QueryOutput& out) {
  const auto use = dims().use;
  const auto c = history().lag_average([use](const double* a, const double* b) {
    double s = 0;
    for (int k = 0; k < 3; ++k) {
      if (use[static_cast<std::size_t>(k)]) s += a[k] * b[k];
    }
    return s;
  });
  const LagAxis axis = lag_axis();
  const std::string& time_unit = axis.time_unit;

  std::vector<double> normalised, running;
  double integral = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    normalised.push_back(c[0] != 0 ? c[k] / c[0] : std::nan(""));
    if (k > 0) integral += 0.5 * axis.spacing.dt * (c[k - 1] + c[k]);
    running.push_back(integral / dims().count);
  }
  const double longest = c.empty() ? 0.0 : static_cast<double>(c.size() - 1);
  const auto end = static_cast<std::size_t>(std::floor(int_end_ * longest));
  nlohmann::json results = nlohmann::json::object();
  const double diffusion = c.size() >= 2 && end > 0 ? running[end] : std::nan("");
  if (!(end > 0)) warn("too few frames for the Green-Kubo integral");
  results["c0"] = c.empty() ? nlohmann::json(nullptr) : nlohmann::json(c[0]);
  results["integral_end_lag"] = end;
  add_diffusion(results, diffusion, axis);
  const std::string v2 = "(" + units().length + "/" + units().time + ")^2";
  write_table(out, "",
              {{"lag", axis.lag}, {"time", axis.time}, {"vacf", c}, {"vacf_norm", normalised}, {"D_running", running}},
              {"vacf in " + v2 + " over dims " + dims().name + "; vacf_norm = vacf / vacf(0)",
               "D_running = (1/" + std::to_string(dims().count) + ") * trapezoid integral of vacf from 0 to time, in " +
                   units().length + "^2/" + time_unit + "; D reported at lag " + std::to_string(end)});
  write_plot(out, "",
             {label() + ": velocity autocorrelation",
              "lag time (" + time_unit + ")",
              "C(t) / C(0)",
              {{"", axis.time, normalised}},
              false});
  publish(out, data.frames, std::move(results));
}

}  // namespace molstep::analysis
