// SPDX-License-Identifier: MIT
#include "molstep/md/thermo.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <regex>

#include "molstep/core/error.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md {

namespace {

const std::map<std::string, std::string>& headers() {
  static const std::map<std::string, std::string> h = {
      {"step", "Step"},     {"elapsed", "Elapsed"}, {"time", "Time"},     {"dt", "Dt"},         {"atoms", "Atoms"},
      {"temp", "Temp"},     {"press", "Press"},     {"pe", "PotEng"},     {"ke", "KinEng"},     {"etotal", "TotEng"},
      {"evdwl", "E_vdwl"},  {"epair", "E_pair"},    {"emol", "E_mol"},    {"vol", "Volume"},    {"density", "Density"},
      {"lx", "Lx"},         {"ly", "Ly"},           {"lz", "Lz"},         {"xlo", "Xlo"},       {"xhi", "Xhi"},
      {"ylo", "Ylo"},       {"yhi", "Yhi"},         {"zlo", "Zlo"},       {"zhi", "Zhi"},       {"pxx", "Pxx"},
      {"pyy", "Pyy"},       {"pzz", "Pzz"},         {"pxy", "Pxy"},       {"pxz", "Pxz"},       {"pyz", "Pyz"},
  };
  return h;
}

bool is_integer_column(const std::string& k) { return k == "step" || k == "elapsed" || k == "atoms"; }

}  // namespace

const std::vector<std::string>& Thermo::keywords() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> v;
    for (const auto& [key, _] : headers()) v.push_back(key);
    return v;
  }();
  return k;
}

void Thermo::set_columns(const std::vector<std::string>& columns) {
  for (const auto& c : columns)
    if (!headers().count(c)) {
      std::string known;
      for (const auto& k : keywords()) known += (known.empty() ? "" : " ") + k;
      throw Error("unknown thermo keyword '" + c + "' (known: " + known + ")");
    }
  if (columns.empty()) throw Error("thermo_style custom needs at least one keyword");
  columns_ = columns;
}

void Thermo::set_float_format(const std::string& format) {
  static const std::regex ok("%[-+ 0#]*[0-9]*(\\.[0-9]+)?[eEfgG]");
  if (!std::regex_match(format, ok))
    throw Error("thermo_modify format float: expected one printf conversion such as %12.8g, got '" + format + "'");
  float_format_ = format;
}

std::string Thermo::header() const {
  std::string h;
  for (const auto& c : columns_) h += headers().at(c) + " ";
  return h;
}

std::optional<double> Thermo::value(const std::string& k, const ThermoState& st) const {
  const System& s = st.system;
  const auto& u = s.units;
  const double natoms = static_cast<double>(s.atoms.size());
  const bool normalise = norm.value_or(u.thermo_normalise) && natoms > 0;
  const double per = normalise ? 1.0 / natoms : 1.0;
  const double volume = s.box.volume();
  const auto kinetic_tensor = [&](int a, int b) {
    double sum = 0.0;
    const std::vector<double>* v[3] = {&s.atoms.vx, &s.atoms.vy, &s.atoms.vz};
    for (std::size_t i = 0; i < s.atoms.size(); ++i) sum += s.mass_of(i) * (*v[a])[i] * (*v[b])[i];
    return sum * u.mvv2e;
  };
  const auto pressure_component = [&](int a, int b, int vindex) {
    return (kinetic_tensor(a, b) + st.pair.virial[vindex]) / volume * u.nktv2p;
  };
  const auto kinetic = [&] { return temperature(s) * 0.5 * temperature_dof(s) * u.boltz * per; };
  if (k == "step") return static_cast<double>(st.step);
  if (k == "elapsed") return static_cast<double>(st.step - st.run_start);
  if (k == "time") return st.elapsed_time;
  if (k == "dt") return st.dt;
  if (k == "atoms") return natoms;
  if (k == "temp") return temperature(s);
  if (k == "press") {
    const double ideal = temperature_dof(s) * u.boltz * temperature(s);
    return (ideal + st.pair.virial[0] + st.pair.virial[1] + st.pair.virial[2]) / 3.0 / volume * u.nktv2p;
  }
  if (k == "pe" || k == "evdwl" || k == "epair") return st.pair.energy * per;
  if (k == "emol") return 0.0;
  if (k == "ke") return kinetic();
  if (k == "etotal") return st.pair.energy * per + kinetic();
  if (k == "vol") return volume;
  if (k == "density") {
    double m = 0.0;
    for (std::size_t i = 0; i < s.atoms.size(); ++i) m += s.mass_of(i);
    // LAMMPS: mass / volume times mv2d (1 in lj units, g/cm^3 from g/mol/A^3 in metal units).
    return u.name == "lj" ? m / volume : m / volume / 0.602214129;
  }
  if (k == "lx") return s.box.length(0);
  if (k == "ly") return s.box.length(1);
  if (k == "lz") return s.box.length(2);
  if (k == "xlo") return s.box.lo[0];
  if (k == "xhi") return s.box.hi[0];
  if (k == "ylo") return s.box.lo[1];
  if (k == "yhi") return s.box.hi[1];
  if (k == "zlo") return s.box.lo[2];
  if (k == "zhi") return s.box.hi[2];
  if (k == "pxx") return pressure_component(0, 0, 0);
  if (k == "pyy") return pressure_component(1, 1, 1);
  if (k == "pzz") return pressure_component(2, 2, 2);
  if (k == "pxy") return pressure_component(0, 1, 3);
  if (k == "pxz") return pressure_component(0, 2, 4);
  if (k == "pyz") return pressure_component(1, 2, 5);
  return std::nullopt;
}

std::vector<double> Thermo::values(const ThermoState& state) const {
  std::vector<double> v;
  v.reserve(columns_.size());
  for (const auto& c : columns_) v.push_back(*value(c, state));
  return v;
}

std::string Thermo::row(const std::vector<double>& values) const {
  std::string line;
  char buf[128];
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (is_integer_column(columns_[c])) {
      line += fmt::format("{:8d} ", static_cast<long long>(values[c]));
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      std::snprintf(buf, sizeof buf, float_format_.c_str(), values[c]);
#pragma GCC diagnostic pop
      line += buf;
      line += ' ';
    }
  }
  return line;
}

}  // namespace molstep::md
