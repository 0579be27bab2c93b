// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

/// Breadth-first code of a plane graph seen from the arc v->w, turning in orientation s (+1 walks
/// each neighbour list forwards, -1 backwards, i.e. the mirror image). Vertices are numbered
/// 1, 2, ... in the order the search meets them; the code lists, vertex by vertex, the numbers of
/// its neighbours starting from the arc it was reached by, each list ended by 0. Two rooted plane
/// graphs have the same code exactly when an isomorphism (orientation-preserving for equal s,
/// reversing otherwise) maps one root to the other.
///
/// Writes the code to `out` (size 7*nv) while comparing it with `best` (nullptr: no comparison)
/// and returns <0, 0 or >0 as the code is smaller, equal or larger; a larger code is abandoned at
/// its first larger entry, so `out` is then incomplete.
int bfs_code(const PlanarMap& m, int v, int w, int s, const std::uint8_t* best, std::uint8_t* out);

/// Compares the codes of two roots of the same plane graph without writing either: the two
/// searches run in lockstep and stop at the first entry where the codes differ. Returns <0, 0 or
/// >0 as the code from (va, wa, sa) is smaller than, equal to or larger than the one from
/// (vb, wb, sb); 0 means an automorphism maps one root onto the other.
int bfs_compare(const PlanarMap& m, int va, int wa, int sa, int vb, int wb, int sb);

/// Code length of a triangulation with nv vertices: 7*nv-12.
[[nodiscard]] inline int bfs_code_length(int nv) { return 7 * nv - 12; }

/// A canonical form of the plane graph up to isomorphism and reflection: the smallest code over
/// every arc and both orientations, as a byte string. O(N^2); for tests and small jobs, not the
/// generator's loop.
[[nodiscard]] std::string canonical_code(const Triangulation& t);

}  // namespace molstep::fullerene
