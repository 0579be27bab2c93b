// SPDX-License-Identifier: MIT
#include "molstep/fullerene/ipr_roots.hpp"

#include <array>

#include "molstep/fullerene/generator.hpp"

namespace molstep::fullerene {

bool reduces_within_ipr(const PlanarMap& g, const RowOp& row, PlanarMap& scratch) {
  std::array<int, PlanarMap::kMaxVertices> path;  // only path[0..m] and target[0..m] are used
  std::array<int, PlanarMap::kMaxVertices> target;
  std::array<int, 2> corners{};
  return row_slides(g, row, path.data(), target.data(), corners) &&
         reduces_within_ipr(g, row, path.data(), target.data(), corners, scratch);
}

bool reduces_within_ipr_3(const PlanarMap& g, const RowOp& row, int end, PlanarMap& scratch,
                          const std::array<int, 2>& as_hexagons) {
  const std::array<int, 3> path{row.r0, row.r1, end};
  std::array<int, 3> target;
  std::array<int, 2> corners;
  slides_of_walked_row(g, row, path.data(), target.data(), corners);
  return reduces_within_ipr(g, row, path.data(), target.data(), corners, scratch, as_hexagons);
}

bool reduces_within_ipr(const PlanarMap& g, const RowOp& row, const int* path, const int* target,
                        const std::array<int, 2>& corners, PlanarMap& scratch,
                        const std::array<int, 2>& as_hexagons) {
  const int m = row.m;
  if (row.size() > kRowsAlwaysListed && !undone_by_listed_expansion(row, path, target, corners)) return false;
  // Read off g: contract() merges each row vertex r_j into target_j and makes the two corners
  // degree-5 vertices; every other vertex keeps its degree. g is IPR, so two pentagons of the
  // reduced map can only meet where the reduction makes new neighbours: at a corner (its own
  // neighbours, and those of a row vertex merged into it, each where it ends up), or at a target
  // that is a pentagon, which takes in the neighbours of the row vertex merged into it (a pentagon
  // on the row's far side meets that target there, so it is found from the target's side).
  VertexSet on_row;
  for (int j = 0; j <= m; ++j) on_row.add(path[j]);
  const auto merged = [&](int v) {
    if (!on_row.has(v)) return v;
    for (int j = 0; j <= m; ++j)
      if (path[j] == v) return target[j];
    return v;
  };
  // For a vertex of the reduced map (never on the row).
  const auto old_pentagon = [&](int v) { return g.deg[v] == 5 && v != as_hexagons[0] && v != as_hexagons[1]; };
  const auto pentagon = [&](int v) { return old_pentagon(v) || v == corners[0] || v == corners[1]; };
  // True when a neighbour of x other than v is, where it ends up, a pentagon.
  const auto meets_pentagon = [&](int x, int v) {
    for (int i = 0; i < g.deg[x]; ++i) {
      const int w = merged(g.adj[x][i]);
      if (w != v && pentagon(w)) return true;
    }
    return false;
  };
  for (const int c : corners) {
    if (meets_pentagon(c, c)) return false;
    for (int j = 0; j <= m; ++j)
      if (target[j] == c && meets_pentagon(path[j], c)) return false;
  }
  for (int j = 0; j <= m; ++j)
    if (old_pentagon(target[j]) && meets_pentagon(path[j], target[j])) return false;
  // A long row may not contract at all (its closing zip can meet itself): do it on a copy, but
  // only when the reading above passes (it never refused a long row that the copy accepted in the
  // searches of IPR C126 and C132; ReductionWithinIprReadOffTheMapAgreesWithContracting checks
  // it on rows of up to 10 faces).
  if (row.size() > kRowsAlwaysValid) {
    scratch.copy_from(g);
    return contract(scratch, row) && is_ipr(scratch);
  }
  return true;
}

bool reduces_to_smaller_ipr(const PlanarMap& g) {
  bool reduces = false;
  PlanarMap scratch;
  for_each_reduction(g, g.nv, [&](const RowOp& row) {
    reduces = reduces_within_ipr(g, row, scratch);
    return !reduces;
  });
  return reduces;
}

const std::vector<Spiral>& irreducible_ipr_fullerenes() {
  // Output of `molstep_irreducible_ipr 60 140 2` (bench/fullerene_irreducible_ipr.cpp; 6.6 minutes
  // on two cores of the development VM), 76 fullerenes, then of `molstep_irreducible_ipr 142 150
  // 16 16`, `152 156 16 16` and `158 160 16 16` (5.9, 6.7 and 6.4 minutes on the 16 cores of the
  // H100 host; within each N sorted by spiral), 11 more: 87 fullerenes, many of them nanotubes.
  static const std::vector<Spiral> list{
      Spiral{60, {1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32}},
      Spiral{70, {1, 7, 9, 11, 13, 15, 27, 29, 31, 33, 35, 37}},
      Spiral{72, {1, 7, 9, 11, 13, 18, 22, 24, 27, 34, 36, 38}},
      Spiral{74, {1, 7, 9, 11, 14, 23, 26, 28, 30, 32, 35, 38}},
      Spiral{76, {1, 7, 9, 11, 13, 18, 26, 31, 33, 35, 37, 39}},
      Spiral{76, {1, 7, 9, 12, 14, 21, 26, 28, 30, 33, 35, 38}},
      Spiral{78, {1, 7, 9, 11, 14, 22, 26, 28, 30, 34, 39, 41}},
      Spiral{78, {1, 7, 9, 11, 15, 18, 22, 25, 33, 37, 39, 41}},
      Spiral{78, {1, 7, 9, 12, 14, 21, 26, 28, 30, 34, 39, 41}},
      Spiral{78, {1, 7, 9, 11, 13, 20, 25, 28, 32, 34, 36, 38}},
      Spiral{80, {1, 8, 10, 12, 14, 16, 28, 30, 32, 34, 36, 42}},
      Spiral{80, {1, 7, 9, 11, 14, 23, 28, 30, 33, 35, 37, 39}},
      Spiral{80, {1, 7, 9, 11, 14, 22, 27, 30, 34, 36, 38, 40}},
      Spiral{80, {1, 7, 9, 12, 14, 20, 26, 28, 32, 34, 39, 42}},
      Spiral{80, {1, 7, 9, 11, 13, 18, 25, 30, 32, 34, 36, 42}},
      Spiral{80, {1, 7, 9, 11, 13, 15, 28, 30, 32, 34, 36, 42}},
      Spiral{80, {1, 7, 10, 12, 14, 19, 26, 28, 32, 34, 39, 42}},
      Spiral{82, {1, 7, 9, 11, 14, 22, 27, 29, 31, 34, 36, 43}},
      Spiral{82, {1, 7, 9, 12, 14, 20, 27, 29, 32, 34, 36, 43}},
      Spiral{82, {1, 7, 9, 11, 13, 24, 26, 29, 31, 33, 37, 43}},
      Spiral{82, {1, 7, 9, 12, 14, 20, 27, 32, 34, 36, 38, 40}},
      Spiral{82, {1, 7, 9, 11, 13, 24, 27, 29, 31, 33, 36, 43}},
      Spiral{82, {1, 7, 9, 13, 20, 22, 26, 28, 30, 35, 41, 43}},
      Spiral{82, {1, 7, 10, 12, 14, 18, 26, 30, 32, 34, 37, 43}},
      Spiral{82, {1, 7, 9, 11, 14, 22, 26, 29, 31, 34, 37, 43}},
      Spiral{84, {1, 7, 9, 11, 14, 22, 27, 29, 31, 35, 41, 43}},
      Spiral{84, {1, 7, 9, 12, 14, 20, 27, 29, 32, 35, 41, 43}},
      Spiral{84, {1, 7, 9, 11, 13, 18, 24, 35, 38, 40, 42, 44}},
      Spiral{84, {1, 7, 9, 13, 20, 22, 25, 28, 30, 34, 37, 44}},
      Spiral{84, {1, 7, 9, 12, 20, 24, 26, 28, 30, 33, 36, 44}},
      Spiral{84, {1, 7, 9, 13, 20, 22, 25, 28, 30, 37, 41, 43}},
      Spiral{84, {1, 7, 9, 13, 20, 22, 26, 28, 30, 34, 36, 44}},
      Spiral{84, {1, 7, 9, 13, 20, 23, 25, 28, 33, 37, 39, 41}},
      Spiral{84, {1, 7, 10, 13, 19, 22, 25, 28, 30, 34, 37, 44}},
      Spiral{84, {1, 7, 10, 13, 18, 22, 25, 27, 31, 34, 38, 44}},
      Spiral{84, {1, 7, 9, 12, 20, 24, 26, 28, 30, 33, 42, 44}},
      Spiral{86, {1, 7, 9, 12, 20, 24, 27, 30, 34, 37, 39, 42}},
      Spiral{88, {1, 7, 9, 12, 24, 27, 31, 33, 35, 38, 40, 42}},
      Spiral{88, {1, 7, 9, 11, 13, 18, 33, 35, 38, 40, 42, 44}},
      Spiral{88, {1, 7, 9, 11, 14, 22, 27, 35, 38, 40, 42, 46}},
      Spiral{90, {1, 7, 9, 11, 13, 24, 27, 38, 40, 42, 44, 47}},
      Spiral{90, {1, 7, 9, 11, 13, 15, 37, 39, 41, 43, 45, 47}},
      Spiral{92, {1, 7, 12, 14, 19, 22, 29, 32, 37, 39, 44, 48}},
      Spiral{92, {1, 7, 9, 11, 14, 30, 33, 35, 37, 39, 41, 48}},
      Spiral{92, {1, 7, 9, 11, 13, 18, 32, 34, 37, 44, 46, 48}},
      Spiral{96, {1, 7, 9, 11, 13, 18, 36, 41, 43, 45, 47, 49}},
      Spiral{96, {1, 7, 9, 11, 13, 20, 34, 37, 40, 45, 47, 49}},
      Spiral{96, {1, 7, 9, 11, 13, 20, 36, 39, 43, 45, 47, 49}},
      Spiral{96, {1, 7, 9, 11, 13, 24, 36, 39, 41, 43, 47, 49}},
      Spiral{98, {1, 7, 10, 12, 25, 28, 30, 32, 36, 39, 45, 50}},
      Spiral{100, {1, 8, 10, 12, 14, 16, 37, 39, 41, 43, 45, 52}},
      Spiral{100, {1, 7, 9, 11, 13, 18, 35, 40, 42, 44, 46, 52}},
      Spiral{100, {1, 7, 9, 11, 13, 15, 38, 40, 42, 44, 46, 52}},
      Spiral{104, {1, 7, 9, 11, 13, 18, 34, 45, 48, 50, 52, 54}},
      Spiral{108, {1, 7, 11, 18, 21, 26, 37, 40, 43, 46, 48, 52}},
      Spiral{108, {1, 7, 9, 11, 13, 18, 43, 45, 48, 50, 52, 54}},
      Spiral{110, {1, 7, 9, 11, 13, 15, 47, 49, 51, 53, 55, 57}},
      Spiral{112, {1, 7, 9, 11, 13, 18, 42, 44, 47, 54, 56, 58}},
      Spiral{112, {1, 8, 10, 14, 30, 34, 36, 38, 40, 42, 54, 56}},
      Spiral{114, {1, 7, 9, 11, 13, 20, 44, 47, 50, 54, 56, 58}},
      Spiral{114, {1, 7, 9, 11, 13, 20, 45, 48, 51, 53, 55, 57}},
      Spiral{116, {1, 7, 9, 11, 13, 18, 46, 51, 53, 55, 57, 59}},
      Spiral{120, {1, 8, 10, 12, 14, 16, 47, 49, 51, 53, 55, 62}},
      Spiral{120, {1, 7, 9, 11, 13, 18, 45, 50, 52, 54, 56, 62}},
      Spiral{120, {1, 7, 9, 11, 13, 15, 48, 50, 52, 54, 56, 62}},
      Spiral{120, {1, 8, 10, 12, 14, 16, 48, 50, 52, 54, 56, 62}},
      Spiral{124, {1, 7, 9, 11, 13, 18, 44, 55, 58, 60, 62, 64}},
      Spiral{128, {1, 7, 9, 11, 13, 18, 53, 55, 58, 60, 62, 64}},
      Spiral{130, {1, 7, 9, 11, 13, 15, 57, 59, 61, 63, 65, 67}},
      Spiral{132, {1, 7, 9, 11, 13, 20, 54, 57, 60, 62, 64, 66}},
      Spiral{132, {1, 7, 9, 11, 13, 20, 53, 56, 59, 63, 65, 67}},
      Spiral{132, {1, 7, 9, 11, 13, 18, 52, 54, 57, 64, 66, 68}},
      Spiral{136, {1, 7, 9, 11, 13, 18, 56, 61, 63, 65, 67, 69}},
      Spiral{140, {1, 8, 10, 12, 14, 16, 57, 59, 61, 63, 65, 72}},
      Spiral{140, {1, 7, 9, 11, 13, 15, 58, 60, 62, 64, 66, 72}},
      Spiral{140, {1, 7, 9, 11, 13, 18, 55, 60, 62, 64, 66, 72}},
      Spiral{144, {1, 7, 9, 11, 13, 18, 54, 65, 68, 70, 72, 74}},
      Spiral{148, {1, 7, 9, 11, 13, 18, 63, 65, 68, 70, 72, 74}},
      Spiral{150, {1, 7, 9, 11, 13, 15, 67, 69, 71, 73, 75, 77}},
      Spiral{150, {1, 7, 9, 11, 13, 20, 62, 65, 68, 72, 74, 76}},
      Spiral{150, {1, 7, 9, 11, 13, 20, 64, 67, 70, 72, 74, 76}},
      Spiral{152, {1, 7, 9, 11, 13, 18, 62, 64, 67, 74, 76, 78}},
      Spiral{156, {1, 7, 9, 11, 13, 18, 66, 71, 73, 75, 77, 79}},
      Spiral{160, {1, 7, 9, 11, 13, 15, 68, 70, 72, 74, 76, 82}},
      Spiral{160, {1, 7, 9, 11, 13, 18, 65, 70, 72, 74, 76, 82}},
      Spiral{160, {1, 8, 10, 12, 14, 16, 67, 69, 71, 73, 75, 82}},
      Spiral{160, {1, 8, 10, 12, 14, 16, 68, 70, 72, 74, 76, 82}}};
  return list;
}

}  // namespace molstep::fullerene
