// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/spiral.hpp"

using molstep::Error;
using namespace molstep::fullerene;

namespace {

Triangulation from_spiral(const std::string& name) {
  const Spiral s = parse_spiral(name);
  return triangulation_from_spiral(s.atoms, s.pentagons);
}

const std::vector<std::string> kSpirals = {
    "20:1,2,3,4,5,6,7,8,9,10,11,12",         // C20-Ih
    "24:1,2,3,4,5,7,8,10,11,12,13,14",       // C24-D6d
    "28:1,2,3,5,7,9,10,11,12,13,14,15",      // C28-Td
    "28:1,2,3,4,5,7,10,12,13,14,15,16",      // C28-D2, chiral
    "60:1,7,9,11,13,15,18,20,22,24,26,32",   // C60-Ih
    "60:1,2,3,4,5,6,27,28,29,30,31,32",      // a C60 [5,0] nanotube
    "70:1,7,9,11,13,15,27,29,31,33,35,37",   // C70-D5h
};

/// The triangle behind each atom, as the numbering rule of dual.hpp defines it: triangles
/// (u, v, next(u,v)) in the order of their smallest vertex u, then of v's slot at u.
std::vector<std::array<int, 3>> triangles_in_atom_order(const Triangulation& t) {
  std::vector<std::array<int, 3>> out;
  for (int u = 0; u < t.size(); ++u)
    for (int j = 0; j < t.degree[u]; ++j) {
      const int v = t.adj[u][j], w = t.next(u, v);
      if (u < v && u < w) out.push_back({u, v, w});
    }
  return out;
}

bool has_edge(const std::array<int, 3>& tri, int a, int b) {
  return std::count(tri.begin(), tri.end(), a) + std::count(tri.begin(), tri.end(), b) == 2;
}

/// The message validate gives for `g`, or "" when it passes.
template <class Graph>
std::string validation_error(const Graph& g) {
  try {
    validate(g);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

/// The 7-vertex triangulation of the torus (K7): all degrees 6, every face a triangle, one
/// orientation, but Euler characteristic 0.
Triangulation torus_k7() {
  Triangulation t;
  t.adj.resize(7);
  t.degree.assign(7, 6);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; int d : {1, 3, 2, 6, 4, 5}) t.adj[i][j++] = (i + d) % 7;
  return t;
}

}  // namespace

TEST(FullereneGraph, DualOfDualKeepsGraphAndOrientation) {
  for (const std::string& name : kSpirals) {
    SCOPED_TRACE(name);
    const Triangulation t = from_spiral(name);
    EXPECT_EQ(validation_error(t), "");
    const CubicGraph g = dualize(t);
    EXPECT_EQ(g.size(), parse_spiral(name).atoms);
    EXPECT_EQ(validation_error(g), "");
    const Triangulation tt = dualize(g);
    EXPECT_EQ(validation_error(tt), "");
    EXPECT_TRUE(isomorphic_oriented(t, tt));
    EXPECT_TRUE(isomorphic_oriented(g, dualize(tt)));
  }
}

TEST(FullereneGraph, OrientedIsomorphismTellsMirrorImagesApart) {
  // C28-D2 is chiral: its mirror image is the same graph with the other orientation.
  const Triangulation td = from_spiral(kSpirals[2]);
  const Triangulation d2 = from_spiral(kSpirals[3]);
  EXPECT_FALSE(isomorphic_oriented(d2, mirrored(d2)));
  EXPECT_TRUE(isomorphic_oriented(mirrored(d2), mirrored(d2)));
  EXPECT_FALSE(isomorphic_oriented(dualize(d2), dualize(mirrored(d2))));
  // C28-Td and C60-Ih are their own mirror images.
  EXPECT_TRUE(isomorphic_oriented(td, mirrored(td)));
  const Triangulation c60 = from_spiral(kSpirals[4]);
  EXPECT_TRUE(isomorphic_oriented(c60, mirrored(c60)));
  EXPECT_FALSE(isomorphic_oriented(c60, from_spiral(kSpirals[5])));
}

TEST(FullereneGraph, AtomsAreNumberedByCanonicalArc) {
  for (const std::string& name : kSpirals) {
    SCOPED_TRACE(name);
    const Triangulation t = from_spiral(name);
    const CubicGraph g = dualize(t);
    const auto tri = triangles_in_atom_order(t);
    ASSERT_EQ(static_cast<int>(tri.size()), g.size());
    for (int i = 0; i < g.size(); ++i) {
      const auto [u, v, w] = tri[i];
      // Neighbours across uv, vw, wu, in that order.
      EXPECT_TRUE(has_edge(tri[g.adj[i][0]], u, v)) << i;
      EXPECT_TRUE(has_edge(tri[g.adj[i][1]], v, w)) << i;
      EXPECT_TRUE(has_edge(tri[g.adj[i][2]], w, u)) << i;
    }
  }
}

TEST(FullereneGraph, FacesAreNumberedByFirstAppearance) {
  for (const std::string& name : kSpirals) {
    SCOPED_TRACE(name);
    const CubicGraph g = dualize(from_spiral(name));
    const auto f = faces(g);
    const int n = g.size();
    ASSERT_EQ(static_cast<int>(f.size()), n / 2 + 2);
    int pentagons = 0, total = 0, last_start = -1;
    std::set<std::pair<int, int>> arcs;
    for (const auto& face : f) {
      ASSERT_TRUE(face.size() == 5 || face.size() == 6);
      pentagons += face.size() == 5;
      total += static_cast<int>(face.size());
      EXPECT_EQ(face[0], *std::min_element(face.begin(), face.end()));
      EXPECT_GE(face[0], last_start);
      last_start = face[0];
      for (std::size_t k = 0; k < face.size(); ++k) {
        const int a = face[k], b = face[(k + 1) % face.size()];
        EXPECT_EQ(g.next_on_face(a, b), face[(k + 2) % face.size()]);
        EXPECT_TRUE(arcs.insert({a, b}).second) << "arc on two faces";
      }
    }
    EXPECT_EQ(pentagons, 12);
    EXPECT_EQ(total, 3 * n);
    // The dual's vertex f is face f, listing the faces across its edges in walk order.
    const Triangulation t = dualize(g);
    for (std::size_t k = 0; k < f.size(); ++k) EXPECT_EQ(t.degree[k], f[k].size());
  }
}

TEST(FullereneGraph, ValidateTriangulationNamesEachFault) {
  const Triangulation good = from_spiral(kSpirals[0]);
  auto expect = [](Triangulation t, const std::string& message) {
    EXPECT_EQ(validation_error(t), "not a fullerene dual (triangulation): " + message);
  };
  {
    Triangulation t = good;
    t.degree[3] = 4;
    expect(t, "vertex 3 has degree 4, not 5 or 6");
  }
  {
    Triangulation t = good;
    t.degree.pop_back();
    expect(t, "the degree table has 11 entries for 12 vertices");
  }
  {
    Triangulation t = good;
    t.adj[2][5] = 7;
    expect(t, "vertex 2 has degree 5 but slot 5 holds 7, not -1");
  }
  {
    Triangulation t = good;
    t.adj[2][1] = 12;
    expect(t, "vertex 2 has neighbour 12, outside 0..11");
  }
  {
    Triangulation t = good;
    t.adj[2][1] = 2;
    expect(t, "vertex 2 is its own neighbour");
  }
  {
    Triangulation t = good;
    t.adj[2][1] = t.adj[2][0];
    expect(t, "vertex 2 lists neighbour " + std::to_string(t.adj[2][0]) + " twice");
  }
  {
    // A neighbour list in the wrong order: the corners no longer close into triangles.
    Triangulation t = good;
    std::swap(t.adj[0][0], t.adj[0][1]);
    EXPECT_NE(validation_error(t).find("inconsistent rotation system"), std::string::npos) << validation_error(t);
  }
  {
    // One list reversed: its triangles, and only they, turn the other way.
    Triangulation t = good;
    std::reverse(t.adj[5].begin(), t.adj[5].begin() + 5);
    const std::string e = validation_error(t);
    EXPECT_NE(e.find("inconsistent rotation system"), std::string::npos) << e;
    EXPECT_NE(e.find("every list must be clockwise"), std::string::npos) << e;
  }
  {
    Triangulation t = good;
    const int far = t.size();
    for (int u = 0; u < far; ++u) {
      std::array<int, 6> shifted = t.adj[u];
      for (int j = 0; j < t.degree[u]; ++j) shifted[j] += far;
      t.adj.push_back(shifted);
      t.degree.push_back(t.degree[u]);
    }
    expect(t, "not connected: no path from vertex 0 to vertex 12");
  }
  expect(torus_k7(),
         "Euler characteristic V - E + F = 7 - 21 + 14 = 0, not 2 (not a sphere): 0 vertices of degree 5, a "
         "fullerene has 12");
}

TEST(FullereneGraph, ValidateCubicGraphNamesEachFault) {
  const CubicGraph good = dualize(from_spiral(kSpirals[0]));
  auto expect = [](const CubicGraph& g, const std::string& message) {
    EXPECT_EQ(validation_error(g), "not a fullerene graph: " + message);
  };
  {
    CubicGraph g = good;
    g.adj[4][2] = -1;
    expect(g, "atom 4 has only 2 neighbours, not 3 (not cubic)");
  }
  {
    CubicGraph g = good;
    g.adj[4][2] = 20;
    expect(g, "atom 4 has neighbour 20, outside 0..19");
  }
  {
    CubicGraph g = good;
    g.adj[4][2] = 4;
    expect(g, "atom 4 is its own neighbour");
  }
  {
    CubicGraph g = good;
    g.adj[4][2] = g.adj[4][0];
    expect(g, "atom 4 lists neighbour " + std::to_string(g.adj[4][0]) + " twice");
  }
  {
    CubicGraph g = good;
    int stranger = 1;
    while (g.arc_index(0, stranger) >= 0) ++stranger;
    g.adj[0][2] = stranger;
    expect(g, "atom 0 lists " + std::to_string(stranger) + " as a neighbour but atom " +
                  std::to_string(stranger) + " does not list 0");
  }
  {
    CubicGraph g = good;
    for (int u = 0; u < good.size(); ++u)
      g.adj.push_back({good.adj[u][0] + 20, good.adj[u][1] + 20, good.adj[u][2] + 20});
    expect(g, "not connected: no path from atom 0 to atom 20");
  }
  {
    // Two neighbours swapped: the faces through that atom are no longer pentagons.
    CubicGraph g = good;
    std::swap(g.adj[0][0], g.adj[0][1]);
    const std::string e = validation_error(g);
    EXPECT_NE(e.find("fullerene faces are pentagons and hexagons"), std::string::npos) << e;
  }
  // The Heawood graph on the torus: cubic, 7 hexagons, Euler characteristic 0.
  const CubicGraph heawood = dualize(torus_k7());
  expect(heawood,
         "Euler characteristic V - E + F = 14 - 21 + 7 = 0, not 2 (not a sphere): 0 pentagons, a fullerene has "
         "12, and 7 faces, C14 has 9");
}
