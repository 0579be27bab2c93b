// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

// Both directions use one convention: the arc u->v "belongs to" the face on its right, the
// one holding the corner v-u-next(u,v). In a Triangulation that face is the triangle
// (u, v, next(u,v)); in a CubicGraph it is the face walked u -> v -> next_on_face(u,v) -> ...
// Faces and triangles are numbered in the order of their first appearance when the arcs are
// scanned vertex by vertex (u = 0, 1, ...) and, at each vertex, slot by slot (j = 0..deg-1).
// Each face is thereby met first at its smallest vertex: its canonical arc.

/// The fullerene whose dual is `t`: atom i is the i-th triangle in the order above. For the
/// triangle (u, v, w) read at its canonical arc u->v (u smallest, w = next(u,v)), the
/// neighbours are the triangles across the edges uv, vw, wu, in that order, which is
/// clockwise. Precondition: validate(t) passes. O(N).
[[nodiscard]] CubicGraph dualize(const Triangulation& t);

/// The dual triangulation of `g`: vertex f is faces(g)[f]; its neighbours are the faces across
/// that face's edges, in the face's walk order (clockwise). Precondition: validate(g) passes.
/// dualize(dualize(x)) is x relabelled, with the same orientation. O(N).
[[nodiscard]] Triangulation dualize(const CubicGraph& g);

/// The faces of `g` in the order above, each as its atoms in walk order from the canonical
/// arc (the face's smallest atom first). Precondition: validate(g) passes. O(N).
[[nodiscard]] std::vector<std::vector<int>> faces(const CubicGraph& g);

/// Throws molstep::Error saying what is wrong unless `t` is the dual of a fullerene: degrees 5
/// or 6 (slot 5 of a degree-5 vertex -1), neighbours in range, a simple graph, neighbour
/// lists that agree (every face a triangle, one orientation throughout), connected, Euler
/// characteristic 2 (equivalently exactly 12 vertices of degree 5). O(N).
void validate(const Triangulation& t);

/// Throws molstep::Error saying what is wrong unless `g` is a fullerene: cubic, neighbours in
/// range, simple, neighbour lists that agree, connected, every face a pentagon or a hexagon,
/// Euler characteristic 2 (equivalently 12 pentagons and N/2+2 faces). O(N).
void validate(const CubicGraph& g);

}  // namespace molstep::fullerene
