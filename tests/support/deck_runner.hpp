// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace molstep::test {

/// Runs a deck in-process with `workdir` as the working directory (so the deck's relative
/// inputs and outputs resolve there) and returns its thermo rows, read back from the JSON-lines
/// copy written to `thermo_file` (default: workdir/thermo.jsonl).
std::vector<nlohmann::json> run_deck(const std::filesystem::path& deck, const std::filesystem::path& workdir,
                                     const std::vector<std::pair<std::string, std::vector<std::string>>>& vars = {},
                                     std::filesystem::path thermo_file = {}, bool on_gpu = false);

/// A LAMMPS log's thermo table as stored by tests/data/lammps/parse_log.py (NAME.thermo.json).
struct PeerThermo {
  std::vector<std::string> columns;  ///< molstep keywords (step, temp, pe, ...)
  std::vector<std::vector<double>> rows;
};
PeerThermo load_peer_thermo(const std::filesystem::path& json);

}  // namespace molstep::test
