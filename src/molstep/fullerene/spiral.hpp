// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

// Fowler-Manolopoulos face spirals. A spiral orders the N/2+2 faces of C_N so that each face
// after the first touches the one before it and the earliest face that still has a free
// edge; its name is N and the 1-based positions of the 12 pentagons in that order, e.g.
// C60-Ih is 60:1,7,9,11,13,15,18,20,22,24,26,32. On the dual, faces are vertices.
//
// A few fullerenes (the smallest is T-C380) have no such spiral: from every start the next
// face would cut the faces still to place in two. General spirals (Wirz, Schwerdtfeger and
// Avery, Fullerenes Nanotubes Carbon Nanostruct. 26, 607 (2018)) then jump: the earliest open
// face is moved to the far end of the open boundary, as often as it takes, and the name
// records each jump as (position of the face placed next, number of faces moved) before the
// pentagons, e.g. T-C380 is 380:110,2;45,70,71,82,83,110,119,120,144,184,185,192.

/// A jump of a general spiral: before the face at 1-based spiral position `position` is
/// placed, the earliest open face is moved to the end of the boundary `length` times.
struct Jump {
  int position = 0;
  int length = 0;
  auto operator<=>(const Jump&) const = default;
};

/// A spiral name: C_atoms with pentagons at these 1-based spiral positions, increasing, and
/// the jumps taken on the way (none for a face spiral), by increasing position.
struct Spiral {
  int atoms = 0;
  std::array<int, 12> pentagons{};
  std::vector<Jump> jumps;

  Spiral() = default;
  Spiral(int atoms_, const std::array<int, 12>& pentagons_, std::vector<Jump> jumps_ = {})
      : atoms(atoms_), pentagons(pentagons_), jumps(std::move(jumps_)) {}
  bool operator==(const Spiral&) const = default;
};

/// Winds the spiral up into the dual it names. Vertex k is the face at spiral position k+1;
/// vertex 0 lists 1, 2, ... in that order (the spiral turns clockwise). Throws molstep::Error
/// for an odd N, N < 20, N = 22, N > 65534, positions out of 1..N/2+2 or not increasing,
/// jumps out of 3..N/2+1, not increasing or of length < 1, and "spiral NAME does not close to
/// a fullerene: why" when the faces do not fit together.
[[nodiscard]] Triangulation triangulation_from_spiral(const Spiral& spiral);
/// The same for a face spiral without jumps.
[[nodiscard]] Triangulation triangulation_from_spiral(int n_atoms, const std::array<int, 12>& pentagons);

/// The pentagon positions of the spiral that starts at face `first`, goes on to its neighbour
/// `second` and then turns clockwise (or anticlockwise) around `first`; nullopt when that
/// spiral runs into itself before it has visited every face. Throws molstep::Error when
/// `second` is not a neighbour of `first`. triangulation_from_spiral(N, p) gives p back from
/// spiral_from(t, 0, 1, true). Precondition: validate(t) passes. O(N).
[[nodiscard]] std::optional<std::array<int, 12>> spiral_from(const Triangulation& t, int first, int second,
                                                             bool clockwise);

/// The general spiral from the same start: it jumps exactly where spiral_from would run into
/// itself, so it has no jumps when spiral_from gives a spiral, and it always exists.
/// triangulation_from_spiral(s) gives s back from general_spiral_from(t, 0, 1, true).
/// Precondition: validate(t) passes. O(N).
[[nodiscard]] Spiral general_spiral_from(const Triangulation& t, int first, int second, bool clockwise);

/// The canonical spiral, the standard isomer name: the lexicographically smallest pentagon
/// vector over every start (face, first neighbour, both turning senses), so a fullerene and
/// its mirror image share it. nullopt for the rare fullerenes without any face spiral (none
/// below C380; canonical_general_spiral names them). A start is dropped as soon as its
/// pentagons fall behind the best so far. Precondition: validate(t) passes. O(N^2) at worst,
/// about O(N) in practice.
[[nodiscard]] std::optional<std::array<int, 12>> canonical_spiral(const Triangulation& t);

/// Which faces a canonical general spiral may start from.
enum class SpiralStarts {
  every_face,  ///< molstep's names and Wirz et al.'s "CS" (compatibility) spirals
  pentagons,   ///< Wirz et al.'s "GS" spirals, which start at a face of the rarest kind
};

/// The canonical general spiral: the smallest over the starts allowed by `starts` in the order
/// fewest jumps, then smallest jump list (as (position, length) pairs), then smallest pentagon
/// vector (Wirz et al.). A fullerene with a face spiral therefore gets its face spiral: with
/// every_face that is canonical_spiral(t), so names without jumps are unchanged. Mirror images
/// share it. Precondition: validate(t) passes. About O(N) with a face spiral, O(N^2) without.
[[nodiscard]] Spiral canonical_general_spiral(const Triangulation& t,
                                              SpiralStarts starts = SpiralStarts::every_face);

/// Reads a spiral name in molstep's form, "60:1,7,9,11,13,15,18,20,22,24,26,32", or with jumps
/// "380:110,2;45,70,71,82,83,110,119,120,144,184,185,192" (the jumps as position,length pairs
/// before the ';'), with an optional "C" before N and blanks or commas between numbers;
/// or in the published form of Wirz et al., "[GS: 162,2,186,3; 1,4,5,...,186]-C380-fullerene",
/// with an optional point group before it ("D3-[...]", not checked) and "GS:", "CS:" or no
/// scheme. Checks the syntax, that there are 12 positions and that the jumps come in pairs;
/// triangulation_from_spiral checks the rest. Throws molstep::Error naming what was expected.
[[nodiscard]] Spiral parse_spiral(std::string_view text);

/// Writes molstep's form: "60:1,7,9,11,13,15,18,20,22,24,26,32", with jumps
/// "380:110,2;45,70,71,82,83,110,119,120,144,184,185,192".
[[nodiscard]] std::string format_spiral(const Spiral& spiral);

}  // namespace molstep::fullerene
