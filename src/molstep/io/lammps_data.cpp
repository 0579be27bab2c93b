// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_data.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "molstep/core/args.hpp"
#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"

namespace molstep::io {

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::string code = line.substr(0, line.find('#'));
  std::istringstream in(code);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

class DataParser {
 public:
  explicit DataParser(const std::filesystem::path& path) : path_(path), in_(path) {
    if (!in_) throw Error("read_data: cannot open data file '" + path.string() + "'");
  }

  void parse(md::System& out) {
    read_header();
    md::System s = out;
    core::Box box;
    for (int d = 0; d < 3; ++d) {
      if (!have_bounds_[d]) fail_at(0, std::string("header has no ") + "xyz"[d] + "lo " + "xyz"[d] + "hi line");
      box.lo[d] = bounds_[d][0];
      box.hi[d] = bounds_[d][1];
    }
    if (natoms_ < 0) fail_at(0, "header has no 'atoms' line");
    if (ntypes_ < 1) fail_at(0, "header has no 'atom types' line (at least 1 type)");
    s.define_box(box, ntypes_);
    s.atoms.clear();
    bool have_atoms = false;
    std::string section = pending_section_;
    while (!section.empty()) {
      if (section == "Masses") {
        read_masses(s);
      } else if (section == "Atoms") {
        read_atoms(s);
        have_atoms = true;
      } else if (section == "Velocities") {
        if (!have_atoms) fail_at(section_line_, "Velocities section before the Atoms section");
        read_velocities(s);
      } else {
        fail_at(section_line_, "unsupported section '" + section + "' (known: Masses, Atoms, Velocities)");
      }
      section = next_section();
    }
    if (!have_atoms && natoms_ > 0) fail_at(0, "no Atoms section, but the header declares " + std::to_string(natoms_) + " atoms");
    out = std::move(s);
  }

 private:
  [[noreturn]] void fail_at(int line, const std::string& what) const {
    throw Error(SourceLoc{path_.string(), line}, "read_data: " + what);
  }

  bool getline(std::string& s) {
    if (!std::getline(in_, s)) return false;
    ++line_;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return true;
  }

  static bool is_section(const std::vector<std::string>& w) {
    static const char* names[] = {"Masses", "Atoms", "Velocities", "Pair", "PairIJ", "Bonds", "Angles", "Dihedrals",
                                  "Impropers", "Ellipsoids", "Lines", "Triangles", "Bodies"};
    if (w.empty()) return false;
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return w[0] == n; });
  }

  void read_header() {
    std::string line;
    getline(line);  // the first line is a title
    while (getline(line)) {
      const auto w = words_of(line);
      if (w.empty()) continue;
      if (is_section(w)) {
        pending_section_ = w[0] == "Pair" && w.size() > 1 ? "Pair Coeffs" : w[0];
        section_line_ = line_;
        style_hint_ = line.find('#') != std::string::npos ? words_of(line.substr(line.find('#') + 1)) : std::vector<std::string>{};
        return;
      }
      long long n = 0;
      double a = 0, b = 0;
      if (w.size() == 2 && w[1] == "atoms") {
        if (!core::parse_integer(w[0], n) || n < 0) fail_at(line_, "bad atom count '" + w[0] + "'");
        natoms_ = n;
      } else if (w.size() == 3 && w[1] == "atom" && w[2] == "types") {
        if (!core::parse_integer(w[0], n) || n < 1) fail_at(line_, "bad number of atom types '" + w[0] + "'");
        ntypes_ = static_cast<int>(n);
      } else if (w.size() == 4 && (w[2] == "xlo" || w[2] == "ylo" || w[2] == "zlo")) {
        const int d = w[2][0] - 'x';
        if (w[3] != std::string(1, w[2][0]) + "hi") fail_at(line_, "expected '" + w[2] + " " + w[2][0] + "hi'");
        if (!core::parse_double(w[0], a) || !core::parse_double(w[1], b) || !(b > a))
          fail_at(line_, "bad box bounds '" + w[0] + " " + w[1] + "' (need two numbers, lo < hi)");
        bounds_[d][0] = a;
        bounds_[d][1] = b;
        have_bounds_[d] = true;
      } else if (w.size() >= 3 && w.back() == "yz" && w[w.size() - 2] == "xz") {
        fail_at(line_, "triclinic boxes (xy xz yz) are not supported");
      } else if (w.size() >= 2 && (w[1] == "bonds" || w[1] == "angles" || w[1] == "dihedrals" || w[1] == "impropers" ||
                                   (w.size() == 3 && w[2] == "types"))) {
        if (!core::parse_integer(w[0], n) || n != 0)
          fail_at(line_, "'" + line + "': molecular topology is not supported (atom style atomic only)");
      } else {
        fail_at(line_, "unrecognised header line '" + line + "'");
      }
    }
  }

  // Returns the next section keyword, skipping blank lines, or "" at the end of the file.
  std::string next_section() {
    std::string line;
    while (getline(line)) {
      const auto w = words_of(line);
      if (w.empty()) continue;
      if (!is_section(w)) fail_at(line_, "expected a section keyword (Masses, Atoms, Velocities), found '" + line + "'");
      section_line_ = line_;
      style_hint_ = line.find('#') != std::string::npos ? words_of(line.substr(line.find('#') + 1)) : std::vector<std::string>{};
      return w[0];
    }
    return {};
  }

  // Reads `count` non-blank lines of a section, each split into words.
  template <class F>
  void section_lines(long long count, const char* name, F&& take) {
    std::string line;
    long long got = 0;
    while (got < count) {
      if (!getline(line))
        fail_at(line_, std::string(name) + " section ends after " + std::to_string(got) + " of " + std::to_string(count) +
                           " lines (file truncated?)");
      const auto w = words_of(line);
      if (w.empty()) {
        if (got == 0) continue;
        fail_at(line_, std::string(name) + ": blank line after " + std::to_string(got) + " of " + std::to_string(count) +
                           " entries");
      }
      take(w);
      ++got;
    }
  }

  double number(const std::string& s, const char* what) const {
    double v;
    if (!core::parse_double(s, v)) fail_at(line_, std::string("expected a number for ") + what + ", found '" + s + "'");
    return v;
  }
  long long integer(const std::string& s, const char* what) const {
    long long v;
    if (!core::parse_integer(s, v)) fail_at(line_, std::string("expected an integer for ") + what + ", found '" + s + "'");
    return v;
  }

  void read_masses(md::System& s) {
    section_lines(ntypes_, "Masses", [&](const std::vector<std::string>& w) {
      if (w.size() != 2) fail_at(line_, "Masses: expected 'type mass', found " + std::to_string(w.size()) + " words");
      const long long t = integer(w[0], "the atom type");
      if (t < 1 || t > ntypes_) fail_at(line_, "Masses: atom type " + w[0] + " out of range 1.." + std::to_string(ntypes_));
      const double m = number(w[1], "the mass");
      if (!(m > 0.0)) fail_at(line_, "Masses: mass must be positive, found " + w[1]);
      s.mass[static_cast<std::size_t>(t)] = m;
      s.mass_set[static_cast<std::size_t>(t)] = true;
    });
  }

  void read_atoms(md::System& s) {
    if (!style_hint_.empty() && style_hint_[0] != "atomic")
      fail_at(section_line_, "Atoms section is of style '" + style_hint_[0] + "'; only atomic is supported");
    s.atoms.clear();
    section_lines(natoms_, "Atoms", [&](const std::vector<std::string>& w) {
      if (w.size() != 5 && w.size() != 8)
        fail_at(line_, "Atoms: expected 5 or 8 columns (id type x y z [ix iy iz]), found " + std::to_string(w.size()));
      const long long id = integer(w[0], "the atom id");
      if (id < 1) fail_at(line_, "Atoms: atom id must be positive, found " + w[0]);
      const long long t = integer(w[1], "the atom type");
      if (t < 1 || t > ntypes_) fail_at(line_, "Atoms: atom type " + w[1] + " out of range 1.." + std::to_string(ntypes_));
      const double x = number(w[2], "x"), y = number(w[3], "y"), z = number(w[4], "z");
      if (!s.box.contains(x, y, z))
        fail_at(line_, fmt::format("Atoms: atom {} at ({}, {}, {}) is outside the box", id, x, y, z));
      s.atoms.add(id, static_cast<int>(t), x, y, z);
      if (w.size() == 8) {
        s.atoms.ix.back() = static_cast<int>(integer(w[5], "ix"));
        s.atoms.iy.back() = static_cast<int>(integer(w[6], "iy"));
        s.atoms.iz.back() = static_cast<int>(integer(w[7], "iz"));
      }
      if (!index_.emplace(id, s.atoms.size() - 1).second) fail_at(line_, "Atoms: duplicate atom id " + w[0]);
    });
  }

  void read_velocities(md::System& s) {
    section_lines(natoms_, "Velocities", [&](const std::vector<std::string>& w) {
      if (w.size() != 4) fail_at(line_, "Velocities: expected 4 columns (id vx vy vz), found " + std::to_string(w.size()));
      const long long id = integer(w[0], "the atom id");
      const auto it = index_.find(id);
      if (it == index_.end()) fail_at(line_, "Velocities: atom id " + w[0] + " is not in the Atoms section");
      s.atoms.vx[it->second] = number(w[1], "vx");
      s.atoms.vy[it->second] = number(w[2], "vy");
      s.atoms.vz[it->second] = number(w[3], "vz");
    });
  }

  std::filesystem::path path_;
  std::ifstream in_;
  int line_ = 0;
  long long natoms_ = -1;
  int ntypes_ = 0;
  double bounds_[3][2]{};
  bool have_bounds_[3]{};
  std::string pending_section_;
  int section_line_ = 0;
  std::vector<std::string> style_hint_;
  std::map<long long, std::size_t> index_;
};

}  // namespace

void read_lammps_data(const std::filesystem::path& path, md::System& system) { DataParser(path).parse(system); }

void write_lammps_data(const std::filesystem::path& path, const md::System& s, long step) {
  const auto& a = s.atoms;
  for (int t = 1; t <= s.ntypes; ++t)
    if (!s.mass_set[static_cast<std::size_t>(t)])
      throw Error("write_data: no mass set for atom type " + std::to_string(t) + " (use the mass command)");
  std::vector<std::size_t> order(a.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return a.id[i] < a.id[j]; });
  core::AtomicFile file(path);
  auto& out = file.stream();
  fmt::print(out, "LAMMPS data file via molstep write_data, timestep = {}, units = {}\n\n", step, s.units.name);
  fmt::print(out, "{} atoms\n{} atom types\n\n", a.size(), s.ntypes);
  for (int d = 0; d < 3; ++d) fmt::print(out, "{} {} {}lo {}hi\n", s.box.lo[d], s.box.hi[d], "xyz"[d], "xyz"[d]);
  fmt::print(out, "\nMasses\n\n");
  for (int t = 1; t <= s.ntypes; ++t) fmt::print(out, "{} {}\n", t, s.mass[static_cast<std::size_t>(t)]);
  fmt::print(out, "\nAtoms # atomic\n\n");
  // Between neighbour list builds atoms may sit slightly outside the box; the file holds them
  // wrapped, with image counts adjusted, as LAMMPS writes them.
  for (std::size_t i : order) {
    double x[3] = {a.x[i], a.y[i], a.z[i]};
    int image[3] = {a.ix[i], a.iy[i], a.iz[i]};
    for (int d = 0; d < 3; ++d) {
      const double L = s.box.length(d);
      const double shift = std::floor((x[d] - s.box.lo[d]) / L);
      if (shift != 0.0) {
        x[d] -= shift * L;
        image[d] += static_cast<int>(shift);
      }
      if (x[d] >= s.box.hi[d]) {
        x[d] -= L;
        ++image[d];
      }
      if (x[d] < s.box.lo[d]) x[d] = s.box.lo[d];
    }
    fmt::print(out, "{} {} {} {} {} {} {} {}\n", a.id[i], a.type[i], x[0], x[1], x[2], image[0], image[1], image[2]);
  }
  fmt::print(out, "\nVelocities\n\n");
  for (std::size_t i : order) fmt::print(out, "{} {} {} {}\n", a.id[i], a.vx[i], a.vy[i], a.vz[i]);
  file.commit();
}

}  // namespace molstep::io
