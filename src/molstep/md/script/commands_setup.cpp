// SPDX-License-Identifier: MIT
// Commands that build the system: units, box, lattice, atoms, masses, velocities, data files.
#include <fmt/format.h>

#include "molstep/io/lammps_data.hpp"
#include "molstep/md/lattice.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "molstep/md/velocity.hpp"

namespace molstep::md::script {

namespace {

void require_box(const Interpreter& in, const core::ArgReader& a) {
  if (!in.sim.system.box_defined) a.fail("no simulation box yet (use create_box or read_data first)");
}

void require_no_box(const Interpreter& in, const core::ArgReader& a) {
  if (in.sim.system.box_defined) a.fail("must come before the simulation box is defined");
}

void require_all(const core::ArgReader& a, std::size_t i) {
  if (a.at(i, "group") != "all") a.fail("only group 'all' is supported, got '" + a.at(i, "group") + "'");
}

void cmd_units(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "lj|metal");
  require_no_box(in, a);
  in.sim.system.units = core::unit_system(a.at(0, "style"));
  // As in LAMMPS, `units` resets the neighbour skin to the style's default.
  in.sim.neighbor.settings.skin = in.sim.system.units.skin;
}

void cmd_atom_style(Interpreter&, const core::ArgReader& a) {
  a.expect_count(1, 1, "atomic");
  if (a.at(0, "style") != "atomic") a.fail("unsupported atom style '" + a.at(0, "style") + "' (known: atomic)");
}

void cmd_boundary(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(3, 3, "p p p");
  require_no_box(in, a);
  for (std::size_t d = 0; d < 3; ++d)
    if (a.at(d, "boundary") != "p")
      a.fail("unsupported boundary '" + a.at(d, "boundary") + "' (molstep supports periodic boundaries only: p p p)");
}

void cmd_dimension(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "3");
  require_no_box(in, a);
  if (a.integer(0, "dimension") != 3) a.fail("only 3-dimensional systems are supported");
}

void cmd_newton(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 2, "on|off [on|off]");
  const auto flag = [&](std::size_t i) {
    const std::string& s = a.at(i, "flag");
    if (s != "on" && s != "off") a.fail("expected on or off, got '" + s + "'");
    return s == "on";
  };
  in.sim.neighbor.settings.newton = flag(0);
  if (a.size() == 2) flag(1);
}

void cmd_lattice(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(2, 2, "sc|bcc|fcc SCALE");
  in.sim.lattice = make_lattice(a.at(0, "style"), a.number(1, "scale"), in.sim.system.units);
  const double c = in.sim.lattice->constant;
  in.out.line(fmt::format("Lattice spacing in x,y,z = {:.8g} {:.8g} {:.8g}", c, c, c));
}

void cmd_region(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(8, 10, "ID block xlo xhi ylo yhi zlo zhi [units lattice|box]");
  if (a.at(1, "style") != "block") a.fail("unsupported region style '" + a.at(1, "style") + "' (known: block)");
  bool lattice_units = true;
  if (a.size() > 8) {
    if (a.size() != 10 || a.at(8, "keyword") != "units") a.fail("unknown keyword '" + a.at(8, "keyword") + "' (known: units)");
    const std::string& u = a.at(9, "units");
    if (u != "lattice" && u != "box") a.fail("units must be lattice or box, got '" + u + "'");
    lattice_units = u == "lattice";
  }
  if (lattice_units && !in.sim.lattice) a.fail("region in lattice units needs a lattice command first (or 'units box')");
  const double scale = lattice_units ? in.sim.lattice->constant : 1.0;
  Region r;
  for (int d = 0; d < 3; ++d) {
    const auto i = static_cast<std::size_t>(2 + 2 * d);
    r.lo[d] = scale * a.number(i, std::string(1, "xyz"[d]) + "lo");
    r.hi[d] = scale * a.number(i + 1, std::string(1, "xyz"[d]) + "hi");
    if (!(r.hi[d] > r.lo[d])) a.fail(std::string("region is empty in ") + "xyz"[d] + " (need lo < hi)");
  }
  in.sim.regions[a.at(0, "ID")] = r;
}

void cmd_create_box(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(2, 2, "NTYPES REGION-ID");
  require_no_box(in, a);
  const long long n = a.integer(0, "the number of atom types");
  if (n < 1) a.fail("the number of atom types must be at least 1");
  const auto it = in.sim.regions.find(a.at(1, "region"));
  if (it == in.sim.regions.end()) a.fail("no region with ID '" + a.at(1, "region") + "'");
  core::Box box;
  box.lo = it->second.lo;
  box.hi = it->second.hi;
  in.sim.system.define_box(box, static_cast<int>(n));
  in.out.line(fmt::format("Created orthogonal box = ({:.8g} {:.8g} {:.8g}) to ({:.8g} {:.8g} {:.8g})", box.lo[0],
                          box.lo[1], box.lo[2], box.hi[0], box.hi[1], box.hi[2]));
}

void cmd_create_atoms(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(2, 2, "TYPE box");
  require_box(in, a);
  const long long t = a.integer(0, "the atom type");
  if (t < 1 || t > in.sim.system.ntypes)
    a.fail("atom type " + a.at(0, "type") + " out of range 1.." + std::to_string(in.sim.system.ntypes));
  if (a.at(1, "style") != "box") a.fail("unsupported style '" + a.at(1, "style") + "' (known: box)");
  if (!in.sim.lattice) a.fail("needs a lattice command first");
  const auto n = create_atoms_on_lattice(*in.sim.lattice, in.sim.system.box, static_cast<int>(t), in.sim.system.atoms);
  in.out.line(fmt::format("Created {} atoms", n));
}

void cmd_mass(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(2, 2, "TYPE MASS");
  require_box(in, a);
  auto& s = in.sim.system;
  int lo, hi;
  if (!core::parse_type_range(a.at(0, "type"), s.ntypes, lo, hi))
    a.fail("bad atom type '" + a.at(0, "type") + "' (expected 1.." + std::to_string(s.ntypes) + " or a * range)");
  const double m = a.number(1, "the mass");
  if (!(m > 0.0)) a.fail("mass must be positive, got " + a.at(1, "mass"));
  for (int t = lo; t <= hi; ++t) {
    s.mass[static_cast<std::size_t>(t)] = m;
    s.mass_set[static_cast<std::size_t>(t)] = true;
  }
}

void cmd_read_data(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "FILE");
  require_no_box(in, a);
  io::read_lammps_data(a.at(0, "file"), in.sim.system);
  in.out.line(fmt::format("Read {} atoms of {} types from {}", in.sim.system.atoms.size(), in.sim.system.ntypes,
                          a.at(0, "file")));
}

void cmd_write_data(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "FILE");
  require_box(in, a);
  io::write_lammps_data(a.at(0, "file"), in.sim.system, in.sim.step);
}

void cmd_velocity(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 3) a.expect_count(3, 3, "all create T SEED [keyword value ...] | all scale T");
  require_all(a, 0);
  require_box(in, a);
  const std::string& style = a.at(1, "style");
  if (style == "scale") {
    a.expect_count(3, 3, "all scale T");
    const double t = a.number(2, "the temperature");
    if (!(t >= 0.0)) a.fail("temperature must not be negative, got " + a.at(2, "T"));
    velocity_scale(in.sim.system, t);
    return;
  }
  if (style != "create") a.fail("unsupported style '" + style + "' (known: create, scale)");
  if (a.size() < 4 || a.size() % 2 != 0) a.fail("usage: velocity all create T SEED [dist|mom|rot|loop value] ...");
  VelocityCreate o;
  o.temperature = a.number(2, "the temperature");
  if (!(o.temperature > 0.0)) a.fail("temperature must be positive");
  const long long seed = a.integer(3, "the seed");
  if (seed <= 0 || seed > 2147483646) a.fail("seed must be an integer in 1..2147483646");
  o.seed = static_cast<int>(seed);
  for (std::size_t k = 4; k < a.size(); k += 2) {
    const std::string& key = a.at(k, "keyword");
    const std::string& val = a.at(k + 1, "value of " + key);
    if (key == "dist") {
      if (val != "uniform" && val != "gaussian") a.fail("dist must be uniform or gaussian, got '" + val + "'");
      o.gaussian = val == "gaussian";
    } else if (key == "mom") {
      o.zero_momentum = a.yes_no(k + 1, "mom");
    } else if (key == "rot") {
      o.zero_rotation = a.yes_no(k + 1, "rot");
    } else if (key == "loop") {
      if (val == "all") o.loop = VelocityCreate::Loop::all;
      else if (val == "local") o.loop = VelocityCreate::Loop::local;
      else if (val == "geom") o.loop = VelocityCreate::Loop::geom;
      else a.fail("loop must be all, local or geom, got '" + val + "'");
    } else {
      a.fail("unknown keyword '" + key + "' (known: dist, mom, rot, loop)");
    }
  }
  velocity_create(in.sim.system, o);
}

}  // namespace

const std::vector<CommandEntry>& setup_commands() {
  static const std::vector<CommandEntry> table = {
      {"units", cmd_units},           {"atom_style", cmd_atom_style},     {"boundary", cmd_boundary},
      {"dimension", cmd_dimension},   {"newton", cmd_newton},             {"lattice", cmd_lattice},
      {"region", cmd_region},         {"create_box", cmd_create_box},     {"create_atoms", cmd_create_atoms},
      {"mass", cmd_mass},             {"read_data", cmd_read_data},       {"write_data", cmd_write_data},
      {"velocity", cmd_velocity},
  };
  return table;
}

}  // namespace molstep::md::script
