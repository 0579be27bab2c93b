// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace molstep::fullerene {

/// The dual of a fullerene C_N: a triangulation of the sphere with N/2+2 vertices (one per face
/// of the fullerene), 12 of degree 5 (pentagons) and the rest of degree 6 (hexagons).
/// Neighbours are listed clockwise, as planar_code stores them; slot 5 of a degree-5 vertex is -1.
struct Triangulation {
  std::vector<std::array<int, 6>> adj;
  std::vector<std::uint8_t> degree;

  [[nodiscard]] int size() const { return static_cast<int>(adj.size()); }
  /// Atoms of the fullerene: one per triangle, 2*size()-4.
  [[nodiscard]] int atoms() const { return 2 * size() - 4; }
  /// Position of v in u's neighbour list, or -1.
  [[nodiscard]] int arc_index(int u, int v) const {
    for (int j = 0; j < degree[u]; ++j)
      if (adj[u][j] == v) return j;
    return -1;
  }
  /// The neighbour of u after v, clockwise.
  [[nodiscard]] int next(int u, int v) const { return adj[u][(arc_index(u, v) + 1) % degree[u]]; }
  /// The neighbour of u before v, clockwise.
  [[nodiscard]] int prev(int u, int v) const {
    return adj[u][(arc_index(u, v) + degree[u] - 1) % degree[u]];
  }
};

/// A fullerene: a cubic plane graph whose faces are 12 pentagons and N/2-10 hexagons.
/// Neighbours of each atom are listed clockwise.
struct CubicGraph {
  std::vector<std::array<int, 3>> adj;

  [[nodiscard]] int size() const { return static_cast<int>(adj.size()); }
  [[nodiscard]] int arc_index(int u, int v) const {
    for (int j = 0; j < 3; ++j)
      if (adj[u][j] == v) return j;
    return -1;
  }
  [[nodiscard]] int next(int u, int v) const { return adj[u][(arc_index(u, v) + 1) % 3]; }
  [[nodiscard]] int prev(int u, int v) const { return adj[u][(arc_index(u, v) + 2) % 3]; }
  /// Walking the face that holds the corner v-u-next(u,v): the atom after v is prev(v, u).
  [[nodiscard]] int next_on_face(int u, int v) const { return prev(v, u); }
  /// Size of the face walked from the arc u->v (5 or 6 in a fullerene).
  [[nodiscard]] int face_size(int u, int v) const {
    int len = 1;
    for (int a = u, b = v; b != u; ++len) {
      const int c = next_on_face(a, b);
      a = b;
      b = c;
      if (len > size()) return -1;  // not a face walk: the rotation system is broken
    }
    return len;
  }
};

}  // namespace molstep::fullerene
