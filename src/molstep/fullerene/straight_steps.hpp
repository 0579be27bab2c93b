// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>

#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

/// The straight step of every directed edge of a map that is walked many times while it does not
/// change (the parent whose expansions the search lists): arriving at `cur` from its neighbour in
/// position `in`, the walk goes on three places on in orientation s, to `next`, where `cur` is in
/// position `next_in`, and passes the neighbours of `cur` one and two places on. A walk then reads
/// one entry a step, where PlanarMap::index_of and at() make a step a chain of five dependent
/// loads (the two were 29% of the samples of IPR C130, which takes 2.77 s on one core with the
/// table and 2.95 s without).
struct StraightSteps {
  struct Step {
    std::uint8_t next;
    std::uint8_t next_in;
    std::uint8_t one;  ///< the neighbour of cur one place on from the arrival (in orientation s)
    std::uint8_t two;  ///< two places on
  };
  /// [0] orientation +1, [1] orientation -1; entry cur * kMaxDegree + in.
  std::array<std::array<Step, PlanarMap::kMaxVertices * PlanarMap::kMaxDegree>, 2> table;

  /// Fills the steps of every directed edge of h (degrees 5 and 6, as in a fullerene dual).
  void fill(const PlanarMap& h) {
    for (int v = 0; v < h.nv; ++v) {
      const int d = h.deg[v];
      // back[i]: where v sits round its i-th neighbour (each is the next face of two steps).
      std::array<std::uint8_t, PlanarMap::kMaxDegree> back{};
      for (int i = 0; i < d; ++i) back[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h.slot_of(h.adj[v][i], v));
      for (int i = 0; i < d; ++i) {
        const auto slot = static_cast<std::size_t>(v * PlanarMap::kMaxDegree + i);
        for (const int s : {1, -1}) {
          const int n = PlanarMap::wrap(d, i + 3 * s);
          table[s > 0 ? 0 : 1][slot] = Step{h.adj[v][n], back[n], h.adj[v][PlanarMap::wrap(d, i + s)],
                                            h.adj[v][PlanarMap::wrap(d, i + 2 * s)]};
        }
      }
    }
  }
  [[nodiscard]] Step after(int cur, int in, int s) const {
    return table[s > 0 ? 0 : 1][static_cast<std::size_t>(cur * PlanarMap::kMaxDegree + in)];
  }
};

}  // namespace molstep::fullerene
