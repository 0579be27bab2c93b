// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <vector>

#include "molstep/fullerene/expansion.hpp"
#include "molstep/fullerene/planar_map.hpp"
#include "molstep/fullerene/spiral.hpp"

namespace molstep::fullerene {

/// True when the reduction `row` of the IPR fullerene dual g leaves an IPR fullerene and is
/// undone by an expansion of it that for_each_expansion lists: the vertices the expansion walks
/// (the corner that becomes its a_0, the targets its path runs through, the far corner z) are
/// distinct and off the row. A long row can wind round a nanotube so that they are not; its
/// expansion does not exist for the search, so it does not count as a reduction within IPR
/// fullerenes. `scratch` is working space.
bool reduces_within_ipr(const PlanarMap& g, const RowOp& row, PlanarMap& scratch);
/// The same when row_slides(g, row, path, target, corners) has been called and succeeded.
/// `as_hexagons`: up to two pentagons of g (or -1) read as hexagons, as in a child of g whose
/// expansion turns them into hexagons (its a_0 and z) and rewrites none of the lists this reads:
/// those of the corners and the row's faces. Reading more faces as pentagons than the child has
/// only turns more rows down, so a row that passes here passes in such a child. Only for rows of up
/// to kRowsAlwaysValid faces (a longer one is contracted on a copy, which reads g's own degrees).
bool reduces_within_ipr(const PlanarMap& g, const RowOp& row, const int* path, const int* target,
                        const std::array<int, 2>& corners, PlanarMap& scratch,
                        const std::array<int, 2>& as_hexagons = {-1, -1});
/// The same for a row of 3 faces (row.m == 2) whose far end is `end`, as for_each_reduction
/// lists it: its slides are read off the walked path r0, r1, end (slides_of_walked_row).
bool reduces_within_ipr_3(const PlanarMap& g, const RowOp& row, int end, PlanarMap& scratch,
                          const std::array<int, 2>& as_hexagons = {-1, -1});

/// False when a corner of a view of a row of g (whose far end is r_m = `end` and whose corners
/// are {a_0, z}, as for_each_reduction and row_slides give them) lies next to a pentagon off the
/// row, so that the row does not reduce within IPR fullerenes (its corners become pentagons).
/// A necessary condition of reduces_within_ipr, read before the row's slides. `near`: filled
/// from g.
[[nodiscard]] inline bool corners_clear_of_pentagons(const PlanarMap& g, const PentagonNeighbours& near,
                                                     const RowOp& row, int end, const std::array<int, 2>& corners) {
  // The row's inner faces are hexagons, so a pentagon next to a corner is on the row only when it
  // is one of the row's ends: a_0 is next to r_0, z next to r_m, and each may be next to the other.
  const auto clear = [&](int corner, int other_end) {
    const int n = near.count[static_cast<std::size_t>(corner)];
    return n == 1 || (n == 2 && g.adjacent(corner, other_end));
  };
  return clear(corners[0], end) && clear(corners[1], row.r0);
}

/// True when some reduction of the IPR fullerene dual g reduces_within_ipr (false: g is
/// irreducible).
[[nodiscard]] bool reduces_to_smaller_ipr(const PlanarMap& g);

/// The irreducible IPR fullerenes up to C_kIrreducibleIprComplete: those without a reduction
/// within IPR fullerenes. Every other IPR fullerene reduces to a smaller one, so the search within
/// IPR fullerenes (ipr_search.cpp) starts from these. The list is complete up to that size because
/// it was computed exhaustively: every IPR isomer of C60 to C160 of the whole search, tested
/// against every one of its reductions (bench/fullerene_irreducible_ipr.cpp; the test
/// IrreducibleIprListIsComplete recomputes it up to C90). Canonical face spirals, by increasing N.
inline constexpr int kIrreducibleIprComplete = 160;
[[nodiscard]] const std::vector<Spiral>& irreducible_ipr_fullerenes();

/// Faces in the rings of hexagons that make an irreducible IPR nanotube longer ((9,0) tubes take
/// 9, the others 10).
inline constexpr std::array<int, 2> kIprRingFaces{9, 10};

/// The irreducible IPR fullerenes of `atoms` atoms that are the nanotubes of `smaller` (the
/// irreducible ones of atoms-18 and atoms-20 atoms) one ring longer, by canonical spiral
/// (ipr_rings.cpp). Past C112 these are all of them (checked up to C160 against the exhaustive
/// list; Goedgebeur and McKay's IPR construction rests on the same fact).
[[nodiscard]] std::vector<Spiral> irreducible_ipr_grown(const std::vector<Spiral>& smaller, int atoms);

/// The irreducible IPR fullerenes up to C_atoms: the exhaustive list, then the grown ones past it.
[[nodiscard]] std::vector<Spiral> irreducible_ipr_fullerenes_up_to(int atoms);

}  // namespace molstep::fullerene
