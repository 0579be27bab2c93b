// SPDX-License-Identifier: MIT
#include "molstep/analysis/setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "molstep/core/args.hpp"
#include "molstep/core/elements.hpp"
#include "molstep/core/error.hpp"

namespace molstep::analysis {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

void read_query_file(const std::filesystem::path& path, AnalysisSetup& setup) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("cannot open query file '{}'", path.string()));
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line = trim(line);
    if (line.empty()) continue;
    const SourceLoc loc{path.string(), lineno};
    try {
      if (line.rfind("select ", 0) == 0) {
        const auto eq = line.find('=');
        if (eq == std::string::npos) throw Error("expected 'select NAME = EXPRESSION'");
        const auto name = trim(line.substr(7, eq - 7));
        const auto expr = trim(line.substr(eq + 1));
        if (name.empty() || expr.empty()) throw Error("expected 'select NAME = EXPRESSION'");
        setup.selections.emplace_back(name, expr);
      } else {
        setup.queries.push_back(parse_query_spec(line));
      }
    } catch (const Error& e) {
      throw Error(loc, e.message());
    }
  }
}

std::map<int, double> parse_type_table(const std::string& text, const std::string& what) {
  std::map<int, double> table;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto comma = std::min(text.find(',', pos), text.size());
    const auto item = trim(text.substr(pos, comma - pos));
    const auto eq = item.find('=');
    long long type = 0;
    double value = 0;
    if (eq == std::string::npos || !core::parse_integer(item.substr(0, eq), type) || type < 1 ||
        !core::parse_double(item.substr(eq + 1), value)) {
      throw Error(fmt::format("{}: expected TYPE=VALUE[,TYPE=VALUE...] with types from 1, found '{}'", what, item));
    }
    table[static_cast<int>(type)] = value;
    pos = comma + 1;
  }
  return table;
}

AtomProperties atom_properties(core::Topology& topology, std::size_t natoms, const AnalysisSetup& setup) {
  AtomProperties p;
  auto from_types = [&](const std::map<int, double>& table, const std::string& what) {
    if (topology.type.size() != natoms) {
      throw Error(fmt::format("--type-{} needs atom types; load them with --top (a LAMMPS data file) or read a "
                              "LAMMPS dump with a type column",
                              what));
    }
    std::vector<double> v(natoms);
    for (std::size_t i = 0; i < natoms; ++i) {
      const auto it = table.find(topology.type[i]);
      if (it == table.end()) {
        throw Error(fmt::format("--type-{} gives no value for type {} (atom {})", what, topology.type[i], i + 1));
      }
      v[i] = it->second;
    }
    return v;
  };
  if (!setup.type_mass.empty()) {
    p.mass = from_types(setup.type_mass, "mass");
    p.mass_source = "--type-mass";
  } else if (topology.mass.size() == natoms) {
    p.mass = topology.mass;
    p.mass_source = "topology";
  } else if (topology.name.size() == natoms || topology.element.size() == natoms) {
    topology.mass.clear();
    core::guess_masses(topology);
    p.mass = topology.mass;
    p.mass_source = "guessed from elements";
  } else {
    p.mass.assign(natoms, 1.0);
    p.mass_source = "none known: all 1";
  }
  if (!setup.type_charge.empty()) {
    p.charge = from_types(setup.type_charge, "charge");
    p.charge_source = "--type-charge";
  } else if (topology.charge.size() == natoms) {
    p.charge = topology.charge;
    p.charge_source = "topology";
  } else {
    p.charge.assign(natoms, 0.0);
    p.charge_source = "none known: all 0";
  }
  return p;
}

std::unique_ptr<Network> build_network(core::Topology topology, const core::Frame& first, const AnalysisSetup& setup,
                                       nlohmann::json& summary) {
  const std::size_t natoms = first.natoms();
  auto props = atom_properties(topology, natoms, setup);
  summary["masses"] = props.mass_source;
  summary["charges"] = props.charge_source;
  // Queries that read per-atom data (density of mass or charge, molecular dipoles) take masses
  // and charges from the topology: give it the resolved ones.
  topology.mass = props.mass;
  topology.charge = props.charge;
  SelectionSet selections(std::move(topology), natoms);
  for (const auto& [name, expr] : setup.selections) selections.define(name, expr);
  if (setup.queries.empty()) throw Error("no queries: give at least one --query (or a query file)");
  NetworkOptions options{setup.queries, setup.gpu, setup.units, std::move(props.mass), std::move(props.charge),
                         setup.partition};
  return std::make_unique<Network>(std::move(selections), first, std::move(options));
}

}  // namespace molstep::analysis
