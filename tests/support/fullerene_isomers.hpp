// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <vector>

#include "molstep/fullerene/graph.hpp"

namespace molstep::test {

/// The first `limit` isomers of C_atoms in the generator's order (all of them if there are
/// fewer), as dual triangulations.
[[nodiscard]] std::vector<fullerene::Triangulation> first_isomers(int atoms, std::size_t limit);

/// Every `stride`-th of the first `limit` isomers (starting with the first).
[[nodiscard]] std::vector<fullerene::Triangulation> every_nth_isomer(int atoms, std::size_t limit, std::size_t stride);

}  // namespace molstep::test
