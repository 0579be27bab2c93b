// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/common.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "molstep/core/error.hpp"
#include "molstep/core/units.hpp"

namespace molstep::analysis {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

UnitNames unit_names(const std::string& system) {
  // k_B: LAMMPS update.cpp for real (kcal/mol/K) and metal (eV/K, via core::unit_system);
  // GROMACS BOLTZ = R / 1000 in kJ/mol/K with R from CODATA 2018.
  if (system == "real") return {"real", "A", "ps", "g/mol", "kcal/mol", 0.0019872067, false};
  if (system == "metal") return {"metal", "A", "ps", "g/mol", "eV", core::unit_system("metal").boltz, false};
  if (system == "gromacs") return {"gromacs", "A", "ps", "g/mol", "kJ/mol", constants::kGasConstant / 1000.0, false};
  if (system == "lj") return {"lj", "sigma", "tau", "m", "epsilon", 1.0, true};
  throw Error("unknown unit system '" + system + "' (known: real, metal, gromacs, lj)");
}

// ---------------------------------------------------------------------------------------------

QueryBase::QueryBase(const QuerySpec& spec)
    : Query(spec.label.empty() ? spec.kind : spec.label),
      kind_(spec.kind),
      spec_text_(spec.text.empty() ? spec.kind : spec.text) {}

int QueryBase::selection_param(Params& params, QueryContext& context, const std::string& key,
                               const std::string& fallback, bool need_atoms) {
  const std::string text = params.get_string(key, fallback);
  int id = 0;
  try {
    id = context.selections.resolve(text);
  } catch (const Error& e) {
    fail(key + ": " + e.message());
  }
  const auto& selection = context.selections[id];
  if (need_atoms && selection.indices.empty()) fail(key + "='" + text + "' matches no atoms");
  note(key, text);
  note(key + "_atoms", selection.indices.size());
  return id;
}

void QueryBase::warn(const std::string& message) { warnings_.push_back(message); }

void QueryBase::fail(const std::string& message) const { throw Error("query '" + spec_text_ + "': " + message); }

void QueryBase::write_table(const QueryOutput& out, const std::string& suffix, const std::vector<CsvColumn>& columns,
                            const std::vector<std::string>& comments) {
  const std::string name = label() + suffix + ".csv";
  std::vector<std::string> lines{"molstep " + kind_ + " query: " + spec_text_};
  lines.insert(lines.end(), comments.begin(), comments.end());
  write_csv(out.dir / name, columns, lines);
  files_.push_back(name);
}

void QueryBase::write_plot(const QueryOutput& out, const std::string& suffix, core::PlotSpec spec) {
  if (!out.plot) return;
  const bool any_finite = std::any_of(spec.series.begin(), spec.series.end(), [](const core::PlotSeries& s) {
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) return true;
    }
    return false;
  });
  const std::string name = label() + suffix + ".png";
  if (!any_finite) {
    warn("plot " + name + " skipped: no finite values");
    return;
  }
  if (spec.title.empty()) spec.title = label();
  core::write_plot_png(out.dir / name, spec);
  files_.push_back(name);
}

void QueryBase::publish(const QueryOutput& out, std::size_t frames, nlohmann::json results) const {
  auto& s = out.summary;
  s["kind"] = kind_;
  s["spec"] = spec_text_;
  s["parameters"] = parameters_;
  s["frames"] = frames;
  s["files"] = files_;
  s["results"] = std::move(results);
  if (!warnings_.empty()) s["warnings"] = warnings_;
}

// ---------------------------------------------------------------------------------------------

nlohmann::json SeriesStats::json() const {
  return {{"mean", finite_or_null(mean)},
          {"std", finite_or_null(stddev)},
          {"min", finite_or_null(min)},
          {"max", finite_or_null(max)}};
}

nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

SeriesStats series_stats(std::span<const double> values) {
  if (values.empty()) return {kNaN, kNaN, kNaN, kNaN};
  SeriesStats s{0, 0, values.front(), values.front()};
  for (const double v : values) {
    s.mean += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean /= static_cast<double>(values.size());
  // Two-pass variance: the mean is subtracted first, so a large offset (a total energy of
  // -1e5 with fluctuations of 1) does not cancel catastrophically.
  double var = 0;
  for (const double v : values) var += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(var / static_cast<double>(values.size()));
  return s;
}

TimeSeries::TimeSeries(std::vector<std::string> names) : names_(std::move(names)), values_(names_.size()) {}

void TimeSeries::add(const FrameData& data, std::span<const double> values) {
  index_.push_back(static_cast<std::int64_t>(data.index));
  step_.push_back(data.frame.step);
  time_.push_back(data.frame.time);
  for (std::size_t c = 0; c < values_.size(); ++c) values_[c].push_back(values[c]);
}

std::vector<CsvColumn> TimeSeries::table() const {
  std::vector<CsvColumn> columns{{"frame", index_}, {"step", step_}, {"time", time_}};
  for (std::size_t c = 0; c < names_.size(); ++c) columns.push_back({names_[c], values_[c]});
  return columns;
}

nlohmann::json TimeSeries::statistics() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t c = 0; c < names_.size(); ++c) j[names_[c]] = series_stats(values_[c]).json();
  return j;
}

core::PlotSpec TimeSeries::plot(const std::string& title, const std::string& xlabel, const std::string& ylabel,
                                const std::vector<std::size_t>& which) const {
  core::PlotSpec spec;
  spec.title = title;
  spec.xlabel = xlabel;
  spec.ylabel = ylabel;
  std::vector<std::size_t> columns = which;
  if (columns.empty()) {
    for (std::size_t c = 0; c < names_.size(); ++c) columns.push_back(c);
  }
  for (const auto c : columns) spec.series.push_back({names_[c], time_, values_[c]});
  return spec;
}

Histogram::Histogram(double lo, double hi, std::size_t bins)
    : lo_(lo), width_((hi - lo) / static_cast<double>(bins)), sums_(bins, 0.0) {}

void Histogram::add(double x, double weight) {
  if (x < lo_) {
    below_ += weight;
    return;
  }
  const double u = (x - lo_) / width_;
  // The comparison also sends NaN to the overflow.
  if (!(u < static_cast<double>(sums_.size()))) {
    above_ += weight;
    return;
  }
  sums_[static_cast<std::size_t>(u)] += weight;
}

BinEdges bin_edges(std::size_t bins, double width) {
  BinEdges e;
  for (std::size_t i = 0; i < bins; ++i) {
    const auto k = static_cast<double>(i);
    e.lo.push_back(k * width);
    e.hi.push_back((k + 1) * width);
    e.mid.push_back((k + 0.5) * width);
  }
  return e;
}

// ---------------------------------------------------------------------------------------------

std::array<double, 3> symmetric_eigenvalues(std::array<std::array<double, 3>, 3> a) {
  // Cyclic Jacobi: each rotation zeroes one off-diagonal element; convergence is quadratic,
  // so a handful of sweeps reach rounding level. Stop when the off-diagonal norm is negligible
  // against the whole matrix.
  for (int sweep = 0; sweep < 64; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-6 * DBL_EPSILON * DBL_EPSILON * (diag + off)) break;
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        const double apq = a[p][q];
        if (apq == 0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2 * apq);
        // The smaller root of t^2 + 2 t theta - 1 = 0 keeps the rotation angle below pi/4.
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1);
        const double s = t * c;
        a[p][p] -= t * apq;
        a[q][q] += t * apq;
        a[p][q] = a[q][p] = 0;
        const int r = 3 - p - q;
        const double arp = a[r][p];
        const double arq = a[r][q];
        a[r][p] = a[p][r] = c * arp - s * arq;
        a[r][q] = a[q][r] = s * arp + c * arq;
      }
    }
  }
  std::array<double, 3> w{a[0][0], a[1][1], a[2][2]};
  std::sort(w.begin(), w.end());
  return w;
}

LineFit fit_line(std::span<const double> x, std::span<const double> y) {
  LineFit fit;
  fit.points = std::min(x.size(), y.size());
  if (fit.points < 2) return {kNaN, kNaN, fit.points};
  const auto n = static_cast<double>(fit.points);
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < fit.points; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < fit.points; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx == 0) return {kNaN, kNaN, fit.points};
  fit.slope = sxy / sxx;
  fit.intercept = my - fit.slope * mx;
  return fit;
}

MinimumImage::MinimumImage(const core::Frame& frame) : box_(frame.box), periodic_(frame.has_box()) {}

void MinimumImage::apply(double& dx, double& dy, double& dz) const {
  if (!periodic_) return;
  const auto& a = box_[0];
  const auto& b = box_[1];
  const auto& c = box_[2];
  if (c[2] != 0) {
    const double s = std::nearbyint(dz / c[2]);
    dx -= s * c[0];
    dy -= s * c[1];
    dz -= s * c[2];
  }
  if (b[1] != 0) {
    const double s = std::nearbyint(dy / b[1]);
    dx -= s * b[0];
    dy -= s * b[1];
  }
  if (a[0] != 0) dx -= a[0] * std::nearbyint(dx / a[0]);
}

std::optional<Dims> parse_dims(const std::string& text) {
  Dims d;
  d.name = text;
  d.use = {false, false, false};
  if (text.empty() || text.size() > 3) return std::nullopt;
  for (const char c : text) {
    if (c < 'x' || c > 'z') return std::nullopt;
    auto& flag = d.use[static_cast<std::size_t>(c - 'x')];
    if (flag) return std::nullopt;
    flag = true;
  }
  // Only the canonical order (as MDAnalysis spells them): "xz", not "zx".
  static const std::vector<std::string> known{"xyz", "xy", "xz", "yz", "x", "y", "z"};
  if (std::find(known.begin(), known.end(), text) == known.end()) return std::nullopt;
  d.count = static_cast<int>(text.size());
  return d;
}

double* AtomHistory::append() {
  data_.resize(data_.size() + 3 * atoms_);
  ++frames_;
  return frame(frames_ - 1);
}

FrameSpacing frame_spacing(std::span<const double> times) {
  FrameSpacing s;
  if (times.size() < 2) return s;
  const double span = times.back() - times.front();
  if (!(span > 0)) {
    s.warning = "the frames carry no increasing time; lag times are in frames";
    return s;
  }
  s.has_time = true;
  s.dt = span / static_cast<double>(times.size() - 1);
  for (std::size_t i = 1; i < times.size(); ++i) {
    if (std::abs(times[i] - times[i - 1] - s.dt) > 1e-6 * s.dt) {
      s.warning = "frames are not evenly spaced in time (frame " + std::to_string(i) +
                  "); lag times assume the mean spacing " + std::to_string(s.dt);
      break;
    }
  }
  return s;
}

}  // namespace molstep::analysis
