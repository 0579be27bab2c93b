// SPDX-License-Identifier: MIT
// Tutte embedding and spherical projection: the barycentre equations hold, the drawing has no
// crossings, and the starting geometry has distinct atoms at the requested scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/embed.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "support/fullerene_isomers.hpp"

namespace {

using namespace molstep::fullerene;

using molstep::test::from_spiral;

/// C20-Ih, C28-Td, a C40, C60-Ih, C70-D5h and two C200 (the generator's first isomer and its
/// first IPR isomer).
std::vector<CubicGraph> isomers() {
  return {from_spiral(20, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
          from_spiral(28, {1, 2, 3, 5, 7, 9, 10, 11, 12, 13, 14, 15}),
          from_spiral(40, {1, 2, 3, 4, 11, 12, 15, 16, 19, 20, 21, 22}),
          from_spiral(60, {1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32}),
          from_spiral(70, {1, 7, 9, 11, 13, 15, 27, 29, 31, 33, 35, 37}),
          from_spiral(200, {1, 2, 9, 11, 18, 42, 81, 90, 94, 97, 98, 101}),
          from_spiral(200, {1, 7, 10, 28, 32, 53, 76, 83, 85, 90, 96, 100})};
}

double signed_area(const std::vector<int>& face, const std::vector<std::array<double, 2>>& xy) {
  double s = 0;
  for (std::size_t i = 0; i < face.size(); ++i) {
    const auto& p = xy[face[i]];
    const auto& q = xy[face[(i + 1) % face.size()]];
    s += p[0] * q[1] - p[1] * q[0];
  }
  return 0.5 * s;
}

}  // namespace

TEST(FullereneGeometry, OuterFaceIsTheFaceOfTheFirstArc) {
  const CubicGraph g = from_spiral(60, {1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32});
  const std::vector<int> outer = outer_face(g);
  ASSERT_GE(outer.size(), 5u);
  EXPECT_EQ(outer[0], 0);
  EXPECT_EQ(outer[1], g.adj[0][0]);
  EXPECT_EQ(static_cast<int>(outer.size()), g.face_size(0, g.adj[0][0]));
  for (std::size_t i = 0; i + 2 < outer.size(); ++i) EXPECT_EQ(outer[i + 2], g.next_on_face(outer[i], outer[i + 1]));
}

TEST(FullereneGeometry, TutteLayoutPutsEveryFreeAtomAtItsNeighboursBarycentre) {
  for (const CubicGraph& g : isomers()) {
    const auto xy = tutte_layout(g);
    std::vector<bool> fixed(g.size(), false);
    for (const int v : outer_face(g)) {
      fixed[v] = true;
      EXPECT_NEAR(std::hypot(xy[v][0], xy[v][1]), 1.0, 1e-14);
    }
    for (int v = 0; v < g.size(); ++v) {
      if (fixed[v]) continue;
      for (int c = 0; c < 2; ++c) {
        const double barycentre = (xy[g.adj[v][0]][c] + xy[g.adj[v][1]][c] + xy[g.adj[v][2]][c]) / 3.0;
        EXPECT_NEAR(xy[v][c], barycentre, 1e-10) << "C" << g.size() << " atom " << v;
      }
    }
  }
}

TEST(FullereneGeometry, TutteLayoutHasNoCrossings) {
  // Every inner face is positively oriented and together they tile the outer polygon exactly:
  // a face folded over another would have to overlap it and the areas would not add up.
  for (const CubicGraph& g : isomers()) {
    const auto xy = tutte_layout(g);
    const std::vector<int> outer = outer_face(g);
    const double h = static_cast<double>(outer.size());
    const double polygon = 0.5 * h * std::sin(2 * std::numbers::pi / h);
    double total = 0;
    int inner = 0;
    for (const std::vector<int>& f : faces(g)) {
      if (f.size() == outer.size() && std::is_permutation(f.begin(), f.end(), outer.begin())) continue;
      ++inner;
      const double area = signed_area(f, xy);
      EXPECT_GT(area, 0.0) << "C" << g.size() << " face of atom " << f[0];
      total += area;
    }
    EXPECT_EQ(inner, g.size() / 2 + 1);
    EXPECT_NEAR(total, polygon, 1e-10) << "C" << g.size();
  }
}

TEST(FullereneGeometry, SphericalProjectionGivesDistinctAtomsAtTheRequestedScale) {
  for (const CubicGraph& g : isomers()) {
    for (const double mean_bond : {kProjectionMeanBond, 1.45}) {
      const auto x = spherical_projection(g, tutte_layout(g), mean_bond);
      ASSERT_EQ(static_cast<int>(x.size()), g.size());
      std::array<double, 3> centre{0, 0, 0};
      double bonds = 0, shortest_bond = 1e300, closest = 1e300;
      for (int v = 0; v < g.size(); ++v) {
        for (int c = 0; c < 3; ++c) centre[c] += x[v][c] / g.size();
        for (const int w : g.adj[v]) {
          const double r = std::hypot(x[v][0] - x[w][0], x[v][1] - x[w][1], x[v][2] - x[w][2]);
          bonds += r / (3.0 * g.size());
          shortest_bond = std::min(shortest_bond, r);
        }
        for (int w = 0; w < v; ++w)
          closest = std::min(closest, std::hypot(x[v][0] - x[w][0], x[v][1] - x[w][1], x[v][2] - x[w][2]));
      }
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(centre[c], 0.0, 1e-12);
      EXPECT_NEAR(bonds, mean_bond, 1e-12);
      EXPECT_GT(closest, 0.05 * mean_bond) << "C" << g.size();
      EXPECT_GT(shortest_bond, 0.05 * mean_bond) << "C" << g.size();
    }
  }
}

TEST(FullereneGeometry, SphericalProjectionRejectsALayoutOfTheWrongSize) {
  const CubicGraph g = from_spiral(20, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const std::vector<std::array<double, 2>> layout(10, {0.0, 0.0});
  EXPECT_THROW((void)spherical_projection(g, layout), molstep::Error);
}
