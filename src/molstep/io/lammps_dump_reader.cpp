// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_dump_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "molstep/core/error.hpp"
#include "molstep/io/read_ahead_reader.hpp"
#include "molstep/io/text_lines.hpp"

namespace molstep::io {

namespace {

// What one column of an ITEM: ATOMS line feeds.
enum class Col : std::uint8_t { skip, id, type, px, py, pz, ix, iy, iz, vx, vy, vz, fx, fy, fz, mass, q, mol, element };

enum class PosKind { unwrapped, scaled_unwrapped, wrapped, scaled };

struct Layout {
  std::string header;  // the ITEM: ATOMS line it came from
  std::vector<Col> cols;
  std::vector<std::string> names;
  PosKind pos = PosKind::wrapped;
  bool id = false, type = false, images = false, vel = false, force = false, mass = false, q = false, mol = false,
       element = false;
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

class LammpsDumpReader final : public ReadAheadReader {
 public:
  LammpsDumpReader(const std::filesystem::path& path, double dt) : ReadAheadReader(path), in_(path), dt_(dt) {
    if (!read_ahead()) in_.fail_at(1, "empty file: expected 'ITEM: TIMESTEP' of frame 0");
  }

  [[nodiscard]] std::size_t natoms() const override { return natoms_; }
  [[nodiscard]] core::Topology topology() const override { return topology_; }

 private:
  [[noreturn]] void fail(const std::string& what) const { in_.fail(fmt::format("frame {}: {}", frame_, what)); }

  // The next line, which must exist; `what` says what the file should have had there.
  std::string_view need_line(const std::string& what) {
    std::string_view line;
    if (!in_.next(line))
      in_.fail_at(in_.line_number() + 1, fmt::format("frame {}: file ends where {} was expected", frame_, what));
    return line;
  }

  std::string_view need_item(std::string_view item) {
    const std::string_view line = need_line(fmt::format("'{}'", item));
    if (!starts_with(line, item)) fail(fmt::format("expected '{}', found {}", item, excerpt(line)));
    return line;
  }

  // Parses exactly `n` numbers of a line into v.
  void numbers(std::string_view line, double* v, int n, const char* what) {
    std::string_view rest = line, field;
    int k = 0;
    for (; k < n && next_field(rest, field); ++k)
      if (!parse_number(field, v[k])) fail(fmt::format("expected a number in {}, found {}", what, excerpt(field)));
    if (k < n || next_field(rest, field))
      fail(fmt::format("expected {} numbers ({}), found {}", n, what, excerpt(line)));
  }

  void read_box(std::string_view item, core::Frame& frame) {
    std::string_view rest = item.substr(std::string_view("ITEM: BOX BOUNDS").size()), field;
    bool triclinic = false, general = false;
    while (next_field(rest, field)) {
      if (field == "xy") triclinic = true;
      if (field == "abc") general = true;
    }
    double v[3][4] = {};
    if (general) {
      for (int d = 0; d < 3; ++d) numbers(need_line("a box line"), v[d], 4, "box vector and origin");
      for (int d = 0; d < 3; ++d) {
        for (int k = 0; k < 3; ++k) frame.box[static_cast<std::size_t>(d)][static_cast<std::size_t>(k)] = v[d][k];
        origin_[static_cast<std::size_t>(d)] = v[d][3];
      }
      return;
    }
    const int per_line = triclinic ? 3 : 2;
    const char* what = triclinic ? "box bounds lo hi tilt" : "box bounds lo hi";
    for (int d = 0; d < 3; ++d) numbers(need_line("a box bounds line"), v[d], per_line, what);
    // Triclinic dumps give the bounding box of the tilted cell; LAMMPS's Howto_triclinic
    // page says how to get the cell's own bounds back.
    const double xy = v[0][2], xz = v[1][2], yz = v[2][2];
    const double xlo = v[0][0] - std::min({0.0, xy, xz, xy + xz});
    const double xhi = v[0][1] - std::max({0.0, xy, xz, xy + xz});
    const double ylo = v[1][0] - std::min(0.0, yz);
    const double yhi = v[1][1] - std::max(0.0, yz);
    frame.box = {{{xhi - xlo, 0, 0}, {xy, yhi - ylo, 0}, {xz, yz, v[2][1] - v[2][0]}}};
    origin_ = {xlo, ylo, v[2][0]};
  }

  void set_layout(std::string_view item) {
    if (item == layout_.header && !layout_.cols.empty()) return;
    Layout l;
    l.header = item;
    std::string_view rest = item.substr(std::string_view("ITEM: ATOMS").size()), field;
    while (next_field(rest, field)) l.names.emplace_back(field);
    const auto has = [&](const char* a, const char* b, const char* c) {
      const auto in = [&](const char* n) { return std::find(l.names.begin(), l.names.end(), n) != l.names.end(); };
      return in(a) && in(b) && in(c);
    };
    std::array<const char*, 3> pos_names{};
    if (has("xu", "yu", "zu")) l.pos = PosKind::unwrapped, pos_names = {"xu", "yu", "zu"};
    else if (has("xsu", "ysu", "zsu")) l.pos = PosKind::scaled_unwrapped, pos_names = {"xsu", "ysu", "zsu"};
    else if (has("x", "y", "z")) l.pos = PosKind::wrapped, pos_names = {"x", "y", "z"};
    else if (has("xs", "ys", "zs")) l.pos = PosKind::scaled, pos_names = {"xs", "ys", "zs"};
    else fail("the ITEM: ATOMS line has no positions (x y z, xu yu zu, xs ys zs or xsu ysu zsu): " + excerpt(item));
    l.images = (l.pos == PosKind::wrapped || l.pos == PosKind::scaled) && has("ix", "iy", "iz");
    l.vel = has("vx", "vy", "vz");
    l.force = has("fx", "fy", "fz");
    for (const auto& n : l.names) {
      Col c = Col::skip;
      if (n == pos_names[0]) c = Col::px;
      else if (n == pos_names[1]) c = Col::py;
      else if (n == pos_names[2]) c = Col::pz;
      else if (n == "id") c = Col::id, l.id = true;
      else if (n == "type") c = Col::type, l.type = true;
      else if (l.images && n == "ix") c = Col::ix;
      else if (l.images && n == "iy") c = Col::iy;
      else if (l.images && n == "iz") c = Col::iz;
      else if (l.vel && n == "vx") c = Col::vx;
      else if (l.vel && n == "vy") c = Col::vy;
      else if (l.vel && n == "vz") c = Col::vz;
      else if (l.force && n == "fx") c = Col::fx;
      else if (l.force && n == "fy") c = Col::fy;
      else if (l.force && n == "fz") c = Col::fz;
      else if (n == "mass") c = Col::mass, l.mass = true;
      else if (n == "q") c = Col::q, l.q = true;
      else if (n == "mol") c = Col::mol, l.mol = true;
      else if (n == "element") c = Col::element, l.element = true;
      l.cols.push_back(c);
    }
    if (l.id && std::count(l.names.begin(), l.names.end(), "id") > 1) fail("the ITEM: ATOMS line names id twice");
    layout_ = std::move(l);
  }

  bool read_frame(core::Frame& frame) override {
    std::string_view line;
    do {
      if (!in_.next(line)) return false;
    } while (trim(line).empty());
    bool have_time = false;
    double time = 0;
    while (!starts_with(line, "ITEM: TIMESTEP")) {
      if (starts_with(line, "ITEM: UNITS")) {
        need_line("the units");
      } else if (starts_with(line, "ITEM: TIME")) {
        const std::string_view t = trim(need_line("the time"));
        if (!parse_number(t, time)) fail("expected the time after ITEM: TIME, found " + excerpt(t));
        have_time = true;
      } else {
        fail("expected 'ITEM: TIMESTEP', found " + excerpt(line));
      }
      line = need_line("'ITEM: TIMESTEP'");
    }
    const std::string_view step_text = trim(need_line("the timestep"));
    std::int64_t step = 0;
    if (!parse_int(step_text, step)) fail("expected the timestep (an integer), found " + excerpt(step_text));
    need_item("ITEM: NUMBER OF ATOMS");
    const std::string_view count_text = trim(need_line("the number of atoms"));
    std::int64_t count = 0;
    if (!parse_int(count_text, count) || count < 0) fail("expected the number of atoms, found " + excerpt(count_text));
    const bool first = frame_ == 0;
    if (first) natoms_ = static_cast<std::size_t>(count);
    else if (static_cast<std::size_t>(count) != natoms_)
      fail(fmt::format("number of atoms changed from {} to {} (a trajectory needs a fixed number of atoms)", natoms_,
                       count));
    read_box(need_item("ITEM: BOX BOUNDS"), frame);
    set_layout(need_item("ITEM: ATOMS"));
    read_atoms(frame, first);
    frame.step = step;
    frame.time = have_time ? time : static_cast<double>(step) * dt_;
    frame.scalars.clear();
    frame.scalars["xlo"] = origin_[0];
    frame.scalars["ylo"] = origin_[1];
    frame.scalars["zlo"] = origin_[2];
    ++frame_;
    return true;
  }

  void read_atoms(core::Frame& frame, bool first) {
    const Layout& l = layout_;
    const std::size_t n = natoms_;
    frame.resize(n);
    if (l.vel) frame.resize_velocities(n);
    else frame.vx.clear(), frame.vy.clear(), frame.vz.clear();
    if (l.force) frame.resize_forces(n);
    else frame.fx.clear(), frame.fy.clear(), frame.fz.clear();
    ids_.resize(l.id ? n : 0);
    for (auto& im : image_) im.assign(l.images ? n : 0, 0);
    if (first) {
      topology_ = {};
      if (l.type) topology_.type.resize(n);
      if (l.mass) topology_.mass.resize(n);
      if (l.q) topology_.charge.resize(n);
      if (l.mol) topology_.resid.resize(n);
      if (l.element) topology_.element.resize(n);
    }
    double* const targets[] = {nullptr, nullptr, nullptr, frame.x.data(), frame.y.data(), frame.z.data(),
                               nullptr, nullptr, nullptr, frame.vx.data(), frame.vy.data(), frame.vz.data(),
                               frame.fx.data(), frame.fy.data(), frame.fz.data()};
    const std::size_t ncols = l.cols.size();
    for (std::size_t i = 0; i < n; ++i) {
      std::string_view line;
      if (!in_.next(line))
        in_.fail_at(in_.line_number() + 1,
                    fmt::format("frame {}: file ends where atom line {} of {} was expected", frame_, i + 1, n));
      std::string_view rest = line, field;
      std::size_t k = 0;
      for (; k < ncols && next_field(rest, field); ++k) {
        const Col c = l.cols[k];
        switch (c) {
          case Col::skip:
            break;
          case Col::px: case Col::py: case Col::pz: case Col::vx: case Col::vy: case Col::vz:
          case Col::fx: case Col::fy: case Col::fz:
            if (!parse_number(field, targets[static_cast<int>(c)][i])) bad_field(i, k, "a number", field);
            break;
          case Col::id:
            if (!parse_int(field, ids_[i])) bad_field(i, k, "an integer", field);
            break;
          case Col::ix: case Col::iy: case Col::iz:
            if (!parse_int(field, image_[static_cast<int>(c) - static_cast<int>(Col::ix)][i]))
              bad_field(i, k, "an integer", field);
            break;
          case Col::type:
            if (first && !parse_int(field, topology_.type[i])) bad_field(i, k, "an integer", field);
            break;
          case Col::mol:
            if (first && !parse_int(field, topology_.resid[i])) bad_field(i, k, "an integer", field);
            break;
          case Col::mass:
            if (first && !parse_number(field, topology_.mass[i])) bad_field(i, k, "a number", field);
            break;
          case Col::q:
            if (first && !parse_number(field, topology_.charge[i])) bad_field(i, k, "a number", field);
            break;
          case Col::element:
            if (first) topology_.element[i] = field;
            break;
        }
      }
      if (k < ncols || next_field(rest, field))
        fail(fmt::format("atom line {} has {} columns, but ITEM: ATOMS names {} ({})", i + 1,
                         k < ncols ? k : ncols + 1 + count_fields(rest), ncols, excerpt(l.header)));
    }
    to_cartesian(frame);
    sort_by_id(frame, first);
  }

  static std::size_t count_fields(std::string_view rest) {
    std::size_t k = 0;
    for (std::string_view f; next_field(rest, f);) ++k;
    return k;
  }

  [[noreturn]] void bad_field(std::size_t atom, std::size_t col, const char* what, std::string_view field) const {
    fail(fmt::format("atom line {}: expected {} for {} (column {}), found {}", atom + 1, what, layout_.names[col], col + 1,
                     excerpt(field)));
  }

  // Scaled positions to cartesian, image flags applied, then relative to the box origin.
  void to_cartesian(core::Frame& frame) {
    const auto& b = frame.box;
    const bool scaled = layout_.pos == PosKind::scaled || layout_.pos == PosKind::scaled_unwrapped;
    const std::size_t n = frame.natoms();
    for (std::size_t i = 0; i < n; ++i) {
      double r[3] = {frame.x[i], frame.y[i], frame.z[i]};
      if (scaled) {
        const double s[3] = {r[0], r[1], r[2]};
        for (std::size_t d = 0; d < 3; ++d) r[d] = origin_[d] + s[0] * b[0][d] + s[1] * b[1][d] + s[2] * b[2][d];
      }
      if (layout_.images) {
        const double m[3] = {static_cast<double>(image_[0][i]), static_cast<double>(image_[1][i]),
                             static_cast<double>(image_[2][i])};
        for (std::size_t d = 0; d < 3; ++d) r[d] += m[0] * b[0][d] + m[1] * b[1][d] + m[2] * b[2][d];
      }
      frame.x[i] = r[0] - origin_[0];
      frame.y[i] = r[1] - origin_[1];
      frame.z[i] = r[2] - origin_[2];
    }
  }

  // Puts atoms in id order. Serial LAMMPS runs often write them sorted already, and ids are
  // usually 1..N, so the common cases avoid a sort.
  void sort_by_id(core::Frame& frame, bool first) {
    if (!layout_.id) return;
    const std::size_t n = ids_.size();
    bool sorted = true;
    for (std::size_t i = 1; i < n && sorted; ++i) sorted = ids_[i - 1] < ids_[i];
    if (sorted) return;
    // dest[i]: where the atom on line i goes.
    dest_.resize(n);
    const auto [lo, hi] = std::minmax_element(ids_.begin(), ids_.end());
    if (static_cast<std::uint64_t>(*hi - *lo) == n - 1) {
      seen_.assign(n, 0);
      for (std::size_t i = 0; i < n; ++i) {
        const auto d = static_cast<std::size_t>(ids_[i] - *lo);
        if (seen_[d]++) duplicate(ids_[i]);
        dest_[i] = d;
      }
    } else {
      order_.resize(n);
      std::iota(order_.begin(), order_.end(), std::size_t{0});
      std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
      for (std::size_t r = 0; r < n; ++r) {
        if (r > 0 && ids_[order_[r]] == ids_[order_[r - 1]]) duplicate(ids_[order_[r]]);
        dest_[order_[r]] = r;
      }
    }
    for (auto* v : {&frame.x, &frame.y, &frame.z, &frame.vx, &frame.vy, &frame.vz, &frame.fx, &frame.fy, &frame.fz})
      permute(*v);
    if (first) {
      permute(topology_.type);
      permute(topology_.mass);
      permute(topology_.charge);
      permute(topology_.resid);
      permute(topology_.element);
    }
  }

  [[noreturn]] void duplicate(std::int64_t id) const {
    in_.fail(fmt::format("frame {}: atom id {} appears twice in the ATOMS section ending here", frame_, id));
  }

  template <class T>
  void permute(std::vector<T>& v) {
    if (v.empty()) return;
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[dest_[i]] = std::move(v[i]);
    v.swap(out);
  }

  TextLines in_;
  double dt_;
  std::size_t natoms_ = 0;
  std::int64_t frame_ = 0;
  Layout layout_;
  std::array<double, 3> origin_{};
  std::vector<std::int64_t> ids_;
  std::array<std::vector<int>, 3> image_;
  std::vector<std::size_t> dest_, order_;
  std::vector<unsigned char> seen_;
  core::Topology topology_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> open_lammps_dump(const std::filesystem::path& path, double dt) {
  return std::make_unique<LammpsDumpReader>(path, dt);
}

}  // namespace molstep::io
