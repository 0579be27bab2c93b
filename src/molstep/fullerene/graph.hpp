// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <queue>
#include <utility>
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
  bool operator==(const Triangulation&) const = default;
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
  bool operator==(const CubicGraph&) const = default;
};

namespace detail {

inline int degree_of(const Triangulation& g, int u) { return g.degree[u]; }
inline int degree_of(const CubicGraph&, int) { return 3; }

/// Extends the map a -> b that sends vertex 0 to v0 and 0's first neighbour to v0's k0-th,
/// following the cyclic neighbour orders; whether that gives an isomorphism.
template <class Graph>
bool extends_to_isomorphism(const Graph& a, const Graph& b, int v0, int k0) {
  const int n = a.size();
  std::vector<int> map(n, -1), used(n, 0), shift(n, 0);
  std::queue<int> todo;
  auto assign = [&](int u, int v, int s) {
    if (map[u] >= 0) return map[u] == v;
    if (used[v] || degree_of(a, u) != degree_of(b, v)) return false;
    map[u] = v;
    used[v] = 1;
    shift[u] = s;
    todo.push(u);
    return true;
  };
  if (!assign(0, v0, k0)) return false;
  while (!todo.empty()) {
    const int u = todo.front();
    todo.pop();
    const int d = degree_of(a, u);
    for (int j = 0; j < d; ++j) {
      const int w = a.adj[u][j];
      const int x = b.adj[map[u]][(j + shift[u]) % d];
      // w's neighbour list must line up with x's at the arc back to u.
      const int jw = a.arc_index(w, u), kx = b.arc_index(x, map[u]);
      if (jw < 0 || kx < 0) return false;
      const int dw = degree_of(a, w);
      if (!assign(w, x, (kx - jw + dw) % dw) || (kx - jw + dw) % dw != shift[w]) return false;
    }
  }
  return true;
}

template <class Graph>
bool isomorphic_oriented(const Graph& a, const Graph& b) {
  if (a.size() != b.size()) return false;
  if (a.size() == 0) return true;
  for (int v = 0; v < b.size(); ++v)
    for (int k = 0; k < degree_of(b, v); ++k)
      if (extends_to_isomorphism(a, b, v, k)) return true;
  return false;
}

}  // namespace detail

/// The mirror image: every neighbour list reversed.
[[nodiscard]] inline Triangulation mirrored(Triangulation t) {
  for (int u = 0; u < t.size(); ++u)
    for (int i = 0, j = t.degree[u] - 1; i < j; ++i, --j) std::swap(t.adj[u][i], t.adj[u][j]);
  return t;
}

/// Whether b is a relabelling of a that keeps every neighbour list's clockwise order (an
/// orientation-preserving isomorphism; a mirror image does not count). Both must be connected.
/// O(N^2): for tests and checks, not for inner loops.
[[nodiscard]] inline bool isomorphic_oriented(const Triangulation& a, const Triangulation& b) {
  return detail::isomorphic_oriented(a, b);
}
[[nodiscard]] inline bool isomorphic_oriented(const CubicGraph& a, const CubicGraph& b) {
  return detail::isomorphic_oriented(a, b);
}

}  // namespace molstep::fullerene
