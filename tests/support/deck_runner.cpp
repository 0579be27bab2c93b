// SPDX-License-Identifier: MIT
#include "support/deck_runner.hpp"

#include <fstream>
#include <map>
#include <stdexcept>

#include "molstep/md/script/interpreter.hpp"
#include "support/paths.hpp"

namespace molstep::test {

std::vector<nlohmann::json> run_deck(const std::filesystem::path& deck, const std::filesystem::path& workdir,
                                     const std::vector<std::pair<std::string, std::vector<std::string>>>& vars,
                                     std::filesystem::path thermo_file, bool on_gpu) {
  const auto jsonl = std::filesystem::absolute(thermo_file.empty() ? workdir / "thermo.jsonl" : thermo_file);
  {
    ScopedCwd cwd(workdir);
    md::Output out(nullptr, std::nullopt, jsonl);
    md::Simulation sim(out);
    if (on_gpu) sim.device = md::Device::cuda;
    md::script::Interpreter interp(sim, out);
    for (const auto& [name, values] : vars) interp.vars.define_index(name, values);
    interp.run_file(std::filesystem::absolute(deck));
    sim.finish();
  }
  std::vector<nlohmann::json> rows;
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

PeerThermo load_peer_thermo(const std::filesystem::path& json) {
  static const std::map<std::string, std::string> names = {
      {"Step", "step"}, {"Temp", "temp"}, {"PotEng", "pe"},  {"KinEng", "ke"},     {"TotEng", "etotal"},
      {"Press", "press"}, {"Volume", "vol"}, {"E_pair", "epair"}, {"E_mol", "emol"}};
  std::ifstream in(json);
  if (!in) throw std::runtime_error("cannot read " + json.string());
  const auto j = nlohmann::json::parse(in);
  PeerThermo t;
  for (const auto& c : j.at("columns")) t.columns.push_back(names.at(c.get<std::string>()));
  for (const auto& r : j.at("rows")) t.rows.push_back(r.get<std::vector<double>>());
  return t;
}

}  // namespace molstep::test
