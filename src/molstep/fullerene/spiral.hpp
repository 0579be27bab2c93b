// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

// Fowler-Manolopoulos face spirals. A spiral orders the N/2+2 faces of C_N so that each face
// after the first touches the one before it and the earliest face that still has a free
// edge; its name is N and the 1-based positions of the 12 pentagons in that order, e.g.
// C60-Ih is 60:1,7,9,11,13,15,18,20,22,24,26,32. On the dual, faces are vertices.

/// A spiral name: C_atoms with pentagons at these 1-based spiral positions, increasing.
struct Spiral {
  int atoms = 0;
  std::array<int, 12> pentagons{};
  bool operator==(const Spiral&) const = default;
};

/// Winds the spiral up into the dual it names. Vertex k is the face at spiral position k+1;
/// vertex 0 lists 1, 2, ... in that order (the spiral turns clockwise). Throws molstep::Error
/// for an odd N, N < 20, N = 22, N > 65534, positions out of 1..N/2+2 or not increasing, and
/// "spiral N:... does not close to a fullerene: why" when the faces do not fit together.
[[nodiscard]] Triangulation triangulation_from_spiral(int n_atoms, const std::array<int, 12>& pentagons);

/// The pentagon positions of the spiral that starts at face `first`, goes on to its neighbour
/// `second` and then turns clockwise (or anticlockwise) around `first`; nullopt when that
/// spiral runs into itself before it has visited every face. Throws molstep::Error when
/// `second` is not a neighbour of `first`. triangulation_from_spiral(N, p) gives p back from
/// spiral_from(t, 0, 1, true). Precondition: validate(t) passes. O(N).
[[nodiscard]] std::optional<std::array<int, 12>> spiral_from(const Triangulation& t, int first, int second,
                                                             bool clockwise);

/// The canonical spiral, the standard isomer name: the lexicographically smallest pentagon
/// vector over every start (face, first neighbour, both turning senses), so a fullerene and
/// its mirror image share it. nullopt for the rare fullerenes without any face spiral (none
/// below C380; they would need spirals with jumps, which molstep does not implement).
/// A start is dropped as soon as its pentagons fall behind the best so far. Precondition:
/// validate(t) passes. O(N^2) at worst, about O(N) in practice.
[[nodiscard]] std::optional<std::array<int, 12>> canonical_spiral(const Triangulation& t);

/// Reads "60:1,7,9,11,13,15,18,20,22,24,26,32"; also "C60:" and blanks around the numbers,
/// which may be separated by commas or blanks. Checks the syntax and that there are 12
/// positions; triangulation_from_spiral checks the rest. Throws molstep::Error otherwise.
[[nodiscard]] Spiral parse_spiral(std::string_view text);

/// Writes "60:1,7,9,11,13,15,18,20,22,24,26,32".
[[nodiscard]] std::string format_spiral(const Spiral& spiral);

}  // namespace molstep::fullerene
