// SPDX-License-Identifier: MIT
#include <functional>

#include "molstep/md/potentials/eam.hpp"
#include "molstep/md/potentials/lj.hpp"
#include "molstep/md/potentials/pair.hpp"

namespace molstep::md::potentials {

namespace {

struct PairEntry {
  const char* name;
  std::function<std::unique_ptr<PairStyle>()> make;
};

const std::vector<PairEntry>& pair_table() {
  static const std::vector<PairEntry> table = {
      {"lj/cut", [] { return std::make_unique<PairLjCut>(); }},
      {"eam", [] { return std::make_unique<PairEam>(); }},
      {"eam/alloy", [] { return std::make_unique<PairEamAlloy>(); }},
      {"eam/comd", [] { return std::make_unique<PairEamComd>(); }},
  };
  return table;
}

}  // namespace

std::unique_ptr<PairStyle> make_pair_style(const std::string& style, const core::ArgReader& args) {
  std::string known;
  for (const auto& e : pair_table()) {
    if (style == e.name) return e.make();
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  args.fail("unknown pair_style '" + style + "' (known: " + known + ")");
}

}  // namespace molstep::md::potentials
