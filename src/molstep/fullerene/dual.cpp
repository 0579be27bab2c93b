// SPDX-License-Identifier: MIT
#include "molstep/fullerene/dual.hpp"

#include <array>
#include <string>

#include "molstep/core/error.hpp"

namespace molstep::fullerene {
namespace {

/// The faces of a cubic graph and, for every arc (u, slot j), the face it belongs to.
struct FaceTable {
  std::vector<std::vector<int>> faces;
  std::vector<std::array<int, 3>> face_of_arc;
};

FaceTable face_table(const CubicGraph& g) {
  FaceTable t;
  t.faces.reserve(static_cast<std::size_t>(g.size() / 2 + 2));
  t.face_of_arc.assign(static_cast<std::size_t>(g.size()), {-1, -1, -1});
  for (int u = 0; u < g.size(); ++u) {
    for (int j = 0; j < 3; ++j) {
      if (t.face_of_arc[u][j] >= 0) continue;
      const int id = static_cast<int>(t.faces.size());
      std::vector<int>& face = t.faces.emplace_back();
      int a = u, b = g.adj[u][j];
      do {
        t.face_of_arc[a][g.arc_index(a, b)] = id;
        face.push_back(a);
        const int c = g.next_on_face(a, b);
        a = b;
        b = c;
      } while (a != u || b != g.adj[u][j]);
    }
  }
  return t;
}

[[noreturn]] void not_dual(const std::string& what) {
  throw Error("not a fullerene dual (triangulation): " + what);
}

[[noreturn]] void not_fullerene(const std::string& what) {
  throw Error("not a fullerene graph: " + what);
}

std::string str(int i) { return std::to_string(i); }

/// Every vertex reachable from vertex 0; else throws through `fail` naming one that is not.
template <class Graph, class Fail>
void check_connected(const Graph& g, int degree_bound, const char* noun, Fail fail) {
  std::vector<char> seen(static_cast<std::size_t>(g.size()), 0);
  std::vector<int> stack{0};
  seen[0] = 1;
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    for (int j = 0; j < degree_bound; ++j) {
      const int v = g.adj[u][j];
      if (v >= 0 && !seen[v]) {
        seen[v] = 1;
        stack.push_back(v);
      }
    }
  }
  for (int u = 0; u < g.size(); ++u)
    if (!seen[u]) fail(std::string("not connected: no path from ") + noun + " 0 to " + noun + " " + str(u));
}

/// The message for an Euler characteristic other than 2, with what it implies.
std::string euler_message(int v, int e, int f, int pentagons, const char* pentagon_noun) {
  return "Euler characteristic V - E + F = " + str(v) + " - " + str(e) + " + " + str(f) + " = " +
         str(v - e + f) + ", not 2 (not a sphere): " + str(pentagons) + " " + pentagon_noun +
         ", a fullerene has 12";
}

}  // namespace

CubicGraph dualize(const Triangulation& t) {
  std::vector<std::array<int, 6>> triangle_of_arc(static_cast<std::size_t>(t.size()));
  std::vector<std::array<int, 2>> canonical_arc;
  canonical_arc.reserve(static_cast<std::size_t>(t.atoms()));
  for (int u = 0; u < t.size(); ++u) {
    for (int j = 0; j < t.degree[u]; ++j) {
      const int v = t.adj[u][j], w = t.adj[u][(j + 1) % t.degree[u]];
      if (u > v || u > w) continue;
      const int id = static_cast<int>(canonical_arc.size());
      canonical_arc.push_back({u, j});
      triangle_of_arc[u][j] = id;
      triangle_of_arc[v][t.arc_index(v, w)] = id;
      triangle_of_arc[w][t.arc_index(w, u)] = id;
    }
  }
  CubicGraph g;
  g.adj.resize(canonical_arc.size());
  for (std::size_t i = 0; i < canonical_arc.size(); ++i) {
    const auto [u, j] = canonical_arc[i];
    const int v = t.adj[u][j], w = t.adj[u][(j + 1) % t.degree[u]];
    g.adj[i] = {triangle_of_arc[v][t.arc_index(v, u)], triangle_of_arc[w][t.arc_index(w, v)],
                triangle_of_arc[u][(j + 1) % t.degree[u]]};
  }
  return g;
}

Triangulation dualize(const CubicGraph& g) {
  const FaceTable table = face_table(g);
  Triangulation t;
  t.adj.assign(table.faces.size(), {-1, -1, -1, -1, -1, -1});
  t.degree.resize(table.faces.size());
  for (std::size_t f = 0; f < table.faces.size(); ++f) {
    const std::vector<int>& face = table.faces[f];
    const int k = static_cast<int>(face.size());
    t.degree[f] = static_cast<std::uint8_t>(k);
    for (int i = 0; i < k; ++i) {
      const int a = face[i], b = face[(i + 1) % k];
      t.adj[f][i] = table.face_of_arc[b][g.arc_index(b, a)];
    }
  }
  return t;
}

std::vector<std::vector<int>> faces(const CubicGraph& g) { return face_table(g).faces; }

void validate(const Triangulation& t) {
  const int n = t.size();
  if (n == 0) not_dual("no vertices");
  if (t.degree.size() != t.adj.size())
    not_dual("the degree table has " + std::to_string(t.degree.size()) + " entries for " + str(n) +
             " vertices");
  for (int u = 0; u < n; ++u) {
    const int d = t.degree[u];
    if (d != 5 && d != 6) not_dual("vertex " + str(u) + " has degree " + str(d) + ", not 5 or 6");
    if (d == 5 && t.adj[u][5] != -1)
      not_dual("vertex " + str(u) + " has degree 5 but slot 5 holds " + str(t.adj[u][5]) + ", not -1");
    for (int j = 0; j < d; ++j) {
      const int v = t.adj[u][j];
      if (v < 0 || v >= n)
        not_dual("vertex " + str(u) + " has neighbour " + str(v) + ", outside 0.." + str(n - 1));
      if (v == u) not_dual("vertex " + str(u) + " is its own neighbour");
      for (int i = 0; i < j; ++i)
        if (t.adj[u][i] == v) not_dual("vertex " + str(u) + " lists neighbour " + str(v) + " twice");
    }
  }
  int arcs = 0;
  for (int u = 0; u < n; ++u) {
    for (int j = 0; j < t.degree[u]; ++j) {
      const int v = t.adj[u][j], w = t.adj[u][(j + 1) % t.degree[u]];
      if (t.arc_index(v, u) < 0)
        not_dual("vertex " + str(u) + " lists " + str(v) + " as a neighbour but vertex " + str(v) +
                 " does not list " + str(u));
      if (t.arc_index(v, w) < 0 || t.next(v, w) != u) {
        const std::string corner = "inconsistent rotation system: " + str(v) + ", " + str(w) +
                                   " follow each other around vertex " + str(u);
        if (t.arc_index(v, w) < 0) not_dual(corner + " but are not neighbours (every face must be a triangle)");
        not_dual(corner + " but around vertex " + str(v) + " the neighbour after " + str(w) + " is " +
                 str(t.next(v, w)) + ", not " + str(u) + " (every list must be clockwise)");
      }
      ++arcs;
    }
  }
  check_connected(t, 6, "vertex", not_dual);
  int pentagons = 0;
  for (int u = 0; u < n; ++u) pentagons += t.degree[u] == 5;
  const int edges = arcs / 2, triangles = arcs / 3;
  if (n - edges + triangles != 2)
    not_dual(euler_message(n, edges, triangles, pentagons, "vertices of degree 5"));
}

void validate(const CubicGraph& g) {
  const int n = g.size();
  if (n == 0) not_fullerene("no atoms");
  for (int u = 0; u < n; ++u) {
    for (int j = 0; j < 3; ++j) {
      const int v = g.adj[u][j];
      if (v == -1) not_fullerene("atom " + str(u) + " has only " + str(j) + " neighbours, not 3 (not cubic)");
      if (v < 0 || v >= n)
        not_fullerene("atom " + str(u) + " has neighbour " + str(v) + ", outside 0.." + str(n - 1));
      if (v == u) not_fullerene("atom " + str(u) + " is its own neighbour");
      for (int i = 0; i < j; ++i)
        if (g.adj[u][i] == v) not_fullerene("atom " + str(u) + " lists neighbour " + str(v) + " twice");
    }
  }
  for (int u = 0; u < n; ++u)
    for (int v : g.adj[u])
      if (g.arc_index(v, u) < 0)
        not_fullerene("atom " + str(u) + " lists " + str(v) + " as a neighbour but atom " + str(v) +
                      " does not list " + str(u));
  check_connected(g, 3, "atom", not_fullerene);
  // Every arc lies on exactly one face walk, as the lists agree; a face larger than a hexagon
  // is reported as soon as the walk passes six atoms.
  std::vector<std::array<char, 3>> walked(static_cast<std::size_t>(n), {0, 0, 0});
  int face_count = 0, pentagons = 0;
  for (int u = 0; u < n; ++u) {
    for (int j = 0; j < 3; ++j) {
      if (walked[u][j]) continue;
      int size = 0, a = u, b = g.adj[u][j];
      do {
        walked[a][g.arc_index(a, b)] = 1;
        if (++size > 6) break;
        const int c = g.next_on_face(a, b);
        a = b;
        b = c;
      } while (a != u || b != g.adj[u][j]);
      if (size < 5 || size > 6)
        not_fullerene("the face walked from atom " + str(u) + " to atom " + str(g.adj[u][j]) + " has " +
                      (size > 6 ? std::string("more than 6") : str(size)) +
                      " atoms; fullerene faces are pentagons and hexagons (or a neighbour list is "
                      "not clockwise)");
      ++face_count;
      pentagons += size == 5;
    }
  }
  const int edges = 3 * n / 2;
  if (n - edges + face_count != 2)
    not_fullerene(euler_message(n, edges, face_count, pentagons, "pentagons") + ", and " +
                  str(face_count) + " faces, C" + str(n) + " has " + str(n / 2 + 2));
}

}  // namespace molstep::fullerene
