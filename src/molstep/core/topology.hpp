// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace molstep::core {

/// What stays fixed over a trajectory: per-atom names, residues, types, masses and charges.
/// Every non-empty vector has natoms() entries. Readers fill what their format carries;
/// guess_masses() fills masses from element names or types when a source has none.
struct Topology {
  std::vector<std::string> name;     ///< atom names ("OW", "CA"); empty if unknown
  std::vector<std::string> resname;  ///< residue names ("SOL"); empty if unknown
  std::vector<std::int64_t> resid;   ///< residue numbers as in the file
  std::vector<int> type;             ///< numeric type (LAMMPS), 1-based; empty if unknown
  std::vector<std::string> element;  ///< element symbols when known
  std::vector<double> mass;          ///< g/mol (or the source's mass unit)
  std::vector<double> charge;        ///< e

  [[nodiscard]] std::size_t natoms() const {
    for (const auto* v : {&name, &resname, &element}) {
      if (!v->empty()) return v->size();
    }
    if (!resid.empty()) return resid.size();
    if (!type.empty()) return type.size();
    if (!mass.empty()) return mass.size();
    return charge.size();
  }
};

}  // namespace molstep::core
