// SPDX-License-Identifier: MIT
// Commands that set up forces, neighbours, integration and output, and `run`.
#include <fmt/format.h>

#include <filesystem>

#include "molstep/analysis/setup.hpp"
#include "molstep/io/lammps_dump.hpp"
#include "molstep/io/trajectory.hpp"
#include "molstep/md/integrators/fix.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "molstep/md/trajectory_dump.hpp"

namespace molstep::md::script {

namespace {

void cmd_pair_style(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 1) a.expect_count(1, 1, "STYLE args...");
  auto pair = potentials::make_pair_style(a.at(0, "style"), a);
  if (a.at(0, "style").rfind("eam", 0) == 0 && in.sim.system.units.name != "metal")
    a.fail("EAM potential files are in metal units (eV, Angstrom): use 'units metal'");
  const core::ArgReader settings(a.command() + " " + a.at(0, "style"),
                                 std::vector<std::string>(a.words().begin() + 1, a.words().end()), a.loc());
  pair->settings(settings);
  in.sim.pair = std::move(pair);
}

void cmd_pair_coeff(Interpreter& in, const core::ArgReader& a) {
  if (!in.sim.pair) a.fail("no pair_style defined yet");
  if (!in.sim.system.box_defined) a.fail("no simulation box yet (atom types are defined with the box)");
  std::vector<std::string> w = a.words();
  long long i = 0, j = 0;
  // LAMMPS accepts "pair_coeff 2 1 ..." and means "1 2".
  if (w.size() >= 2 && core::parse_integer(w[0], i) && core::parse_integer(w[1], j) && i > j) std::swap(w[0], w[1]);
  in.sim.pair->coeff(core::ArgReader(a.command(), w, a.loc()), in.sim.system.ntypes);
  // Styles whose files carry masses (EAM) set them, as LAMMPS does.
  for (const auto& [type, mass] : in.sim.pair->type_masses()) {
    in.sim.system.mass[static_cast<std::size_t>(type)] = mass;
    in.sim.system.mass_set[static_cast<std::size_t>(type)] = true;
  }
}

void cmd_pair_modify(Interpreter& in, const core::ArgReader& a) {
  if (a.size() == 0 || a.size() % 2 != 0) a.fail("usage: pair_modify shift yes|no | mix geometric|arithmetic|sixthpower ...");
  auto& m = in.sim.pair_modify;
  for (std::size_t k = 0; k < a.size(); k += 2) {
    const std::string& key = a.at(k, "keyword");
    const std::string& val = a.at(k + 1, "value of " + key);
    if (key == "shift") {
      m.shift = a.yes_no(k + 1, "shift");
    } else if (key == "mix") {
      if (val == "geometric") m.mix = potentials::PairModify::Mix::geometric;
      else if (val == "arithmetic") m.mix = potentials::PairModify::Mix::arithmetic;
      else if (val == "sixthpower") m.mix = potentials::PairModify::Mix::sixthpower;
      else a.fail("mix must be geometric, arithmetic or sixthpower, got '" + val + "'");
    } else if (key == "tail") {
      if (a.yes_no(k + 1, "tail")) a.fail("tail corrections are not supported");
    } else {
      a.fail("unknown keyword '" + key + "' (known: shift, mix, tail)");
    }
  }
}

void cmd_neighbor(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(2, 2, "SKIN bin");
  const double skin = a.number(0, "the skin");
  if (skin < 0.0) a.fail("skin must not be negative");
  if (a.at(1, "style") != "bin") a.fail("unsupported neighbour style '" + a.at(1, "style") + "' (known: bin)");
  in.sim.neighbor.settings.skin = skin;
}

void cmd_neigh_modify(Interpreter& in, const core::ArgReader& a) {
  if (a.size() == 0 || a.size() % 2 != 0) a.fail("usage: neigh_modify every N delay N check yes|no");
  auto& s = in.sim.neighbor.settings;
  for (std::size_t k = 0; k < a.size(); k += 2) {
    const std::string& key = a.at(k, "keyword");
    if (key == "every") {
      const long long v = a.integer(k + 1, "every");
      if (v < 1) a.fail("every must be at least 1");
      s.every = static_cast<int>(v);
    } else if (key == "delay") {
      const long long v = a.integer(k + 1, "delay");
      if (v < 0) a.fail("delay must not be negative");
      s.delay = static_cast<int>(v);
    } else if (key == "check") {
      s.check = a.yes_no(k + 1, "check");
    } else {
      a.fail("unknown keyword '" + key + "' (known: every, delay, check)");
    }
  }
}

void cmd_fix(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 3) a.expect_count(3, 3, "ID all STYLE args...");
  if (a.at(1, "group") != "all") a.fail("only group 'all' is supported, got '" + a.at(1, "group") + "'");
  const std::string& id = a.at(0, "ID");
  const core::ArgReader rest(a.command() + " " + a.at(2, "style"),
                             std::vector<std::string>(a.words().begin() + 3, a.words().end()), a.loc());
  auto fix = integrators::make_fix(id, a.at(2, "style"), rest);
  auto& fixes = in.sim.fixes;
  for (auto& f : fixes)
    if (f->id() == id) {
      f = std::move(fix);
      return;
    }
  fixes.push_back(std::move(fix));
}

void cmd_unfix(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "ID");
  auto& fixes = in.sim.fixes;
  const auto it = std::find_if(fixes.begin(), fixes.end(), [&](const auto& f) { return f->id() == a.at(0, "ID"); });
  if (it == fixes.end()) a.fail("no fix with ID '" + a.at(0, "ID") + "'");
  fixes.erase(it);
}

void cmd_timestep(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "DT");
  const double dt = a.number(0, "the timestep");
  if (!(dt > 0.0)) a.fail("timestep must be positive");
  in.sim.timestep = dt;
}

void cmd_thermo(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "N");
  const long long n = a.integer(0, "the interval");
  if (n < 0) a.fail("interval must not be negative");
  in.sim.thermo.every = static_cast<int>(n);
}

void cmd_thermo_style(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 1) a.expect_count(1, 1, "one | custom KEYWORD...");
  const std::string& style = a.at(0, "style");
  if (style == "one") {
    a.expect_count(1, 1, "one");
    in.sim.thermo.set_columns({"step", "temp", "epair", "emol", "etotal", "press"});
  } else if (style == "custom") {
    in.sim.thermo.set_columns(std::vector<std::string>(a.words().begin() + 1, a.words().end()));
  } else {
    a.fail("unsupported style '" + style + "' (known: one, custom)");
  }
}

void cmd_thermo_modify(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 2) a.fail("usage: thermo_modify norm yes|no | format float FMT");
  for (std::size_t k = 0; k < a.size();) {
    const std::string& key = a.at(k, "keyword");
    if (key == "norm") {
      in.sim.thermo.norm = a.yes_no(k + 1, "norm");
      k += 2;
    } else if (key == "format") {
      if (a.at(k + 1, "format kind") != "float")
        a.fail("only 'format float FMT' is supported, got format '" + a.at(k + 1, "format kind") + "'");
      in.sim.thermo.set_float_format(a.at(k + 2, "the float format"));
      k += 3;
    } else {
      a.fail("unknown keyword '" + key + "' (known: norm, format)");
    }
  }
}

void cmd_dump(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 5) a.fail("usage: dump ID all custom|xtc|dcd|xyz N FILE [field...]");
  if (a.at(1, "group") != "all") a.fail("only group 'all' is supported, got '" + a.at(1, "group") + "'");
  const std::string& id = a.at(0, "ID");
  for (const auto& d : in.sim.dumps)
    if (d->id() == id) a.fail("a dump with ID '" + id + "' already exists (undump it first)");
  const std::string& style = a.at(2, "style");
  const long every = static_cast<long>(a.integer(3, "the interval"));
  if (style == "custom") {
    if (a.size() < 6) a.fail("usage: dump ID all custom N FILE field...");
    in.sim.dumps.push_back(std::make_unique<io::CustomDump>(
        id, every, a.at(4, "file"), std::vector<std::string>(a.words().begin() + 5, a.words().end())));
    return;
  }
  const auto format = io::format_from_name(style);
  if (!format || *format == io::TrajectoryFormat::trr || *format == io::TrajectoryFormat::lammps_dump) {
    a.fail("unsupported dump style '" + style + "' (known: custom, xtc, dcd, xyz)");
  }
  a.expect_count(5, 5, "ID all " + style + " N FILE");
  in.sim.dumps.push_back(std::make_unique<TrajectoryDump>(id, every, a.at(4, "file"), *format, in.sim.dt()));
}

// analyze ID N [select NAME "EXPR"]... [out DIR] [plot yes|no] [device cpu|cuda] QUERY...
void cmd_analyze(Interpreter& in, const core::ArgReader& a) {
  if (a.size() < 3) a.fail("usage: analyze ID N [select NAME \"EXPR\"]... [out DIR] [plot yes|no] QUERY...");
  const std::string& id = a.at(0, "ID");
  for (const auto& x : in.sim.analyses)
    if (x->id() == id) a.fail("an analysis with ID '" + id + "' already exists");
  const long every = static_cast<long>(a.integer(1, "the interval"));
  analysis::AnalysisSetup setup;
  setup.units = in.sim.system.units.name;
  setup.gpu = in.sim.device == Device::cuda;
  std::filesystem::path out = "analysis." + id;
  bool plot = false;
  try {
    for (std::size_t k = 2; k < a.size(); ++k) {
      const std::string& w = a.at(k, "keyword");
      if (w == "select") {
        const std::string& name = a.at(++k, "NAME after select");
        setup.selections.emplace_back(name, a.at(++k, "an expression after select " + name + " (quote it)"));
      } else if (w == "out") {
        out = a.at(++k, "directory after out");
      } else if (w == "plot") {
        plot = a.yes_no(++k, "plot");
      } else if (w == "device") {
        const std::string& d = a.at(++k, "cpu or cuda after device");
        if (d != "cpu" && d != "cuda") a.fail("device must be cpu or cuda, found '" + d + "'");
        setup.gpu = d == "cuda" && in.sim.device == Device::cuda;
      } else {
        setup.queries.push_back(analysis::parse_query_spec(w));
      }
    }
    in.sim.analyses.push_back(std::make_unique<InSituAnalysis>(id, every, std::move(setup), out, plot));
  } catch (const Error& e) {
    if (!e.loc().file.empty()) throw;
    a.fail(e.message());
  }
}

void cmd_undump(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "ID");
  auto& dumps = in.sim.dumps;
  const auto it = std::find_if(dumps.begin(), dumps.end(), [&](const auto& d) { return d->id() == a.at(0, "ID"); });
  if (it == dumps.end()) a.fail("no dump with ID '" + a.at(0, "ID") + "'");
  (*it)->commit();
  dumps.erase(it);
}

void cmd_run(Interpreter& in, const core::ArgReader& a) {
  a.expect_count(1, 1, "N");
  const long long n = a.integer(0, "the number of steps");
  if (n < 0) a.fail("the number of steps must not be negative");
  in.sim.run(static_cast<long>(n));
}

}  // namespace

const std::vector<CommandEntry>& run_commands() {
  static const std::vector<CommandEntry> table = {
      {"pair_style", cmd_pair_style},     {"pair_coeff", cmd_pair_coeff},     {"pair_modify", cmd_pair_modify},
      {"neighbor", cmd_neighbor},         {"neigh_modify", cmd_neigh_modify}, {"fix", cmd_fix},
      {"unfix", cmd_unfix},               {"timestep", cmd_timestep},         {"thermo", cmd_thermo},
      {"thermo_style", cmd_thermo_style}, {"thermo_modify", cmd_thermo_modify}, {"dump", cmd_dump},
      {"undump", cmd_undump},             {"run", cmd_run},                   {"analyze", cmd_analyze},
  };
  return table;
}

}  // namespace molstep::md::script
