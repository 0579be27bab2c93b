// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "molstep/analysis/network.hpp"
#include "molstep/core/topology.hpp"

namespace molstep::analysis {

/// Everything a user says about one analysis, from the command line, a query file or a deck.
struct AnalysisSetup {
  std::vector<std::pair<std::string, std::string>> selections;  ///< NAME, EXPR in order
  std::vector<QuerySpec> queries;
  std::map<int, double> type_mass, type_charge;  ///< per-type tables (LAMMPS types)
  std::string units = "real";
  bool gpu = false;
  Partition partition;  ///< frame-parallel over MPI ranks (molstep analyze under mpirun)
};

/// Adds the selections and queries of a query file: one query spec per line
/// ("rdf:sel1=O,sel2=O,rmax=10"), "select NAME = EXPR" lines, '#' comments and blank lines.
/// Errors name the file and line.
void read_query_file(const std::filesystem::path& path, AnalysisSetup& setup);

/// Parses "1=12.011,2=15.999" (a per-type table); throws molstep::Error naming `what`.
std::map<int, double> parse_type_table(const std::string& text, const std::string& what);

/// Per-atom masses and charges for a topology: its own values, else the per-type tables, else
/// masses from the elements (named or guessed from atom names); charges default to 0 and masses
/// to 1 when nothing says otherwise. `source` says where the masses came from.
struct AtomProperties {
  std::vector<double> mass, charge;
  std::string mass_source, charge_source;
};
AtomProperties atom_properties(core::Topology& topology, std::size_t natoms, const AnalysisSetup& setup);

/// The network for `setup` over atoms described by `topology`, fed from `first` onwards.
std::unique_ptr<Network> build_network(core::Topology topology, const core::Frame& first, const AnalysisSetup& setup,
                                       nlohmann::json& summary);

}  // namespace molstep::analysis
