// SPDX-License-Identifier: MIT
#pragma once

// What molstep's built-in queries share: parameter and selection handling, the summary entry,
// output files and plots (QueryBase), per-frame time series, histograms, unit names and
// physical constants, and the small numerical tools (3x3 eigenvalues, line fit, minimum image,
// time-lag averages) several queries need. Keeping them here gives every query the same file
// layout and the same summary fields.

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "molstep/analysis/csv.hpp"
#include "molstep/analysis/query.hpp"
#include "molstep/core/plot_png.hpp"

namespace molstep::analysis {

// ---------------------------------------------------------------------------------------------
// Constants. Sources: CODATA 2018 (exact SI values where marked) and LAMMPS src/update.cpp.
namespace constants {
/// Boltzmann constant, J/K (exact in the 2019 SI).
inline constexpr double kBoltzmannSI = 1.380649e-23;
/// Molar gas constant R = N_A k_B, J/(mol K) (exact: 6.02214076e23 * 1.380649e-23).
inline constexpr double kGasConstant = 8.31446261815324;
/// 1 e*angstrom in debye: e * 1e-10 m / (1e-21 C m / c) = 1.602176634 * 2.99792458 (exact).
inline constexpr double kDebyePerEAngstrom = 1.602176634 * 2.99792458;
/// 1 u per cubic angstrom in g/cm^3: the atomic mass constant 1.66053906660e-24 g (CODATA 2018)
/// over 1e-24 cm^3; masses in g/mol are read as u, as gmx density does.
inline constexpr double kGramPerCm3PerUPerA3 = 1.66053906660;
/// 1 angstrom^2/ps in units of 1e-5 cm^2/s (1e-16 cm^2 / 1e-12 s = 1e-4 cm^2/s).
inline constexpr double kDiffusion1e5Cm2PerSPerA2PerPs = 10.0;
}  // namespace constants

/// Names of the units of a source's unit system ("real", "metal", "gromacs", "lj"), for CSV
/// comments and the summary. Frames hold lengths in angstrom and times in ps for every system
/// but lj (core::Frame), so only the energy differs between real, metal and gromacs.
struct UnitNames {
  std::string system;
  std::string length;    ///< "A" or "sigma"
  std::string time;      ///< "ps" or "tau"
  std::string mass;      ///< "g/mol" or "m"
  std::string energy;    ///< "kcal/mol", "eV", "kJ/mol" or "epsilon"
  double boltz = 1.0;    ///< k_B in energy/K (1 in lj)
  bool reduced = false;  ///< lj: no conversion to SI units applies
};
/// Throws molstep::Error for an unknown system, listing the known ones.
UnitNames unit_names(const std::string& system);

// ---------------------------------------------------------------------------------------------
/// Base of the built-in queries. A query's constructor reads its parameters through a Params
/// (the registry checks afterwards that every given key was used) and records the value it
/// settled on for each (defaults included) with note(), so the summary says exactly what was
/// computed.
class QueryBase : public Query {
 protected:
  explicit QueryBase(const QuerySpec& spec);

  /// Resolves parameter `key` (or `fallback`) as a selection name or inline expression and
  /// notes it with its atom count. `need_atoms`: an empty selection is an error.
  int selection_param(Params& params, QueryContext& context, const std::string& key, const std::string& fallback,
                      bool need_atoms);
  /// Notes a parameter value for the summary.
  void note(const std::string& key, nlohmann::json value) { parameters_[key] = std::move(value); }
  /// A remark for the summary ("warnings"), e.g. when a result is less reliable than usual.
  void warn(const std::string& message);
  /// Throws molstep::Error prefixed with the query as written.
  [[noreturn]] void fail(const std::string& message) const;

  /// Writes `dir/<label><suffix>.csv`; the first comment line names the query.
  void write_table(const QueryOutput& out, const std::string& suffix, const std::vector<CsvColumn>& columns,
                   const std::vector<std::string>& comments = {});
  /// Writes `dir/<label><suffix>.png` when plotting was asked for; a plot without any finite
  /// point is skipped with a warning rather than failing the run.
  void write_plot(const QueryOutput& out, const std::string& suffix, core::PlotSpec spec);
  /// Fills the summary entry: kind, spec, parameters, frames, files, results and warnings.
  void publish(const QueryOutput& out, std::size_t frames, nlohmann::json results) const;

  [[nodiscard]] const std::string& kind() const { return kind_; }
  [[nodiscard]] const std::string& spec_text() const { return spec_text_; }

 private:
  std::string kind_;
  std::string spec_text_;
  nlohmann::json parameters_ = nlohmann::json::object();
  std::vector<std::string> warnings_;
  std::vector<std::string> files_;
};

// ---------------------------------------------------------------------------------------------
/// Mean, population standard deviation (divided by n, as a fluctuation <x^2> - <x>^2), minimum
/// and maximum of a series; NaN for an empty one.
struct SeriesStats {
  double mean = 0, stddev = 0, min = 0, max = 0;
  [[nodiscard]] nlohmann::json json() const;
};
SeriesStats series_stats(std::span<const double> values);

/// `v` for the summary: JSON has no NaN or infinity, so an undefined value is written as null.
nlohmann::json finite_or_null(double v);

/// Per-frame values of a query: frame index, step, time and named columns.
class TimeSeries {
 public:
  explicit TimeSeries(std::vector<std::string> names);
  void add(const FrameData& data, std::span<const double> values);
  [[nodiscard]] std::size_t frames() const { return time_.size(); }
  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
  [[nodiscard]] const std::vector<double>& column(std::size_t c) const { return values_[c]; }
  [[nodiscard]] const std::vector<double>& times() const { return time_; }
  /// Columns frame, step, time, then the named columns.
  [[nodiscard]] std::vector<CsvColumn> table() const;
  /// {name: {mean, std, min, max}} for every column.
  [[nodiscard]] nlohmann::json statistics() const;
  /// A line plot of the columns `which` (all when empty) against time.
  [[nodiscard]] core::PlotSpec plot(const std::string& title, const std::string& xlabel, const std::string& ylabel,
                                    const std::vector<std::size_t>& which = {}) const;

 private:
  std::vector<std::string> names_;
  std::vector<std::int64_t> index_, step_;
  std::vector<double> time_;
  std::vector<std::vector<double>> values_;
};

/// Equal-width bins on [lo, hi) with weights, counting what falls outside.
class Histogram {
 public:
  Histogram(double lo, double hi, std::size_t bins);
  void add(double x, double weight = 1.0);
  [[nodiscard]] std::size_t bins() const { return sums_.size(); }
  [[nodiscard]] double width() const { return width_; }
  [[nodiscard]] double lower(std::size_t i) const { return lo_ + width_ * static_cast<double>(i); }
  [[nodiscard]] double upper(std::size_t i) const { return lo_ + width_ * static_cast<double>(i + 1); }
  [[nodiscard]] double centre(std::size_t i) const { return lo_ + width_ * (static_cast<double>(i) + 0.5); }
  [[nodiscard]] const std::vector<double>& sums() const { return sums_; }
  [[nodiscard]] double below() const { return below_; }  ///< weight at x < lo
  [[nodiscard]] double above() const { return above_; }  ///< weight at x >= hi (or NaN)

 private:
  double lo_, width_;
  std::vector<double> sums_;
  double below_ = 0, above_ = 0;
};

/// Lower edges, upper edges and centres of `bins` bins of `width` starting at 0.
struct BinEdges {
  std::vector<double> lo, hi, mid;
};
BinEdges bin_edges(std::size_t bins, double width);

// ---------------------------------------------------------------------------------------------
/// Eigenvalues of a symmetric 3x3 matrix, ascending (cyclic Jacobi rotations, accurate to a
/// few ulps of the largest eigenvalue).
std::array<double, 3> symmetric_eigenvalues(std::array<std::array<double, 3>, 3> a);

/// Least-squares line y = slope x + intercept through the points (unweighted).
struct LineFit {
  double slope = 0, intercept = 0;
  std::size_t points = 0;
};
LineFit fit_line(std::span<const double> x, std::span<const double> y);

/// Minimum-image displacements in a frame's box. Orthorhombic boxes are exact; triclinic boxes
/// (GROMACS convention: a along x, b in the xy plane) are reduced along c, b, then a, which is
/// exact for displacements shorter than half the shortest box height; without a box the
/// displacement is unchanged.
class MinimumImage {
 public:
  explicit MinimumImage(const core::Frame& frame);
  void apply(double& dx, double& dy, double& dz) const;

 private:
  std::array<std::array<double, 3>, 3> box_{};
  bool periodic_ = false;
};

/// Cartesian components a query uses: "xyz" (default), "xy", "xz", "yz", "x", "y" or "z", as
/// MDAnalysis EinsteinMSD's msd_type.
struct Dims {
  std::string name = "xyz";
  std::array<bool, 3> use{true, true, true};
  int count = 3;
};
std::optional<Dims> parse_dims(const std::string& text);

/// Per-atom 3-vectors of one selection for every frame (positions or velocities), F x N x 3.
/// Both MSD and VACF keep the whole history: F * N * 3 doubles.
class AtomHistory {
 public:
  explicit AtomHistory(std::size_t atoms) : atoms_(atoms) {}
  /// Appends a frame; returns a pointer to its N x 3 block to fill.
  double* append();
  [[nodiscard]] std::size_t frames() const { return frames_; }
  [[nodiscard]] std::size_t atoms() const { return atoms_; }
  [[nodiscard]] const double* frame(std::size_t f) const { return data_.data() + f * 3 * atoms_; }
  [[nodiscard]] double* frame(std::size_t f) { return data_.data() + f * 3 * atoms_; }

  /// For every lag tau = 0 .. F-1: the average over time origins t0 = 0 .. F-1-tau and atoms of
  /// term(a, b), with a and b an atom's vectors at t0 and t0 + tau. Each lag is summed in one
  /// fixed order, so results do not depend on the number of threads.
  template <class Term>
  [[nodiscard]] std::vector<double> lag_average(Term term) const;

 private:
  std::size_t atoms_;
  std::size_t frames_ = 0;
  std::vector<double> data_;
};

template <class Term>
std::vector<double> AtomHistory::lag_average(Term term) const {
  const std::size_t f = frames();
  std::vector<double> result(f, 0.0);
  if (atoms_ == 0) return result;
  const auto lags = static_cast<long>(f);
  // Lag tau costs (F - tau) N terms; dynamic scheduling balances the triangle.
#pragma omp parallel for schedule(dynamic, 1)
  for (long tau = 0; tau < lags; ++tau) {
    const auto lag = static_cast<std::size_t>(tau);
    double sum = 0;
    for (std::size_t t0 = 0; t0 + lag < f; ++t0) {
      const double* a = frame(t0);
      const double* b = frame(t0 + lag);
      for (std::size_t i = 0; i < atoms_; ++i) sum += term(a + 3 * i, b + 3 * i);
    }
    result[lag] = sum / (static_cast<double>(f - lag) * static_cast<double>(atoms_));
  }
  return result;
}

/// Time step between frames for lag times: (t_last - t_first) / (F - 1). A warning is added when
/// the frames are not evenly spaced (within 1e-6 relative) or carry no time (then the lag unit
/// is frames and dt = 1).
struct FrameSpacing {
  double dt = 1.0;
  bool has_time = false;
  std::string warning;  ///< empty when the spacing is uniform
};
FrameSpacing frame_spacing(std::span<const double> times);

}  // namespace molstep::analysis
