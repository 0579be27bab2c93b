// SPDX-License-Identifier: MIT
#include "molstep/fullerene/canonical.hpp"

#include <array>
#include <vector>

namespace molstep::fullerene {

namespace {

/// bfs_code, compiled once with the comparison against `best` and once without (the generator's
/// codes for its sibling check only write: each entry is then a store).
template <bool kCompare>
int bfs_code_impl(const PlanarMap& m, int v, int w, int s, const std::uint8_t* best, std::uint8_t* out) {
  std::array<std::uint8_t, PlanarMap::kMaxVertices> number{};
  // Written before they are read: left uninitialised.
  std::array<std::uint8_t, PlanarMap::kMaxVertices> queue;
  std::array<std::uint8_t, PlanarMap::kMaxVertices> first;  // position of the arc a vertex was reached by
  int order = 0;
  int head = 0;
  int tail = 0;
  int pos = 0;
  int cmp = 0;  // nonzero once the code has departed from best
  // emit() returns true once the code has become larger than best: it is then abandoned.
  const auto emit = [&](std::uint8_t value) {
    if constexpr (kCompare)
      if (cmp == 0 && value != best[pos]) cmp = value < best[pos] ? -1 : 1;
    out[pos++] = value;
    return kCompare && cmp > 0;
  };
  number[v] = static_cast<std::uint8_t>(++order);
  first[v] = static_cast<std::uint8_t>(m.slot_of(v, w));
  queue[tail++] = static_cast<std::uint8_t>(v);
  while (head < tail) {
    const int x = queue[head++];
    const int d = m.deg[x];
    int i = first[x];
    for (int k = 0; k < d; ++k) {
      const int y = m.adj[x][i];
      if (number[y] == 0) {
        number[y] = static_cast<std::uint8_t>(++order);
        first[y] = static_cast<std::uint8_t>(m.slot_of(y, x));
        queue[tail++] = static_cast<std::uint8_t>(y);
      }
      if (emit(number[y])) return 1;
      i = PlanarMap::wrap(d, i + s);
    }
    if (emit(0)) return 1;
  }
  return cmp;
}

}  // namespace

int bfs_code(const PlanarMap& m, int v, int w, int s, const std::uint8_t* best, std::uint8_t* out) {
  return best == nullptr ? bfs_code_impl<false>(m, v, w, s, nullptr, out) : bfs_code_impl<true>(m, v, w, s, best, out);
}

int bfs_compare(const PlanarMap& m, int va, int wa, int sa, int vb, int wb, int sb) {
  // While the codes agree, both searches have numbered the same count of vertices and queued
  // them in the same order, so one counter and one queue position serve both.
  std::array<std::uint8_t, PlanarMap::kMaxVertices> number_a{};
  std::array<std::uint8_t, PlanarMap::kMaxVertices> number_b{};
  // Written before they are read: left uninitialised.
  std::array<std::uint8_t, PlanarMap::kMaxVertices> queue_a;
  std::array<std::uint8_t, PlanarMap::kMaxVertices> queue_b;
  std::array<std::uint8_t, PlanarMap::kMaxVertices> first_a;
  std::array<std::uint8_t, PlanarMap::kMaxVertices> first_b;
  int order = 1;
  number_a[va] = 1;
  number_b[vb] = 1;
  first_a[va] = static_cast<std::uint8_t>(m.slot_of(va, wa));
  first_b[vb] = static_cast<std::uint8_t>(m.slot_of(vb, wb));
  queue_a[0] = static_cast<std::uint8_t>(va);
  queue_b[0] = static_cast<std::uint8_t>(vb);
  int tail = 1;
  for (int head = 0; head < tail; ++head) {
    const int xa = queue_a[head];
    const int xb = queue_b[head];
    const int da = m.deg[xa];
    const int db = m.deg[xb];
    int ia = first_a[xa];
    int ib = first_b[xb];
    for (int k = 0; k < std::min(da, db); ++k) {
      const int ya = m.adj[xa][ia];
      const int yb = m.adj[xb][ib];
      const int na = number_a[ya];
      const int nb = number_b[yb];
      if (na != nb) {
        // A vertex met for the first time gets order+1, above every number given so far.
        const int ea = na == 0 ? order + 1 : na;
        const int eb = nb == 0 ? order + 1 : nb;
        return ea < eb ? -1 : 1;
      }
      if (na == 0) {
        ++order;
        number_a[ya] = static_cast<std::uint8_t>(order);
        number_b[yb] = static_cast<std::uint8_t>(order);
        first_a[ya] = static_cast<std::uint8_t>(m.slot_of(ya, xa));
        first_b[yb] = static_cast<std::uint8_t>(m.slot_of(yb, xb));
        queue_a[tail] = static_cast<std::uint8_t>(ya);
        queue_b[tail] = static_cast<std::uint8_t>(yb);
        ++tail;
      }
      ia = PlanarMap::wrap(da, ia + sa);
      ib = PlanarMap::wrap(db, ib + sb);
    }
    // The shorter list ends (with 0) where the longer one still lists a neighbour (>= 1).
    if (da != db) return da < db ? -1 : 1;
  }
  return 0;
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
