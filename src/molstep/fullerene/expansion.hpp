// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>

#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

// The growth operations of Hasheminezhad, Fleischner and McKay (2008), as BuckyGen uses them, on
// the dual triangulation. A reduction removes a "row": a path r_0..r_m whose ends have degree 5
// and whose inner vertices have degree 6, running straight (L_i, m = i+1) or with one 60-degree
// bend at r_p (B_{i,j}, p = i+1, m = i+j+2), and closes the gap by sliding every r_j onto its
// neighbour t_j on one side (the same lattice direction for the whole row). The two vertices at
// the row's diagonal corners lose one neighbour each and become the new degree-5 vertices. An
// expansion is the inverse: it cuts the triangulation open beside a path t_0..t_m that starts next
// to a degree-5 vertex a_0 and ends next to a degree-5 vertex z, and inserts a new row.
//
// Orientation s (+1/-1) says which way "turning" goes in the neighbour lists, so each operation
// and its mirror image are both covered.

/// A reduction seen from one end of its row: row r0, r1, ..., m+1 vertices, bend at index bend
/// (1..m-1) or -1 when straight. Every reduction has two such views, one from each end.
struct RowOp {
  int r0 = -1;
  int r1 = -1;
  int s = 1;
  int m = 0;
  int bend = -1;

  [[nodiscard]] int size() const { return m + 1; }
};

/// True when a and b are the same view of the same reduction.
[[nodiscard]] inline bool same_view(const RowOp& a, const RowOp& b) {
  return a.r0 == b.r0 && a.r1 == b.r1 && a.s == b.s && a.bend == b.bend && a.m == b.m;
}

/// A row of at most this many vertices cannot wrap round a fullerene dual far enough to make the
/// closing zip of contract() meet itself (measured: the first failing rows have 6 vertices; the
/// generator's counts tests cover this), so contract() always succeeds on it.
inline constexpr int kRowsAlwaysValid = 5;

/// A reduction of at most this many vertices of a fullerene dual is always undone by an expansion
/// that for_each_expansion lists, from either end (undone_by_listed_expansion holds for both views;
/// measured on every isomer of C20 to C72, and checked up to C60 by the test
/// ReductionsOfUpToFourFacesAreUndoneByListedExpansions: the first exceptions have 5 vertices, on
/// the C30 nanotube, and 6 from C32 on). Callers skip the check for such rows.
inline constexpr int kRowsAlwaysListed = 4;

/// An expansion of a triangulation: the new row is inserted beside the path that leaves the
/// degree-5 vertex a0 through its neighbour t0.
struct Expansion {
  int a0 = -1;
  int t0 = -1;
  int s = 1;
  int m = 0;
  int bend = -1;
  int z = -1;  ///< the degree-5 vertex at the far end (set by for_each_expansion)
  /// The path's last vertex t_m and the one before it (a_0 when m = 0), when the walk that listed
  /// the expansion knows them (for_each_expansion's general walks; -1: not known).
  int tm = -1;
  int tm_prev = -1;

  [[nodiscard]] int size() const { return m + 1; }
};

/// Applies `e` to g in place; the new row is numbered g.nv, g.nv+1, ... On success returns true
/// and `row` is the view of the new row from r_0; on failure g is left in an unusable state.
/// g must be a fullerene dual: an L0 expansion with its z set takes a short path that relies on it.
bool expand(PlanarMap& g, const Expansion& e, RowOp& row);
/// The same made by splitting each path face in turn, from t_m back to t_0 (the new r_j takes
/// t_j's faces between t_{j-1} and the way on). expand() writes the lists these splits leave
/// directly, and calls this only when a path face gives over an earlier one to the new row or
/// a_0, the path and z are not distinct (the test WrittenOutExpansionMatchesSplits compares the
/// two on every expansion of many maps).
bool expand_by_splits(PlanarMap& g, const Expansion& e, RowOp& row);

/// Calls f(const Expansion&, const VertexSet& changed) for every expansion of h adding at most
/// max_size vertices; `changed` holds every vertex whose neighbour list the expansion rewrites
/// (a_0, z, the path beside which the row goes and the strip of vertices across it).
template <class F>
void for_each_expansion(const PlanarMap& h, int max_size, F&& f);

/// The same for expansions adding min_size..max_size vertices that start at the degree-5
/// vertices h.pentagons[p] with bit p set in `starts`.
template <class F>
void for_each_expansion(const PlanarMap& h, int min_size, int max_size, unsigned starts, F&& f);

/// The same for expansions adding min_size..max_size vertices from every degree-5 vertex, each
/// listed from one end only (the expansion from its z gives the same child, whose new row it sees
/// from the other end): a bent one from the end whose straight stretch before the bend is longer,
/// otherwise from the end with the smaller vertex number. Half the walks of for_each_expansion.
template <class F>
void for_each_expansion_once(const PlanarMap& h, int min_size, int max_size, F&& f);
/// The ends an IPR fullerene's long expansions must have for their children to be canonical
/// (ipr_search.cpp). An expansion of at least min_size vertices needs an end that qualifies for
/// its size: a pentagon in `near` whose path (as walked from that end) leaves it through a face
/// in `close`; from far_size vertices on (when not 0), one that is also in `any` or leaves
/// through a face in `through`.
struct LongEnds {
  static constexpr int kUnbounded = 1 << 20;
  int min_size = 0;  ///< 0: no expansion needs a qualifying end
  int far_size = 0;
  VertexSet near;
  VertexSet close;
  VertexSet any;
  VertexSet through;
  /// The most vertices an expansion may have for this end (a pentagon, and the first face of its
  /// path) to qualify.
  [[nodiscard]] int reach(int end, int first) const {
    if (!near.has(end) || !close.has(first)) return min_size - 1;
    if (far_size == 0 || any.has(end) || through.has(first)) return kUnbounded;
    return far_size - 1;
  }
};

/// for_each_expansion_once for an IPR fullerene dual h and only the expansions whose children
/// are IPR (new_pentagon_meets_one is false; min_size at least 3: an L0 expansion's new
/// pentagons are adjacent), calling f only for those that pre(const Expansion&) accepts, asked
/// before `changed` is put together. `sizes` (when max_size is at most 64; ignored above): bit m
/// clear for each m (an expansion of m + 1 vertices) that pre turns down whatever the expansion;
/// the walks skip the bends that lead only to such sizes. `changed` is a Set: a copy of `empty`
/// that add(int) was called on for each rewritten vertex (a VertexSet, or what the caller needs
/// to know of them: the IPR search gathers which of the parent's reductions they meet). With
/// `long_ends`, the expansions of at least long_ends->min_size vertices are listed only when an
/// end qualifies, each once: from that end, or as the once rule has it when both do.
template <class P, class F, class Set = VertexSet>
void for_each_ipr_expansion_once(const PlanarMap& h, int min_size, int max_size, std::uint64_t sizes, P&& pre, F&& f,
                                 const Set& empty = Set{}, const LongEnds* long_ends = nullptr);
/// The largest expansion for_each_ipr_short_expansion_once lists.
inline constexpr int kShortExpansionMax = 9;
/// for_each_ipr_expansion_once for max_size up to kShortExpansionMax (larger expansions are not
/// listed) without the crossing tables: each start's paths are followed directly, bent legs as
/// far as a listed size goes. The same expansions in the same order, with the same rewritten
/// faces, pre asked the same way. Near the target, where expansions are short and few sizes are
/// alive, the tables cost more than they save.
template <class P, class F, class Set = VertexSet>
void for_each_ipr_short_expansion_once(const PlanarMap& h, int min_size, int max_size, std::uint64_t sizes, P&& pre,
                                       F&& f, const Set& empty = Set{}, const LongEnds* long_ends = nullptr);
/// The same for expansions of 3 faces only (L1 and B00; min_size = max_size = 3), each start's
/// two paths followed by hand: the straight one to its end is the same in both orientations
/// while it runs through hexagons, and the far end is found before anything else is read.
template <class P, class F, class Set = VertexSet>
void for_each_ipr_size3_expansion_once(const PlanarMap& h, P&& pre, F&& f, const Set& empty = Set{});

namespace detail {
template <class P, class F, class Set>
void expansions(const PlanarMap& h, int min_size, int max_size, std::uint64_t sizes, unsigned starts, bool once,
                P& pre, F& f, bool ipr, const Set& empty, const LongEnds* long_ends);
}

/// Calls f(const Expansion&, const VertexSet& changed) for every L0 expansion of h (two new
/// vertices) once: each is met from both its ends (other_end), and only the description from the
/// smaller of a0 and z is listed.
template <class F>
void for_each_l0_expansion(const PlanarMap& h, F&& f);

/// for_each_expansion(h, 3, 3, starts, f) made fast: the L1 and B00 expansions (three new
/// vertices), in the same order.
template <class F>
void for_each_size3_expansion(const PlanarMap& h, unsigned starts, F&& f);
/// The same, calling f only when accept(const int* vertices, int n) takes the vertices that make
/// up `changed` (with repeats), before `changed` is collected.
template <class A, class F>
void for_each_size3_expansion(const PlanarMap& h, unsigned starts, A&& accept, F&& f);

/// Calls f(const RowOp&) for every view of every reduction of g removing at most max_size
/// vertices; stops early when f returns false. The views are only candidates: contract() says
/// whether the reduction leaves a fullerene. f may take the row's far end r_m as a second
/// argument, f(const RowOp&, int r_m): of the two views of a reduction (both listed unless a
/// long row winds round the map), one has r0 < r_m; and the row's corners {a_0, z} as a third,
/// f(const RowOp&, int r_m, const std::array<int, 2>&), as row_slides writes them.
/// With `near` (filled from g), rows of 3 faces are looked for only through faces next to two
/// pentagons or more (a 3-face row's middle face is next to both its ends).
template <class F>
void for_each_reduction(const PlanarMap& g, int max_size, F&& f, const PentagonNeighbours* near = nullptr);
/// for_each_reduction(g, 3, f, near) without the bent views (B00): the straight ones of 2 and 3
/// faces, in the same order.
template <class F>
void for_each_straight_reduction_up_to_3(const PlanarMap& g, F&& f, const PentagonNeighbours* near = nullptr);

/// Number of an L0 view whose r0 is g.pentagons[p] and whose r1 is r0's k-th neighbour: below
/// kL0Views. A map keeps it through an expansion that rewrites neither r0's list nor r0's place in
/// the pentagon list.
constexpr int kL0Views = 12 * 5 * 2;
[[nodiscard]] constexpr int l0_view_id(int p, int k, int s) { return (p * 5 + k) * 2 + (s < 0 ? 1 : 0); }
/// The k of an l0_view_id: r1's slot round r0.
[[nodiscard]] constexpr int l0_view_slot(int id) { return id / 2 % 5; }

/// The views of every L0 reduction (two adjacent degree-5 vertices), two at a time: calls
/// f(const RowOp& v, int v_id, const RowOp& w, int w_id) with v a view from the row's smaller
/// end and w its view from the other end in the same orientation (reversed(g, v)), ids their
/// l0_view_ids; stops when f returns false. The two views read the same faces: the row's ends
/// and its two corners.
template <class F>
void for_each_l0_row(const PlanarMap& g, F&& f);
/// The same, but a view pair whose first view's id `known(v_id)` takes (returning true: the
/// caller knows the pair already) is not looked at further: no lookups of its corners, no call
/// of f.
template <class K, class F>
void for_each_l0_row(const PlanarMap& g, K&& known, F&& f);

/// The old vertices next to the new row's ends r_0 and r_m (the child's new degree-5 vertices)
/// in the child of e (m >= 2, as for_each_expansion lists it), added to `next`: round r_0, a_0,
/// t_0 and the two vertices after a_0 round t_0 (orientation s); round r_m, t_m, z and, on a
/// straight row, t_{m-1} and the vertex before z round t_m, on a bent one the two vertices before
/// z round t_m.
void old_neighbours_of_new_ends(const PlanarMap& h, const Expansion& e, VertexSet& next);

/// True when the child of e, an expansion of an IPR fullerene dual h as the general walks list
/// it (m >= 2, tm and tm_prev set), is not IPR: a new pentagon (an end of the new row) lies next
/// to a pentagon of h that the child keeps (a_0 and z turn into hexagons). The expansion joins no
/// two old faces, so that is the only way.
[[nodiscard]] bool new_pentagon_meets_one(const PlanarMap& h, const Expansion& e);

/// The same L0 expansion described from its other end: the one that starts at z. Both give the
/// same child, whose new row they see from opposite ends.
[[nodiscard]] Expansion other_end(const PlanarMap& h, const Expansion& e);

/// The other view of the same reduction (seen from r_m).
[[nodiscard]] RowOp reversed(const PlanarMap& g, const RowOp& row);
/// The same when the row has been walked into path[0..m] (walk_row, row_slides).
[[nodiscard]] RowOp reversed(const RowOp& row, const int* path);

/// Walks the row of `row` into path[0..m] as walk_row() does, and writes where contract() slides
/// each of its vertices (the neighbour r_j merges into) to target[0..m], and the two corners that
/// lose a neighbour (and become degree-5 vertices) to corners; false as walk_row().
bool row_slides(const PlanarMap& g, const RowOp& row, int* path, int* target, std::array<int, 2>& corners);
/// row_slides for a row whose walk is known to describe a row (as for_each_reduction lists it),
/// path[0..m] filled in: writes target and corners only.
void slides_of_walked_row(const PlanarMap& g, const RowOp& row, const int* path, int* target,
                          std::array<int, 2>& corners);

/// True when the reduction `row` of g (row_slides has filled path, target and corners) is undone
/// by an expansion that for_each_expansion lists: its corners (the expansion's a_0 and z) and its
/// targets (the path the expansion walks) are distinct and off the row. A long row can wind round
/// a nanotube so that they are not; then no walk of its parent lists its expansion.
[[nodiscard]] bool undone_by_listed_expansion(const RowOp& row, const int* path, const int* target,
                                              const std::array<int, 2>& corners);
/// The same, walking the row first (false when row_slides fails).
[[nodiscard]] bool undone_by_listed_expansion(const PlanarMap& g, const RowOp& row);

/// Performs the reduction in place (row vertices are left with degree 0). Returns false when the
/// result is not a fullerene dual (a multiple edge or a degree outside 5..6).
bool contract(PlanarMap& g, const RowOp& row);

/// The row's vertices. A reduction is found by reading only their neighbour lists (and degrees,
/// which an expansion changes only at a_0 and z), so an expansion that rewrites none of them
/// leaves the reduction in place.
[[nodiscard]] VertexSet row_vertices(const PlanarMap& g, const RowOp& row);

/// Walks the row of `row` in g into path[0..m]; false when the walk does not describe a row
/// (wrong degrees, repeated vertices, or corners that cannot lose a neighbour).
bool walk_row(const PlanarMap& g, const RowOp& row, int* path);

}  // namespace molstep::fullerene

#include "molstep/fullerene/expansion_walks.hpp"
