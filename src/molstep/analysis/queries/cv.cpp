// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/cv.hpp"

namespace molstep::analysis {

namespace {

// The base constructor needs the columns, which depend on `method`; peek without consuming.
// The temperature method needs no column of its own: the base records "temp".
std::vector<std::string> cv_columns(const QuerySpec& spec) {
  const auto it = spec.params.find("method");
  if (it != spec.params.end() && it->second == "temperature") return {};
  return {"energy"};
}

}  // namespace

CvQuery::CvQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : FluctuationQuery(spec, context, params, cv_columns(spec)) {
  const std::string method = params.get_string("method", "energy");
  if (method != "energy" && method != "temperature")
    fail("method must be energy or temperature, found '" + method + "'");
  energy_method_ = method == "energy";
  note("method", method);
  const auto& scalars = context.first_frame.scalars;
  if (energy_method_) {
    if (params.has("energy")) {
      energy_ = params.get_string("energy");
      if (!scalars.contains(energy_)) fail("the source has no scalar '" + energy_ + "'");
    } else if (scalars.contains("etotal")) {
      energy_ = "etotal";
    } else if (!scalars.contains("pe") || !scalars.contains("ke")) {
      fail("method=energy needs the total energy: a scalar 'etotal', or 'pe' and 'ke' (the source has neither)");
    }
    note("energy", energy_.empty() ? "pe + ke" : energy_);
    scale_ = params.get_double("scale", 1.0);
    note("scale", scale_);
    comments_.push_back("energy in " + units().energy + (scale_ != 1.0 ? " (times scale)" : "") +
                        "; Cv = Var(energy) / (k_B T^2), k_B = " + format_double(units().boltz) + " " + units().energy +
                        "/K");
  } else {
    if (!has_temperature_series()) fail("method=temperature needs the scalar 'temp' in the source");
    nmol_ = params.get_integer("nmol");
    ndf_ = params.get_integer("ndf");
    if (nmol_ < 1 || ndf_ < 1) fail("nmol and ndf must be positive");
    note("nmol", nmol_);
    note("ndf", ndf_);
    comments_.push_back("T in K; Cv = 3 R T^2 / (2 T^2 - nmol ndf Var(T)) (GROMACS g_energy, NVE)");
  }
}

void CvQuery::sample(const FrameData& data, std::span<double> values) {
  if (!energy_method_) return;
  const double e = energy_.empty() ? scalar(data, "pe") + scalar(data, "ke") : scalar(data, energy_);
  values[0] = scale_ * e;
}

nlohmann::json CvQuery::results(double temperature) {
  // The energy, or for the temperature method the temperature (the base's last column).
  const auto stats = series_stats(series().column(energy_method_ ? 0 : series().names().size() - 1));
  const double variance = stats.stddev * stats.stddev;
  const double t2 = temperature * temperature;
  nlohmann::json r = nlohmann::json::object();
  if (energy_method_) {
    const double kb = units().boltz;
    const double cv = variance / (kb * t2);
    const double per_atom_kb = cv / kb / static_cast<double>(natoms());
    r["ensemble"] = "canonical (NVT)";
    r["energy_variance"] = variance;
    r["cv"] = cv;
    r["cv_unit"] = units().energy + "/K";
    r["cv_over_kB"] = cv / kb;
    r["cv_per_atom_over_kB"] = per_atom_kb;
    if (!units().reduced) r["cv_J_per_mol_atoms_K"] = per_atom_kb * constants::kGasConstant;
  } else {
    const auto n = static_cast<double>(nmol_);
    const auto df = static_cast<double>(ndf_);
    const double denominator = 2 * t2 - n * df * variance;
    r["ensemble"] = "microcanonical (NVE)";
    r["temperature_variance"] = variance;
    r["gromacs_factor"] = n * df * variance / (3 * t2);
    // Per molecule in units of k_B; R converts to J/(mol K) per mole of molecules.
    const double general = df * t2 / denominator;
    const double gromacs = 3 * t2 / denominator;
    r["cv_per_molecule_over_kB"] = general;
    r["cv_gromacs_over_kB"] = gromacs;
    if (!units().reduced) {
      r["cv_J_per_mol_K"] = general * constants::kGasConstant;
      r["cv_gromacs_J_per_mol_K"] = gromacs * constants::kGasConstant;
    }
    if (!(denominator > 0)) warn("2 T^2 <= nmol ndf Var(T): the temperature fluctuates more than NVE allows");
  }
  return r;
}

std::string CvQuery::plot_ylabel() const {
  return energy_method_ ? "energy (" + units().energy + ")" : "temperature (K)";
}

}  // namespace molstep::analysis
