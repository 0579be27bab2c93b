// SPDX-License-Identifier: MIT
#include "molstep/io/xyz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "molstep/core/elements.hpp"
#include "molstep/core/error.hpp"
#include "molstep/io/read_ahead_reader.hpp"
#include "molstep/io/text_frame_writer.hpp"
#include "molstep/io/text_lines.hpp"

namespace molstep::io {

std::vector<std::pair<std::string, std::string>> parse_extxyz_comment(std::string_view line) {
  // A port of ASE's character loop: each entry is a key followed by '='-separated pieces.
  std::vector<std::vector<std::string>> pairs(1, std::vector<std::string>(1));
  char closing = 0;
  bool escaped = false;
  line = trim(line);
  for (char c : line) {
    if (escaped) {
      pairs.back().back() += c;
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (closing) {
      if (c == closing) closing = 0;
      else pairs.back().back() += c;
    } else if (c == '"' || c == '\'' || c == '{' || c == '[') {
      closing = c == '{' ? '}' : c == '[' ? ']' : c;
    } else if (c == ' ' || c == '\t') {
      if (pairs.back().size() == 1 && pairs.back().back().empty()) continue;
      if (pairs.back().back().empty()) continue;
      pairs.emplace_back(1);
    } else if (c == '=') {
      if (pairs.back().size() == 1 && pairs.back().back().empty() && pairs.size() > 1) pairs.pop_back();
      pairs.back().emplace_back();
    } else {
      pairs.back().back() += c;
    }
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : pairs) {
    if (p.size() == 1 && p[0].empty()) continue;
    if (p.size() == 1) {
      out.emplace_back(p[0], "T");
      continue;
    }
    std::string value = p[1];
    for (std::size_t i = 2; i < p.size(); ++i) value += "=" + p[i];
    out.emplace_back(p[0], value);
  }
  return out;
}

namespace {

// Columns of one frame, from its Properties string.
struct Columns {
  std::string properties;  // the string it came from, to skip re-parsing
  std::size_t count = 0;   // number of whitespace-separated fields per atom line
  int species = -1, pos = -1, vel = -1, force = -1, number = -1, mass = -1, charge = -1;
};

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

class XyzReader final : public ReadAheadReader {
 public:
  explicit XyzReader(const std::filesystem::path& path) : ReadAheadReader(path), in_(path) {
    if (!read_ahead()) in_.fail_at(1, "empty file: expected the atom count of frame 0");
  }

  [[nodiscard]] std::size_t natoms() const override { return natoms_; }
  [[nodiscard]] core::Topology topology() const override { return topology_; }

 private:
  [[noreturn]] void fail(const std::string& what) const { in_.fail(fmt::format("frame {}: {}", frame_, what)); }
  [[noreturn]] void fail_at(std::int64_t line, const std::string& what) const {
    in_.fail_at(line, fmt::format("frame {}: {}", frame_, what));
  }

  void set_columns(const std::string& properties) {
    if (properties == columns_.properties && columns_.count > 0) return;
    Columns c;
    c.properties = properties;
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
      const std::size_t colon = properties.find(':', start);
      parts.push_back(properties.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    if (parts.size() % 3 != 0) fail("Properties=" + properties + " is not a list of name:type:columns");
    for (std::size_t i = 0; i < parts.size(); i += 3) {
      const std::string& name = parts[i];
      const std::string& type = parts[i + 1];
      int n = 0;
      if (type != "R" && type != "I" && type != "S" && type != "L")
        fail("Properties=" + properties + ": unknown type '" + type + "' of " + name + " (R, I, S or L)");
      if (!parse_int(parts[i + 2], n) || n < 1)
        fail("Properties=" + properties + ": bad column count '" + parts[i + 2] + "' of " + name);
      const int col = static_cast<int>(c.count);
      const auto want = [&](int cols, const char* types) {
        if (n != cols || std::string_view(types).find(type[0]) == std::string_view::npos)
          fail(fmt::format("Properties={}: {} must be {}:{}", properties, name, types, cols));
        return col;
      };
      if (name == "species") c.species = want(1, "S");
      else if (name == "pos") c.pos = want(3, "R");
      else if (name == "vel" || name == "velo" || name == "velocities") c.vel = want(3, "R");
      else if (name == "forces" || name == "force") c.force = want(3, "R");
      else if (name == "Z") c.number = want(1, "I");
      else if (name == "masses" || name == "mass") c.mass = want(1, "RI");
      else if (name == "charges" || name == "charge") c.charge = want(1, "RI");
      c.count += static_cast<std::size_t>(n);
    }
    if (c.pos < 0) fail("Properties=" + properties + " has no pos:R:3 column");
    columns_ = std::move(c);
  }

  // Reads the comment line's keys into the frame; returns the Properties string.
  std::string read_comment(std::string_view line, core::Frame& frame) {
    frame.scalars.clear();
    frame.box = {};
    std::string properties = "species:S:1:pos:R:3";
    // LAMMPS `dump xyz` writes "Atoms. Timestep: N".
    constexpr std::string_view lammps = "Atoms. Timestep:";
    if (trim(line).substr(0, lammps.size()) == lammps) {
      std::int64_t step = 0;
      if (parse_int(trim(trim(line).substr(lammps.size())), step)) frame.step = step;
      return properties;
    }
    for (const auto& [key, value] : parse_extxyz_comment(line)) {
      if (key == "Properties") {
        properties = value;
      } else if (key == "Lattice") {
        std::string_view rest(value);
        std::string text(value);
        std::replace(text.begin(), text.end(), ',', ' ');
        rest = text;
        std::string_view field;
        double v[9];
        int n = 0;
        while (next_field(rest, field)) {
          if (n == 9 || !parse_number(field, v[n])) fail("Lattice=\"" + value + "\" is not 9 numbers");
          ++n;
        }
        if (n != 9) fail("Lattice=\"" + value + "\" is not 9 numbers");
        for (int r = 0; r < 3; ++r)
          for (int k = 0; k < 3; ++k) frame.box[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)] = v[3 * r + k];
      } else if (key == "step" || key == "Step" || key == "timestep") {
        std::int64_t s = 0;
        double d = 0;
        if (parse_int(value, s)) frame.step = s;
        else if (parse_number(value, d)) frame.step = static_cast<std::int64_t>(d);
      } else if (key == "time" || key == "Time") {
        double t = 0;
        if (parse_number(value, t)) frame.time = t;
      } else {
        double v = 0;
        if (parse_number(trim(value), v)) frame.scalars[key] = v;
      }
    }
    return properties;
  }

  bool read_frame(core::Frame& frame) override {
    std::string_view line;
    do {
      if (!in_.next(line)) return false;
    } while (trim(line).empty());
    std::int64_t count = 0;
    if (!parse_int(trim(line), count) || count < 0) fail("expected the atom count, found " + excerpt(line));
    const bool first = frame_ == 0;
    if (first) {
      natoms_ = static_cast<std::size_t>(count);
    } else if (static_cast<std::size_t>(count) != natoms_) {
      fail(fmt::format("atom count changed from {} to {} (a trajectory needs a fixed number of atoms)", natoms_, count));
    }
    frame.step = frame_;
    frame.time = 0;
    if (!in_.next(line)) fail_at(in_.line_number() + 1, "file ends where the comment line was expected");
    set_columns(read_comment(line, frame));
    const Columns& c = columns_;
    const std::size_t n = natoms_;
    frame.resize(n);
    if (c.vel >= 0) frame.resize_velocities(n);
    else frame.vx.clear(), frame.vy.clear(), frame.vz.clear();
    if (c.force >= 0) frame.resize_forces(n);
    else frame.fx.clear(), frame.fy.clear(), frame.fz.clear();
    if (first) {
      topology_ = {};
      if (c.species >= 0 || c.number >= 0) topology_.name.reserve(n);
    }
    std::vector<std::string_view> f(c.count);
    for (std::size_t i = 0; i < n; ++i) {
      if (!in_.next(line)) fail_at(in_.line_number() + 1, fmt::format("file ends after {} of {} atom lines", i, n));
      std::string_view rest = line;
      std::size_t k = 0;
      for (std::string_view field; k < c.count && next_field(rest, field); ++k) f[k] = field;
      if (k < c.count)
        fail(fmt::format("atom line {} has {} columns, expected {} (Properties={})", i + 1, k, c.count, c.properties));
      const auto number = [&](int col, const char* what) {
        double v;
        if (!parse_number(f[static_cast<std::size_t>(col)], v))
          fail(fmt::format("atom line {}: expected a number for {} (column {}), found {}", i + 1, what, col + 1,
                           excerpt(f[static_cast<std::size_t>(col)])));
        return v;
      };
      frame.x[i] = number(c.pos, "x");
      frame.y[i] = number(c.pos + 1, "y");
      frame.z[i] = number(c.pos + 2, "z");
      if (c.vel >= 0) {
        frame.vx[i] = number(c.vel, "vx");
        frame.vy[i] = number(c.vel + 1, "vy");
        frame.vz[i] = number(c.vel + 2, "vz");
      }
      if (c.force >= 0) {
        frame.fx[i] = number(c.force, "fx");
        frame.fy[i] = number(c.force + 1, "fy");
        frame.fz[i] = number(c.force + 2, "fz");
      }
      if (first) add_topology(f, i);
    }
    if (first) finish_topology();
    ++frame_;
    return true;
  }

  void add_topology(const std::vector<std::string_view>& f, std::size_t i) {
    const Columns& c = columns_;
    if (c.species >= 0) {
      topology_.name.emplace_back(f[static_cast<std::size_t>(c.species)]);
    } else if (c.number >= 0) {
      int z = 0;
      const auto* e = parse_int(f[static_cast<std::size_t>(c.number)], z) ? core::element_by_number(z) : nullptr;
      if (!e) fail(fmt::format("atom line {}: unknown atomic number {}", i + 1, excerpt(f[static_cast<std::size_t>(c.number)])));
      topology_.name.emplace_back(e->symbol);
    }
    const auto number = [&](int col) {
      double v = 0;
      if (!parse_number(f[static_cast<std::size_t>(col)], v))
        fail(fmt::format("atom line {}: expected a number in column {}, found {}", i + 1, col + 1,
                         excerpt(f[static_cast<std::size_t>(col)])));
      return v;
    };
    if (c.mass >= 0) topology_.mass.push_back(number(c.mass));
    if (c.charge >= 0) topology_.charge.push_back(number(c.charge));
  }

  // Species that are numbers are LAMMPS types; others name elements (ASE writes symbols).
  void finish_topology() {
    auto& t = topology_;
    if (t.name.empty()) return;
    if (std::all_of(t.name.begin(), t.name.end(), [](const std::string& s) { return all_digits(s); })) {
      t.type.reserve(t.name.size());
      for (const auto& s : t.name) t.type.push_back(std::stoi(s));
      return;
    }
    t.element.reserve(t.name.size());
    for (const auto& s : t.name) {
      const core::Element* e = core::find_element(s);
      t.element.push_back(e ? std::string(e->symbol) : core::guess_element(s));
    }
  }

  TextLines in_;
  std::size_t natoms_ = 0;
  std::int64_t frame_ = 0;
  Columns columns_;
  core::Topology topology_;
};

// A key can be written bare when ASE's parser reads it back as one word.
bool plain_key(const std::string& k) {
  if (k.empty() || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
  return std::all_of(k.begin(), k.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
}

class XyzWriter final : public TextFrameWriter {
 public:
  XyzWriter(const std::filesystem::path& path, std::size_t natoms, const core::Topology& t)
      : TextFrameWriter(path, natoms, "the XYZ file") {
    if (t.natoms() != 0 && t.natoms() != natoms)
      throw Error(fmt::format("{}: topology has {} atoms, but the XYZ file was opened for {}", path.string(), t.natoms(),
                              natoms));
    species_.reserve(natoms);
    for (std::size_t i = 0; i < natoms; ++i) {
      std::string s;
      if (i < t.element.size() && !t.element[i].empty()) s = t.element[i];
      else if (i < t.name.size() && !t.name[i].empty()) s = t.name[i];
      else if (i < t.type.size()) s = std::to_string(t.type[i]);
      else s = "X";
      std::replace_if(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }, '_');
      species_.push_back(std::move(s));
    }
  }

  void format_frame(const core::Frame& f, fmt::memory_buffer& out) override {
    auto it = std::back_inserter(out);
    fmt::format_to(it, "{}\n", natoms());
    if (f.has_box()) {
      const auto& b = f.box;
      fmt::format_to(it, "Lattice=\"{} {} {} {} {} {} {} {} {}\" ", b[0][0], b[0][1], b[0][2], b[1][0], b[1][1], b[1][2],
                     b[2][0], b[2][1], b[2][2]);
    }
    fmt::format_to(it, "Properties=species:S:1:pos:R:3{}{}", f.has_velocities() ? ":vel:R:3" : "",
                   f.has_forces() ? ":forces:R:3" : "");
    fmt::format_to(it, " step={} time={}", f.step, f.time);
    for (const auto& [k, v] : f.scalars) {
      if (!plain_key(k) || k == "Lattice" || k == "Properties" || k == "step" || k == "time" || k == "pbc") continue;
      fmt::format_to(it, " {}={}", k, v);
    }
    if (f.has_box()) fmt::format_to(it, " pbc=\"T T T\"");
    fmt::format_to(it, "\n");
    for (std::size_t i = 0; i < natoms(); ++i) {
      fmt::format_to(it, "{} {} {} {}", species_[i], f.x[i], f.y[i], f.z[i]);
      append_velocity_force(f, i, out);
      out.push_back('\n');
    }
  }

 private:
  std::vector<std::string> species_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> open_xyz(const std::filesystem::path& path) { return std::make_unique<XyzReader>(path); }

std::unique_ptr<TrajectoryWriter> create_xyz(const std::filesystem::path& path, std::size_t natoms,
                                             const core::Topology& topology) {
  return std::make_unique<XyzWriter>(path, natoms, topology);
}

}  // namespace molstep::io
