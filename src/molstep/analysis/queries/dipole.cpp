// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/dipole.hpp"

#include <algorithm>
#include <cmath>

namespace molstep::analysis {

namespace {

std::vector<std::string> dipole_columns(bool per_residue) {
  std::vector<std::string> c{"Dx", "Dy", "Dz", "D", "D_debye"};
  if (per_residue) c.emplace_back("residue_D_mean_debye");
  return c;
}

// The column list depends on `per`, which the base constructor needs first; read it without
// consuming so that the constructor reads it again through get_string and marks it used.
bool wants_per_residue(const QuerySpec& spec) {
  const auto it = spec.params.find("per");
  return it != spec.params.end() && it->second == "residue";
}

}  // namespace

DipoleQuery::DipoleQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : MomentSeriesQuery(spec, context, params, dipole_columns(wants_per_residue(spec)),
                        params.get_string("center", "mass") == "mass") {
  const std::string center = params.get_string("center", "mass");
  if (center != "mass" && center != "origin") fail("center must be mass or origin, found '" + center + "'");
  about_mass_ = center == "mass";
  note("center", center);

  const std::string per = params.get_string("per", "none");
  if (per != "none" && per != "residue") fail("per must be none or residue, found '" + per + "'");
  per_residue_ = per == "residue";
  note("per", per);

  const long bins = params.get_integer("bins", 50);
  if (bins < 1) fail("bins must be at least 1");
  bins_ = static_cast<std::size_t>(bins);
  note("bins", bins);
  // gmx dipoles' -mumax default of 5 D bounds the molecular histogram, which is filled as the
  // frames arrive; the total dipole's histogram is built at the end from the stored series, so
  // its default range is the largest |D| seen.
  if (params.has("dmax") || per_residue_) dmax_ = params.get_double("dmax", 5.0);
  if (dmax_ && !(*dmax_ > 0)) fail("dmax must be positive");
  note("dmax_debye", dmax_ ? nlohmann::json(*dmax_) : nlohmann::json("largest |D|"));

  comments_.push_back("dipole about the " + std::string(about_mass_ ? "centre of mass" : "origin") +
                      "; Dx, Dy, Dz, D in e*A; D_debye = D * " + format_double(constants::kDebyePerEAngstrom));
  if (!per_residue_) return;

  const auto& top = context.selections.topology();
  if (top.resid.empty()) fail("per=residue needs residue numbers from a topology (GRO, PDB or LAMMPS data file)");
  if (top.charge.empty()) fail("per=residue needs per-atom charges from a topology");
  if (about_mass_ && top.mass.empty()) fail("per=residue with center=mass needs per-atom masses; or use center=origin");
  context.requests.positions();
  // A residue is a run of selected atoms with the same resid (and resname, when known).
  const auto& indices = context.selections[selection()].indices;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const auto i = indices[k];
    const bool same = k > 0 && top.resid[i] == top.resid[indices[k - 1]] &&
                      (top.resname.empty() || top.resname[i] == top.resname[indices[k - 1]]);
    if (!same) offsets_.push_back(atoms_.size());
    atoms_.push_back(i);
    charge_.push_back(top.charge[i]);
    mass_.push_back(about_mass_ ? top.mass[i] : 0.0);
  }
  offsets_.push_back(atoms_.size());
  note("residues", offsets_.size() - 1);
  residue_hist_.emplace(0.0, *dmax_, bins_);
}

void DipoleQuery::evaluate(const Moments& m, const FrameData& data, std::span<double> values) {
  double d[3];
  for (std::size_t k = 0; k < 3; ++k) {
    // sum q (r - c) = sum q r - Q c, with c = sum m r / M.
    d[k] = about_mass_ ? m.qr[k] - m.charge * m.mr[k] / m.mass : m.qr[k];
    values[k] = d[k];
  }
  values[3] = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  values[4] = values[3] * constants::kDebyePerEAngstrom;
  if (per_residue_) values[5] = residue_dipoles(data.frame);
}

double DipoleQuery::residue_dipoles(const core::Frame& frame) {
  const MinimumImage image(frame);
  const std::size_t residues = offsets_.size() - 1;
  double sum = 0;
  for (std::size_t r = 0; r < residues; ++r) {
    const auto first = atoms_[offsets_[r]];
    const double x0 = frame.x[first], y0 = frame.y[first], z0 = frame.z[first];
    // Displacements d from the first atom make the residue whole; then
    // sum q (r - c) = sum q d - Q (sum m d / M) and sum q r = sum q d + Q r_first.
    double qd[3] = {0, 0, 0}, md[3] = {0, 0, 0}, q = 0, mass = 0;
    for (std::size_t k = offsets_[r]; k < offsets_[r + 1]; ++k) {
      const auto i = atoms_[k];
      double d[3] = {frame.x[i] - x0, frame.y[i] - y0, frame.z[i] - z0};
      image.apply(d[0], d[1], d[2]);
      for (int c = 0; c < 3; ++c) {
        qd[c] += charge_[k] * d[c];
        md[c] += mass_[k] * d[c];
      }
      q += charge_[k];
      mass += mass_[k];
    }
    if (about_mass_ && q != 0 && !(mass > 0)) fail("a charged residue has no mass; use center=origin");
    const double origin[3] = {x0, y0, z0};
    double mu2 = 0;
    for (int c = 0; c < 3; ++c) {
      const double mu = about_mass_ ? (q != 0 ? qd[c] - q * md[c] / mass : qd[c]) : qd[c] + q * origin[c];
      mu2 += mu * mu;
    }
    const double debye = std::sqrt(mu2) * constants::kDebyePerEAngstrom;
    residue_hist_->add(debye);
    residue_samples_ += 1;
    sum += debye;
  }
  return residues ? sum / static_cast<double>(residues) : 0.0;
}

void DipoleQuery::finish_extra(const QueryOutput& out, nlohmann::json& results) {
  Histogram hist = [&] {
    if (per_residue_) return *residue_hist_;
    const auto& d = series().column(4);
    double top = dmax_.value_or(0.0);
    if (!dmax_) {
      // Just above the largest value so that it lands in the last bin.
      for (const double v : d) top = std::max(top, v);
      top = top > 0 ? top * (1 + 1e-12) : 1.0;
    }
    Histogram h(0.0, top, bins_);
    for (const double v : d) h.add(v);
    return h;
  }();
  const double samples = per_residue_ ? residue_samples_ : static_cast<double>(series().frames());
  std::vector<double> lo, hi, mid, pdf;
  std::vector<std::int64_t> count;
  for (std::size_t b = 0; b < hist.bins(); ++b) {
    lo.push_back(hist.lower(b));
    hi.push_back(hist.upper(b));
    mid.push_back(hist.centre(b));
    count.push_back(static_cast<std::int64_t>(hist.sums()[b]));
    pdf.push_back(samples > 0 ? hist.sums()[b] / (samples * hist.width()) : 0.0);
  }
  const std::string what = per_residue_ ? "residue dipoles |mu|" : "total dipole |D|";
  write_table(out, "_hist", {{"D_lo", lo}, {"D_hi", hi}, {"D", mid}, {"count", count}, {"pdf", pdf}},
              {"histogram of the " + what + " in debye over " + (per_residue_ ? "all residues and " : "") + "frames",
               "pdf = count / (samples * width) in 1/debye, samples including " + format_double(hist.above()) +
                   " beyond D_hi of the last bin"});
  nlohmann::json h = {{"samples", samples},
                      {"bins", hist.bins()},
                      {"dmax_debye", hist.upper(hist.bins() - 1)},
                      {"overflow", hist.above()}};
  if (per_residue_) {
    h["residues"] = offsets_.size() - 1;
    h["residue_mean_debye"] = series_stats(series().column(5)).json()["mean"];
  }
  results["histogram"] = h;
  core::PlotSpec plot{label() + ": " + what, "|D| (debye)", "probability density (1/debye)", {{"", mid, pdf}}, true};
  write_plot(out, "_hist", std::move(plot));
}

std::string DipoleQuery::plot_ylabel() const { return "dipole (debye)"; }

std::vector<std::size_t> DipoleQuery::plot_columns() const {
  if (per_residue_) return {4, 5};
  return {4};
}

}  // namespace molstep::analysis
