// SPDX-License-Identifier: MIT
#include "molstep/fullerene/planar_map.hpp"

#include <algorithm>
#include <cstring>

#include "molstep/core/error.hpp"

namespace molstep::fullerene {

void PlanarMap::find_pentagons() {
  int k = 0;
  for (int v = 0; v < nv && k < 12; ++v)
    if (deg[v] == 5) pentagons[k++] = static_cast<std::uint8_t>(v);
}

void PlanarMap::copy_from(const PlanarMap& other) {
  nv = other.nv;
  pentagons = other.pentagons;
  std::memcpy(deg.data(), other.deg.data(), static_cast<std::size_t>(nv));
  std::memcpy(adj.data(), other.adj.data(), static_cast<std::size_t>(nv) * sizeof(adj[0]));
}

void PentagonNeighbours::fill(const PlanarMap& g) {
  // The whole array (a few vector stores, no call) and five neighbours a pentagon (no loop test
  // on its degree).
  count.fill(0);
  for (const int p : g.pentagons)
    for (int i = 0; i < 5; ++i) ++count[g.adj[p][i]];
}

PlanarMap as_planar_map(const Triangulation& t) {
  if (t.size() > PlanarMap::kMaxVertices)
    throw Error("fullerene with " + std::to_string(t.atoms()) + " atoms is larger than the generator's limit of C" +
                std::to_string(2 * PlanarMap::kMaxVertices - 4));
  PlanarMap m;
  m.nv = t.size();
  for (int v = 0; v < m.nv; ++v) {
    m.deg[v] = t.degree[v];
    for (int i = 0; i < t.degree[v]; ++i) m.adj[v][i] = static_cast<std::uint8_t>(t.adj[v][i]);
  }
  m.find_pentagons();
  return m;
}

Triangulation as_triangulation(const PlanarMap& m) {
  Triangulation t;
  t.adj.resize(m.nv);
  t.degree.resize(m.nv);
  for (int v = 0; v < m.nv; ++v) {
    t.degree[v] = m.deg[v];
    t.adj[v].fill(-1);
    for (int i = 0; i < m.deg[v]; ++i) t.adj[v][i] = m.adj[v][i];
  }
  return t;
}

}  // namespace molstep::fullerene
