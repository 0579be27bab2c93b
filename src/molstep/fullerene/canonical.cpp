// SPDX-License-Identifier: MIT
#include "molstep/fullerene/canonical.hpp"

#include <array>
#include <vector>

namespace molstep::fullerene {

int bfs_code(const PlanarMap& m, int v, int w, int s, const std::uint8_t* best, std::uint8_t* out) {
  std::array<std::uint8_t, PlanarMap::kMaxVertices> number{};
  std::array<std::uint8_t, PlanarMap::kMaxVertices> queue{};
  std::array<std::uint8_t, PlanarMap::kMaxVertices> first{};  // position of the arc a vertex was reached by
  int order = 0;
  int head = 0;
  int tail = 0;
  int pos = 0;
  int cmp = best == nullptr ? 1 : 0;  // nonzero once the code has departed from best
  const auto emit = [&](std::uint8_t value) {
    if (cmp == 0 && value != best[pos]) cmp = value < best[pos] ? -1 : 1;
    out[pos++] = value;
    return cmp > 0 && best != nullptr;
  };
  number[v] = static_cast<std::uint8_t>(++order);
  first[v] = static_cast<std::uint8_t>(m.index_of(v, w));
  queue[tail++] = static_cast<std::uint8_t>(v);
  while (head < tail) {
    const int x = queue[head++];
    const int d = m.deg[x];
    int i = first[x];
    for (int k = 0; k < d; ++k) {
      const int y = m.adj[x][i];
      if (number[y] == 0) {
        number[y] = static_cast<std::uint8_t>(++order);
        first[y] = static_cast<std::uint8_t>(m.index_of(y, x));
        queue[tail++] = static_cast<std::uint8_t>(y);
      }
      if (emit(number[y])) return 1;
      i += s;
      if (i == d) i = 0;
      if (i < 0) i = d - 1;
    }
    if (emit(0)) return 1;
  }
  return best == nullptr ? 0 : cmp;
}

std::string canonical_code(const Triangulation& t) {
  const PlanarMap m = as_planar_map(t);
  const int len = bfs_code_length(m.nv);
  std::vector<std::uint8_t> best(static_cast<std::size_t>(len));
  std::vector<std::uint8_t> work(static_cast<std::size_t>(len));
  bool have = false;
  for (int v = 0; v < m.nv; ++v)
    for (int i = 0; i < m.deg[v]; ++i)
      for (const int s : {1, -1}) {
        if (bfs_code(m, v, m.adj[v][i], s, have ? best.data() : nullptr, work.data()) < 0 || !have) {
          best.swap(work);
          have = true;
        }
      }
  return {best.begin(), best.end()};
}

}  // namespace molstep::fullerene
