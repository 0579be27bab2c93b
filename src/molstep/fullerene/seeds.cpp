// SPDX-License-Identifier: MIT
#include "molstep/fullerene/seeds.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace molstep::fullerene {
namespace {

using Point = std::array<double, 3>;

Point unit(const Point& p) {
  const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  return {p[0] / n, p[1] / n, p[2] / n};
}

Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// Orders each vertex's neighbours clockwise as seen from outside a convex polyhedron whose
/// vertices are `points` (centred on the origin).
Triangulation with_rotation(const std::vector<Point>& points, const std::vector<std::vector<int>>& nbrs) {
  Triangulation t;
  const int n = static_cast<int>(points.size());
  t.adj.resize(n);
  t.degree.resize(n);
  for (int v = 0; v < n; ++v) {
    const Point normal = unit(points[v]);
    const Point e1 = unit(cross(normal, std::abs(normal[0]) < 0.9 ? Point{1, 0, 0} : Point{0, 1, 0}));
    const Point e2 = cross(normal, e1);
    std::vector<std::pair<double, int>> order;
    for (const int w : nbrs[v]) {
      const Point d{points[w][0] - points[v][0], points[w][1] - points[v][1], points[w][2] - points[v][2]};
      order.emplace_back(-std::atan2(dot(d, e2), dot(d, e1)), w);  // minus: clockwise
    }
    std::sort(order.begin(), order.end());
    t.adj[v].fill(-1);
    t.degree[v] = static_cast<std::uint8_t>(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) t.adj[v][i] = order[i].second;
  }
  return t;
}

}  // namespace

Triangulation nanotube_5_0_dual(int rings) {
  // Layers along the axis: the top face, rings+2 rings of five faces (the outer two pentagons,
  // the inner ones hexagons) turned 36 degrees against each other, the bottom face.
  const int layers = rings + 2;
  const double pi = std::acos(-1.0);
  std::vector<Point> p;
  const double height = 0.8 * (layers + 1);
  p.push_back({0, 0, height / 2});
  for (int i = 1; i <= layers; ++i)
    for (int a = 0; a < 5; ++a) {
      const double angle = (a + 0.5 * i) * 2 * pi / 5;
      p.push_back({std::cos(angle), std::sin(angle), height / 2 - 0.8 * i});
    }
  p.push_back({0, 0, -height / 2});
  const int bottom = static_cast<int>(p.size()) - 1;
  const auto ring = [](int i, int a) { return 1 + 5 * (i - 1) + (a + 5) % 5; };
  // Each face's neighbours in cyclic order, clockwise seen from outside: along its ring to
  // a-1, the layer above (at angles a-1/2 and a+1/2, or the top face), along its ring to a+1,
  // the layer below (at a+1/2 and a-1/2, or the bottom face).
  std::vector<std::vector<int>> nbrs(p.size());
  for (int a = 0; a < 5; ++a) {
    nbrs[0].push_back(ring(1, -a));
    nbrs[bottom].push_back(ring(layers, a));
  }
  for (int i = 1; i <= layers; ++i)
    for (int a = 0; a < 5; ++a) {
      auto& n = nbrs[ring(i, a)];
      n.push_back(ring(i, a - 1));
      if (i == 1) {
        n.push_back(0);
      } else {
        n.insert(n.end(), {ring(i - 1, a), ring(i - 1, a + 1)});
      }
      n.push_back(ring(i, a + 1));
      if (i == layers) {
        n.push_back(bottom);
      } else {
        n.insert(n.end(), {ring(i + 1, a), ring(i + 1, a - 1)});
      }
    }
  // The geometric sort (with_rotation) only picks where each list starts, as it always has, so
  // the generator's order is that of earlier versions. It cannot order the lists itself: seen
  // from the origin, the faces near the ends of a long tube lie almost along its axis, and from
  // C140 on their neighbours come out of order.
  Triangulation t = with_rotation(p, nbrs);
  for (int v = 0; v < t.size(); ++v) {
    const auto& n = nbrs[static_cast<std::size_t>(v)];
    const auto first = std::find(n.begin(), n.end(), t.adj[v][0]);
    for (std::size_t k = 0; k < n.size(); ++k)
      t.adj[v][k] = n[(static_cast<std::size_t>(first - n.begin()) + k) % n.size()];
  }
  return t;
}

Triangulation c28_td_dual() {
  // The four hexagons sit on the vertices of a tetrahedron and no two touch. Each tetrahedron
  // edge carries two pentagons, one towards each of its two triangles; the partners touch each
  // other and both hexagons of the edge, and the three pentagons on the same triangle touch.
  const std::array<Point, 4> hex{Point{1, 1, 1}, Point{1, -1, -1}, Point{-1, 1, -1}, Point{-1, -1, 1}};
  std::vector<Point> p(hex.begin(), hex.end());
  struct Pent {
    int i, j, face;  // edge {i, j}; face = the tetrahedron vertex opposite the triangle
  };
  std::vector<Pent> pents;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        if (k == i || k == j) continue;
        const int opposite = 6 - i - j - k;  // the triangle {i, j, k} is opposite this vertex
        const Point mid = unit({hex[i][0] + hex[j][0], hex[i][1] + hex[j][1], hex[i][2] + hex[j][2]});
        const Point towards = unit({-hex[opposite][0], -hex[opposite][1], -hex[opposite][2]});
        p.push_back(unit({mid[0] + 0.6 * towards[0], mid[1] + 0.6 * towards[1], mid[2] + 0.6 * towards[2]}));
        pents.push_back({i, j, opposite});
      }
  std::vector<std::vector<int>> nbrs(p.size());
  const auto join = [&](int a, int b) {
    nbrs[a].push_back(b);
    nbrs[b].push_back(a);
  };
  for (std::size_t a = 0; a < pents.size(); ++a) {
    const int va = 4 + static_cast<int>(a);
    join(va, pents[a].i);
    join(va, pents[a].j);
    for (std::size_t b = a + 1; b < pents.size(); ++b) {
      const bool same_edge = pents[a].i == pents[b].i && pents[a].j == pents[b].j;
      const bool same_face = pents[a].face == pents[b].face;
      if (same_edge || same_face) join(va, 4 + static_cast<int>(b));
    }
  }
  return with_rotation(p, nbrs);
}

}  // namespace molstep::fullerene
