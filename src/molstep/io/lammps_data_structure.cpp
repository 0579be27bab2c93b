// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_data_structure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include "molstep/core/error.hpp"
#include "molstep/io/text_lines.hpp"

namespace molstep::io {

namespace {

// The part of a line before its comment.
std::string_view code_of(std::string_view line) { return line.substr(0, line.find('#')); }

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> w;
  for (std::string_view f; next_field(s, f);) w.push_back(f);
  return w;
}

// Section keywords of LAMMPS data files (read_data manual page).
bool is_section(std::string_view code) {
  static constexpr std::string_view names[] = {
      "Atoms", "Velocities", "Masses", "Ellipsoids", "Lines", "Triangles", "Bodies", "Bonds", "Angles", "Dihedrals",
      "Impropers", "Pair Coeffs", "PairIJ Coeffs", "Bond Coeffs", "Angle Coeffs", "Dihedral Coeffs",
      "Improper Coeffs", "BondBond Coeffs", "BondAngle Coeffs", "MiddleBondTorsion Coeffs", "EndBondTorsion Coeffs",
      "AngleTorsion Coeffs", "AngleAngleTorsion Coeffs", "BondBond13 Coeffs", "AngleAngle Coeffs"};
  code = trim(code);
  return std::any_of(std::begin(names), std::end(names), [&](std::string_view n) { return code == n; });
}

// Where the fields of one Atoms line are, per atom style: -1 where the style has none.
struct Style {
  std::string name;
  std::size_t columns = 0;
  int mol = -1, type = 1, q = -1, x = 2;
};

bool style_of(std::string_view name, Style& s) {
  s.name = name;
  if (name == "atomic") s.columns = 5, s.type = 1, s.x = 2;
  else if (name == "charge") s.columns = 6, s.type = 1, s.q = 2, s.x = 3;
  else if (name == "full") s.columns = 7, s.mol = 1, s.type = 2, s.q = 3, s.x = 4;
  else if (name == "molecular" || name == "bond" || name == "angle") s.columns = 6, s.mol = 1, s.type = 2, s.x = 3;
  else return false;
  return true;
}

class DataStructureParser {
 public:
  explicit DataStructureParser(const std::filesystem::path& path) : in_(path) {}

  Structure parse() {
    read_header();
    while (!section_.empty()) {
      if (section_ == "Masses") read_masses();
      else if (section_ == "Atoms") read_atoms();
      else if (section_ == "Velocities") read_velocities();
      else skip_section();
    }
    if (natoms_ < 0) in_.fail_at(0, "header has no 'atoms' line");
    if (!have_atoms_ && natoms_ > 0)
      in_.fail_at(0, fmt::format("no Atoms section, but the header declares {} atoms", natoms_));
    return finish();
  }

 private:
  // Advances to the next non-blank line; false at the end of the file.
  bool next_content(std::string_view& line) {
    while (in_.next(line))
      if (!trim(code_of(line)).empty()) return true;
    return false;
  }

  void start_section(std::string_view line) {
    section_ = trim(code_of(line));
    section_line_ = in_.line_number();
    const auto hash = line.find('#');
    hint_ = hash == std::string_view::npos ? std::string() : std::string(trim(line.substr(hash + 1)));
  }

  void read_header() {
    std::string_view line;
    if (!in_.next(line)) in_.fail_at(1, "empty file: expected the title line of a LAMMPS data file");
    while (next_content(line)) {
      const std::string_view code = code_of(line);
      if (is_section(code)) {
        start_section(line);
        return;
      }
      const auto w = words(code);
      const auto number = [&](std::size_t k) {
        double v = 0;
        if (!parse_number(w[k], v)) in_.fail(fmt::format("expected a number in the header line {}, found {}", excerpt(line), excerpt(w[k])));
        return v;
      };
      const auto count = [&]() {
        std::int64_t n = 0;
        if (!parse_int(w[0], n) || n < 0) in_.fail("expected a count in the header line, found " + excerpt(line));
        return n;
      };
      if (w.size() == 2 && w[1] == "atoms") natoms_ = count();
      else if (w.size() == 3 && w[1] == "atom" && w[2] == "types") ntypes_ = count();
      else if (w.size() == 2 && (w[1] == "bonds" || w[1] == "angles" || w[1] == "dihedrals" || w[1] == "impropers"))
        molecular_ = molecular_ || count() > 0;
      else if (w.size() == 4 && (w[2] == "xlo" || w[2] == "ylo" || w[2] == "zlo")) {
        const auto d = static_cast<std::size_t>(w[2][0] - 'x');
        lo_[d] = number(0);
        hi_[d] = number(1);
        if (!(hi_[d] > lo_[d])) in_.fail("box bounds need lo < hi: " + excerpt(line));
        have_bounds_[d] = true;
      } else if (w.size() == 6 && w[3] == "xy" && w[4] == "xz" && w[5] == "yz") {
        tilt_ = {number(0), number(1), number(2)};
      } else {
        double v = 0;
        // Other header lines (bond types, extra bond per atom, ellipsoids, ...) do not matter
        // here, but a line that does not start with a number is no header line at all.
        if (w.empty() || !parse_number(w[0], v)) in_.fail("unrecognised header line " + excerpt(line));
      }
    }
    section_.clear();
  }

  // Calls take(words) for each line of the current section, up to the next section keyword.
  template <class F>
  void section_lines(F&& take) {
    std::string_view line;
    while (next_content(line)) {
      if (is_section(code_of(line))) {
        start_section(line);
        return;
      }
      take(words(code_of(line)), line);
    }
    section_.clear();
  }

  void skip_section() {
    section_lines([](const std::vector<std::string_view>&, std::string_view) {});
  }

  void read_masses() {
    section_lines([&](const std::vector<std::string_view>& w, std::string_view line) {
      std::int64_t type = 0;
      double m = 0;
      if (w.size() < 2 || !parse_int(w[0], type) || !parse_number(w[1], m))
        in_.fail("Masses: expected 'type mass', found " + excerpt(line));
      if (type < 1 || (ntypes_ > 0 && type > ntypes_))
        in_.fail(fmt::format("Masses: atom type {} out of range 1..{}", type, ntypes_));
      masses_[type] = m;
    });
  }

  void read_atoms() {
    if (natoms_ < 0) in_.fail_at(section_line_, "Atoms section before the 'atoms' header line");
    Style style;
    const auto hint = words(hint_);
    const bool named = !hint.empty();
    if (named && !style_of(hint[0], style))
      in_.fail_at(section_line_, "Atoms section of style '" + std::string(hint[0]) +
                                     "': supported are atomic, charge, full, molecular, bond, angle");
    const auto n = static_cast<std::size_t>(natoms_);
    ids_.reserve(n);
    section_lines([&](const std::vector<std::string_view>& w, std::string_view line) {
      if (ids_.size() == n)
        in_.fail(fmt::format("Atoms: more lines than the {} atoms the header declares", n));
      if (!named && ids_.empty()) {
        const std::size_t c = w.size();
        const std::size_t base = c >= 8 ? c - 3 : c;
        const char* guess = base == 5 ? "atomic" : base == 7 ? "full" : base == 6 ? (molecular_ ? "molecular" : "charge") : "";
        if (!style_of(guess, style))
          in_.fail(fmt::format("Atoms: cannot tell the atom style from {} columns; name it after the section keyword "
                               "('Atoms # full')",
                               c));
      }
      if (w.size() != style.columns && w.size() != style.columns + 3)
        in_.fail(fmt::format("Atoms (style {}): expected {} or {} columns, found {}: {}", style.name, style.columns,
                             style.columns + 3, w.size(), excerpt(line)));
      std::int64_t id = 0, type = 0, mol = 0;
      if (!parse_int(w[0], id)) in_.fail("Atoms: expected an integer atom id, found " + excerpt(w[0]));
      if (!parse_int(w[static_cast<std::size_t>(style.type)], type) || type < 1 || (ntypes_ > 0 && type > ntypes_))
        in_.fail(fmt::format("Atoms: expected an atom type in 1..{}, found {}", ntypes_,
                             excerpt(w[static_cast<std::size_t>(style.type)])));
      if (style.mol >= 0 && !parse_int(w[static_cast<std::size_t>(style.mol)], mol))
        in_.fail("Atoms: expected an integer molecule id, found " + excerpt(w[static_cast<std::size_t>(style.mol)]));
      double q = 0, r[3];
      if (style.q >= 0 && !parse_number(w[static_cast<std::size_t>(style.q)], q))
        in_.fail("Atoms: expected a number for the charge, found " + excerpt(w[static_cast<std::size_t>(style.q)]));
      for (std::size_t d = 0; d < 3; ++d) {
        const std::string_view f = w[static_cast<std::size_t>(style.x) + d];
        if (!parse_number(f, r[d])) in_.fail(fmt::format("Atoms: expected a number for {}, found {}", "xyz"[d], excerpt(f)));
      }
      ids_.push_back(id);
      types_.push_back(static_cast<int>(type));
      mols_.push_back(mol);
      charges_.push_back(q);
      for (std::size_t d = 0; d < 3; ++d) pos_[d].push_back(r[d]);
    });
    if (ids_.size() != n)
      in_.fail_at(in_.line_number(), fmt::format("Atoms section has {} lines, but the header declares {} atoms", ids_.size(), n));
    have_atoms_ = true;
    has_charge_ = style.q >= 0;
    has_mol_ = style.mol >= 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!index_.emplace(ids_[i], i).second) in_.fail_at(section_line_, fmt::format("Atoms: duplicate atom id {}", ids_[i]));
  }

  void read_velocities() {
    if (!have_atoms_) in_.fail_at(section_line_, "Velocities section before the Atoms section");
    for (auto& v : vel_) v.assign(ids_.size(), 0.0);
    section_lines([&](const std::vector<std::string_view>& w, std::string_view line) {
      std::int64_t id = 0;
      double v[3];
      if (w.size() < 4 || !parse_int(w[0], id) || !parse_number(w[1], v[0]) || !parse_number(w[2], v[1]) ||
          !parse_number(w[3], v[2]))
        in_.fail("Velocities: expected 'id vx vy vz', found " + excerpt(line));
      const auto it = index_.find(id);
      if (it == index_.end()) in_.fail(fmt::format("Velocities: atom id {} is not in the Atoms section", id));
      for (std::size_t d = 0; d < 3; ++d) vel_[d][it->second] = v[d];
    });
  }

  Structure finish() {
    for (std::size_t d = 0; d < 3; ++d)
      if (!have_bounds_[d]) in_.fail_at(0, fmt::format("header has no {0}lo {0}hi line", "xyz"[d]));
    const std::size_t n = ids_.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
    Structure s;
    core::Frame f;
    f.box = {{{hi_[0] - lo_[0], 0, 0}, {tilt_[0], hi_[1] - lo_[1], 0}, {tilt_[1], tilt_[2], hi_[2] - lo_[2]}}};
    f.resize(n);
    const bool vel = !vel_[0].empty();
    if (vel) f.resize_velocities(n);
    auto& t = s.topology;
    t.type.resize(n);
    if (has_mol_) t.resid.resize(n);
    if (has_charge_) t.charge.resize(n);
    if (!masses_.empty()) t.mass.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = order[k];
      f.x[k] = pos_[0][i] - lo_[0];
      f.y[k] = pos_[1][i] - lo_[1];
      f.z[k] = pos_[2][i] - lo_[2];
      if (vel) f.vx[k] = vel_[0][i], f.vy[k] = vel_[1][i], f.vz[k] = vel_[2][i];
      t.type[k] = types_[i];
      if (has_mol_) t.resid[k] = mols_[i];
      if (has_charge_) t.charge[k] = charges_[i];
      if (!masses_.empty()) {
        const auto m = masses_.find(types_[i]);
        if (m == masses_.end())
          in_.fail_at(0, fmt::format("the Masses section has no mass for atom type {}", types_[i]));
        t.mass[k] = m->second;
      }
    }
    f.scalars["xlo"] = lo_[0];
    f.scalars["ylo"] = lo_[1];
    f.scalars["zlo"] = lo_[2];
    s.frame = std::move(f);
    return s;
  }

  TextLines in_;
  std::int64_t natoms_ = -1, ntypes_ = 0;
  bool molecular_ = false;
  std::array<double, 3> lo_{}, hi_{}, tilt_{};
  std::array<bool, 3> have_bounds_{};
  std::string section_, hint_;
  std::int64_t section_line_ = 0;
  bool have_atoms_ = false, has_charge_ = false, has_mol_ = false;
  std::vector<std::int64_t> ids_, mols_;
  std::vector<int> types_;
  std::vector<double> charges_;
  std::array<std::vector<double>, 3> pos_, vel_;
  std::map<std::int64_t, std::size_t> index_;
  std::map<std::int64_t, double> masses_;
};

}  // namespace

Structure read_lammps_data_structure(const std::filesystem::path& path) { return DataStructureParser(path).parse(); }

}  // namespace molstep::io
