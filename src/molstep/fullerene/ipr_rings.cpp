// SPDX-License-Identifier: MIT
// Irreducible IPR fullerenes past the exhaustive list: nanotubes made longer by a ring.
//
// Past C112 every irreducible IPR fullerene of the exhaustive list (ipr_roots.cpp) is a nanotube
// that is one ring of 9 or 10 hexagons longer than an irreducible IPR fullerene 18 or 20 atoms
// smaller: Goedgebeur and McKay's construction of IPR fullerenes (BuckyGen, 2015) rests on the
// same fact, with four ring families ((9,0), (10,0), (5,5) and the (2,8)/(8,2) pair). A ring is
// inserted into a face spiral by shifting every pentagon after some position by the ring's size:
// a spiral that runs up the tube from one cap passes the ring's faces one after the other. The
// twist with which the ring goes in depends on where the spiral starts, so every face spiral of
// the shorter tube is shifted, at every split between two pentagons. Each result that closes to
// an IPR fullerene with no reduction within IPR fullerenes is kept (both are checked exactly, so
// nothing here can add a fullerene that is not irreducible); grown from the list up to C112 this
// gives exactly the list from C114 to C160 (test IrreducibleIprTubesGrowIntoTheExhaustiveList).
#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ipr_roots.hpp"

namespace molstep::fullerene {

std::vector<Spiral> irreducible_ipr_grown(const std::vector<Spiral>& smaller, int atoms) {
  std::map<std::string, Spiral> found;  // by name: each isomer once, in name order
  for (const Spiral& tube : smaller) {
    const int ring = (atoms - tube.atoms) / 2;
    if (ring != kIprRingFaces[0] && ring != kIprRingFaces[1]) continue;
    const Triangulation t = triangulation_from_spiral(tube);
    std::set<std::array<int, 12>> spirals;
    for (int first = 0; first < t.size(); ++first)
      for (int j = 0; j < t.degree[first]; ++j)
        for (const bool clockwise : {true, false})
          if (auto p = spiral_from(t, first, t.adj[first][j], clockwise)) spirals.insert(*p);
    for (const std::array<int, 12>& p : spirals)
      for (int split = 1; split < 12; ++split) {
        std::array<int, 12> longer = p;
        for (int k = split; k < 12; ++k) longer[static_cast<std::size_t>(k)] += ring;
        Triangulation grown;
        try {
          grown = triangulation_from_spiral(atoms, longer);
        } catch (const Error&) {
          continue;  // the shifted spiral does not close: the split is not in the tube
        }
        const PlanarMap m = as_planar_map(grown);
        if (!is_ipr(m) || reduces_to_smaller_ipr(m)) continue;
        Spiral name = canonical_general_spiral(grown);
        found.emplace(format_spiral(name), std::move(name));
      }
  }
  std::vector<Spiral> grown;
  for (auto& [name, spiral] : found) grown.push_back(std::move(spiral));
  return grown;
}

std::vector<Spiral> irreducible_ipr_fullerenes_up_to(int atoms) {
  // Grown once per size and kept: C162 to C400 take a few seconds.
  static std::mutex mutex;
  static std::vector<Spiral> list = irreducible_ipr_fullerenes();
  static int complete = kIrreducibleIprComplete;
  const std::lock_guard<std::mutex> lock(mutex);
  for (int n = complete + 2; n <= atoms; n += 2) {
    std::vector<Spiral> smaller;
    for (const Spiral& s : list)
      if (s.atoms == n - 2 * kIprRingFaces[0] || s.atoms == n - 2 * kIprRingFaces[1]) smaller.push_back(s);
    for (Spiral& s : irreducible_ipr_grown(smaller, n)) list.push_back(std::move(s));
    complete = n;
  }
  std::vector<Spiral> up_to;
  for (const Spiral& s : list)
    if (s.atoms <= atoms) up_to.push_back(s);
  return up_to;
}

}  // namespace molstep::fullerene
