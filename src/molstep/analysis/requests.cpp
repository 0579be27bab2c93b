// SPDX-License-Identifier: MIT
#include <algorithm>

#include "molstep/analysis/query.hpp"

namespace molstep::analysis {

int Requests::moments(int selection) {
  const auto it = std::find(moment_selections_.begin(), moment_selections_.end(), selection);
  if (it != moment_selections_.end()) return static_cast<int>(it - moment_selections_.begin());
  moment_selections_.push_back(selection);
  return static_cast<int>(moment_selections_.size()) - 1;
}

int Requests::pairs(const PairSpec& spec) {
  const auto it = std::find(pair_specs_.begin(), pair_specs_.end(), spec);
  if (it != pair_specs_.end()) return static_cast<int>(it - pair_specs_.begin());
  pair_specs_.push_back(spec);
  return static_cast<int>(pair_specs_.size()) - 1;
}

}  // namespace molstep::analysis
