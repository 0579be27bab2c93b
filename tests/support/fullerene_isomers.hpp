// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "molstep/fullerene/graph.hpp"

namespace molstep::test {

/// The first `limit` isomers of C_atoms in the generator's order (all of them if there are
/// fewer), as dual triangulations.
[[nodiscard]] std::vector<fullerene::Triangulation> first_isomers(int atoms, std::size_t limit);

/// Every `stride`-th of the first `limit` isomers (starting with the first).
[[nodiscard]] std::vector<fullerene::Triangulation> every_nth_isomer(int atoms, std::size_t limit, std::size_t stride);

/// The cage of the face spiral `pentagons` (1-based positions of the 12 pentagons).
[[nodiscard]] fullerene::CubicGraph from_spiral(int atoms, const std::array<int, 12>& pentagons);

/// C20-Ih and C60-Ih (the canonical spiral 1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32).
[[nodiscard]] fullerene::CubicGraph c20();
[[nodiscard]] fullerene::CubicGraph c60();

}  // namespace molstep::test
