// SPDX-License-Identifier: MIT
// Template bodies of the enumerators declared in expansion.hpp (inlined into the generator loop).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "molstep/fullerene/straight_steps.hpp"

namespace molstep::fullerene {

template <class F>
void for_each_expansion(const PlanarMap& h, int max_size, F&& f) {
  for_each_expansion(h, 2, max_size, 0xfff, f);
}

template <class F>
void for_each_expansion(const PlanarMap& h, int min_size, int max_size, unsigned starts, F&& f) {
  const auto all = [](const Expansion&) { return true; };
  detail::expansions(h, min_size, max_size, ~std::uint64_t{0}, starts, false, all, f, false, VertexSet{}, nullptr);
}

template <class F>
void for_each_expansion_once(const PlanarMap& h, int min_size, int max_size, F&& f) {
  const auto all = [](const Expansion&) { return true; };
  detail::expansions(h, min_size, max_size, ~std::uint64_t{0}, 0xfff, true, all, f, false, VertexSet{}, nullptr);
}

template <class P, class F, class Set>
void for_each_ipr_expansion_once(const PlanarMap& h, int min_size, int max_size, std::uint64_t sizes, P&& pre, F&& f,
                                 const Set& empty, const LongEnds* long_ends) {
  detail::expansions(h, min_size, max_size, sizes, 0xfff, true, pre, f, true, empty, long_ends);
}

namespace detail {

/// Walks straight from `from` through its neighbour `to` in orientation s, three places on at
/// each step, calling step(i, c_i, c_{i-1}, in) at c_0 = to, c_1, ... (in: the position of c_{i-1},
/// or of `from` for c_0, round c_i) up to index max_i, a vertex met before on this walk (or
/// `from`), or step returning false. Marks the walk's vertices in `seen` with `walk`, a stamp
/// not used before. With `steps` (filled from h), each step is read from it.
template <class Step>
[[gnu::always_inline]] inline void walk_straight(const PlanarMap& h, const StraightSteps* steps, int from, int to,
                                                 int s, int max_i, std::array<int, PlanarMap::kMaxVertices>& seen,
                                                 int walk, Step&& step) {
  seen[from] = walk;
  int prev = from;
  int cur = to;
  int in = h.slot_of(cur, prev);
  for (int i = 0; i <= max_i; ++i) {
    if (seen[cur] == walk) return;
    seen[cur] = walk;
    if (!step(i, cur, prev, in)) return;
    prev = cur;
    if (steps != nullptr) {
      const StraightSteps::Step next = steps->after(cur, in, s);
      cur = next.next;
      in = next.next_in;
    } else {
      cur = h.at(cur, in, 3 * s);
      in = h.slot_of(cur, prev);
    }
  }
}

/// The straight walks of a map from each pentagon z, through each neighbour c_0, in each
/// orientation s, three places on at each c_i (walk (p * 5 + k) * 2 + (1 - s) / 2 from
/// h.pentagons[p] through its k-th neighbour), up to a repeated vertex: where they cross the
/// map (Crossing), and each walk's x: the vertex two places on from z round c_0, when it is a
/// pentagon.
struct StraightWalks {
  static constexpr int kWalks = 12 * 5 * 2;
  static constexpr int kSlots = PlanarMap::kMaxVertices * PlanarMap::kMaxDegree;
  /// The walks in orientation s that cross a directed edge u -> v (its slot: v and the position
  /// of u round v) going from c_{i-1} = u to c_i = v: bit i of `reach` for each (i >= 63 sets
  /// bit 63), bit p of `from` for a walk from h.pentagons[p], and in `ipr` all twelve bits for a
  /// walk whose x is not a pentagon, bit q for one whose x is h.pentagons[q]. Marks carry the
  /// stamp of the map they were made on, so the table is not cleared between maps.
  struct Crossing {
    std::uint64_t reach;
    std::uint32_t stamp;
    std::uint16_t from;
    std::uint16_t ipr;
  };
  std::array<std::array<Crossing, kSlots>, 2> crossing{};
  std::uint32_t stamp = 0;
  std::array<int, kWalks> x{};  // -1: not a pentagon
  std::array<std::int8_t, PlanarMap::kMaxVertices> pentagon_index{};  // of the pentagons only
  StraightSteps steps;  // of the map, filled by fill(); every walk of expansions() reads them

  /// Walks every straight walk of h up to index max_i, marking where it crosses the map.
  void fill(const PlanarMap& h, int max_i, std::array<int, PlanarMap::kMaxVertices>& seen, int& seen_stamp) {
    steps.fill(h);
    if (++stamp == 0) {
      for (auto& table : crossing)
        for (Crossing& c : table) c.stamp = 0;
      stamp = 1;
    }
    for (int p = 0; p < 12; ++p) pentagon_index[h.pentagons[static_cast<std::size_t>(p)]] = static_cast<std::int8_t>(p);
    for (int p = 0; p < 12; ++p) {
      const int z = h.pentagons[static_cast<std::size_t>(p)];
      for (int k = 0; k < 5; ++k)
        for (int o = 0; o < 2; ++o) {
          const int s = o == 0 ? 1 : -1;
          const int w = (p * 5 + k) * 2 + o;
          const int c0 = h.adj[z][k];
          const int x0 = h.at(c0, h.slot_of(c0, z), 2 * s);
          x[static_cast<std::size_t>(w)] = h.deg[x0] == 5 ? x0 : -1;
          const auto from = static_cast<std::uint16_t>(1U << p);
          const auto ipr = static_cast<std::uint16_t>(h.deg[x0] == 5 ? 1U << pentagon_index[x0] : 0xfffU);
          auto& table = crossing[static_cast<std::size_t>(o)];
          walk_straight(h, &steps, z, c0, s, max_i, seen, ++seen_stamp, [&](int i, int cur, int, int in) {
            if (i == 0) return true;
            Crossing& c = table[static_cast<std::size_t>(cur * PlanarMap::kMaxDegree + in)];
            const std::uint64_t bit = std::uint64_t{1} << std::min(i, 63);
            if (c.stamp != stamp) {
              c = Crossing{bit, stamp, from, ipr};
            } else {
              c.reach |= bit;
              c.from |= from;
              c.ipr |= ipr;
            }
            return true;
          });
        }
    }
  }
  /// The crossings of the directed edge into v from its neighbour in position `slot`, walks in
  /// orientation s (all zero: none).
  [[nodiscard]] Crossing crossings(int v, int slot, int s) const {
    const Crossing& c = crossing[static_cast<std::size_t>(s > 0 ? 0 : 1)][static_cast<std::size_t>(v * PlanarMap::kMaxDegree + slot)];
    return c.stamp == stamp ? c : Crossing{0, 0, 0, 0};
  }
};

/// Whether expansions of m + 1 vertices are listed, by `sizes` (expansions(): bit m, or all of
/// them when sizes is all ones).
inline bool size_listed(std::uint64_t sizes, int m) { return sizes == ~std::uint64_t{0} || (sizes >> m & 1U) != 0; }
/// Bit i set when expansions of j + i + 1 vertices are listed (as Crossing::reach counts from t_j).
inline std::uint64_t sizes_past(std::uint64_t sizes, int j) { return sizes == ~std::uint64_t{0} ? sizes : sizes >> j; }

/// The crossings of the straight walks from the pentagons (orientation -s) that a bend at t_j
/// can follow: the walk stands on cur = t_j, arriving from its neighbour in position `in`, and
/// bends two places on, to t_{j+1} = h.adj[cur][to_bend]; a bent leg goes at most `limit` faces
/// on (min(max_m, 2j) - j once, max_m - j otherwise), so `reach` keeps the indices 1..limit
/// (all zero when t_j cannot bend).
inline StraightWalks::Crossing bend_crossings(const PlanarMap& h, const StraightWalks& walks, int cur, int in, int s,
                                              int j, int max_m, bool once, int& to_bend, int& limit) {
  to_bend = PlanarMap::wrap(h.deg[cur], in + 2 * s);
  limit = (once ? std::min(max_m, 2 * j) : max_m) - j;
  if (j < 1 || limit < 1) return StraightWalks::Crossing{0, 0, 0, 0};
  StraightWalks::Crossing c = walks.crossings(cur, to_bend, -s);
  if (limit < 63) c.reach &= (std::uint64_t{2} << limit) - 1;
  return c;
}

/// Whether the straight walk from a0 = h.pentagons[p] through t0 in orientation s can end an
/// expansion at the pentagon x (min_m <= m <= max_m, once as in expansions()): a straight one
/// where x is the path's w_j (two places on round t_j), a bent one where a walk from x crosses
/// the bend (StraightWalks::Crossing).
inline bool reaches_pentagon(const PlanarMap& h, const StraightWalks& walks, int a0, int t0, int s, int x, int p,
                             int min_m, int max_m, std::uint64_t sizes, bool once,
                             std::array<int, PlanarMap::kMaxVertices>& seen, int& seen_stamp) {
  const unsigned q = static_cast<unsigned>(walks.pentagon_index[static_cast<std::size_t>(x)]);
  bool reaches = false;
  walk_straight(h, &walks.steps, a0, t0, s, max_m, seen, ++seen_stamp, [&](int j, int cur, int, int in) {
    int to_bend = 0;
    int limit = 0;
    const StraightWalks::Crossing c = bend_crossings(h, walks, cur, in, s, j, max_m, once, to_bend, limit);
    reaches = (j >= min_m && size_listed(sizes, j) && walks.steps.after(cur, in, s).two == x) ||
              ((c.reach & sizes_past(sizes, j)) != 0 && (c.from >> q & 1U) != 0 && (c.ipr >> p & 1U) != 0);
    return !reaches;
  });
  return reaches;
}

// Inlined into its caller (the generator's search), where its calls of pre and f are inlined in
// turn: left to itself gcc may not, and the IPR search then runs about 4% slower.
template <class P, class F, class Set>
[[gnu::always_inline]] inline void expansions(const PlanarMap& h, int min_size, int max_size, std::uint64_t sizes,
                                              unsigned starts, bool once, P& pre, F& f, bool ipr, const Set& empty,
                                              const LongEnds* long_ends) {
  if (max_size < 2) return;
  const int min_m = std::max(1, min_size - 1);
  const int max_m = max_size - 1;
  // Bit m: expansions of m + 1 vertices are listed; all of them when sizes is all ones, as it is
  // made past 64 vertices.
  if (max_m >= 64) sizes = ~std::uint64_t{0};
  // Long expansions (long_m vertices on, LongEnds) only from an end that qualifies: from the end
  // the once rule picks when both do, else from the one that does, whichever end that is. Such a
  // start walks its bends as far as max_m (not only as far as the once rule would).
  const bool restricted = long_ends != nullptr && long_ends->min_size > 0 && long_ends->min_size - 1 <= max_m;
  const int long_m = restricted ? long_ends->min_size - 1 : max_m + 1;
  std::array<int, PlanarMap::kMaxVertices> seen{};
  int stamp = 0;
  // The straight walks' crossings are marked before the expansions are listed (StraightWalks);
  // f may start the walks of a child (the generator's search), so each call nested in another
  // on this thread has its own.
  thread_local std::vector<std::unique_ptr<StraightWalks>> walks_by_depth;
  thread_local std::size_t depth = 0;
  if (walks_by_depth.size() <= depth) walks_by_depth.push_back(std::make_unique<StraightWalks>());
  StraightWalks& walks = *walks_by_depth[depth];
  struct Nested {
    std::size_t& depth;
    explicit Nested(std::size_t& d) : depth(d) { ++depth; }
    ~Nested() { --depth; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
  } nested(depth);
  // A bend at t_j is followed for at most limit = min(max_m, 2j) - j (once) or max_m - j more
  // faces: the crossings that matter are those of index at most max_m / 2 or max_m - 1.
  walks.fill(h, once && !restricted ? max_m / 2 : max_m - 1, seen, stamp);
  // Once: the other end's path of a straight expansion (walked from z) is the strip beside this
  // path, u_0 = at(t_0, .., s) then w_0, ..., w_{m-1} (w_j = at(t_j, .., 2s), and z = w_m); it is
  // walkable when those are distinct and a_0 and z are not among them. `strip` marks them.
  std::array<int, PlanarMap::kMaxVertices> strip{};
  for (int p = 0; p < 12; ++p) {
    if ((starts >> p & 1U) == 0) continue;
    const int a0 = h.pentagons[static_cast<std::size_t>(p)];
    for (int k = 0; k < 5; ++k) {
      const int t0 = h.adj[a0][k];
      for (const int s : {1, -1}) {
        // Straight path t_0, t_1, ...: at t_j the next vertex is three places on from t_{j-1}; the
        // two vertices passed on the way (the strip) are the ones the new row will touch.
        // `changed` collects every vertex whose neighbour list the expansion rewrites.
        const int walk = (p * 5 + k) * 2 + (s > 0 ? 0 : 1);
        // IPR children only: the new pentagon r_0 lies next to x, the vertex two places on from
        // a_0 round t_0 (new_pentagon_meets_one); when x is a pentagon, only expansions that end
        // at z = x are walked for, and a start whose path leads to none is skipped.
        const int x = ipr ? walks.x[static_cast<std::size_t>(walk)] : -1;
        // With long_ends, a start that does not qualify lists only the shorter expansions; one
        // that does walks its bends past the once rule's limit (they may end where none qualifies).
        const int start_reach = restricted ? long_ends->reach(a0, t0) : LongEnds::kUnbounded;
        const bool long_start = restricted && start_reach > long_m;
        const int start_max_m = std::min(max_m, start_reach - 1);
        if (start_max_m < min_m) continue;
        const std::uint64_t start_sizes =
            start_max_m < max_m ? sizes & ((std::uint64_t{2} << start_max_m) - 1) : sizes;
        const bool start_once = once && !long_start;
        if (x >= 0 &&
            !reaches_pentagon(h, walks, a0, t0, s, x, p, min_m, start_max_m, start_sizes, start_once, seen, stamp))
          continue;
        // A long expansion from a qualifying start whose other end does not qualify for its size:
        // only this end lists it. `first` is the first face of the other end's path.
        const auto only_here = [&](int m, int z, int first) {
          return long_start && m >= long_m && long_ends->reach(z, first) <= m;
        };
        const int straight = ++stamp;
        Set changed = empty;
        changed.add(a0);
        bool strip_walkable = true;  // the strip so far: distinct, a_0 not on it
        // The step is inlined by force, as walk_straight is: left to itself gcc stopped inlining
        // it into the IPR search once LongEnds made it larger (IPR C130 1.60 -> 1.70 s).
        const auto step = [&](int j, int cur, int prev, int in) __attribute__((always_inline)) {
          changed.add(cur);
          const StraightSteps::Step here = walks.steps.after(cur, in, s);
          const int w = here.two;
          if (once && j == 0) {
            const int u = here.one;
            strip[u] = straight;
            strip_walkable = u != a0;
          }
          if (j >= min_m && size_listed(start_sizes, j)) {
            const int z = w;
            // Once: a straight expansion from the end with the smaller pentagon, or from this end
            // when the other end's path (the strip) is not walkable, so that only this end lists it.
            // The strip's last face, next to z, is the first of the other end's path.
            if (h.deg[z] == 5 && seen[z] != straight &&
                (!once || a0 < z || !strip_walkable || strip[z] == straight || only_here(j, z, here.one))) {
              const Expansion e{a0, t0, s, j, -1, z, cur, prev};
              if ((!ipr || !new_pentagon_meets_one(h, e)) && pre(e)) {
                Set all = changed;
                all.add(here.one);
                all.add(z);
                f(e, all);
              }
            }
          }
          int to_bend = 0;
          int limit = 0;  // jj - j at most
          const StraightWalks::Crossing c =
              bend_crossings(h, walks, cur, in, s, j, start_max_m, start_once, to_bend, limit);
          // IPR children only: z's walk must be one whose own x is a_0 or not a pentagon.
          const std::uint64_t reach = !ipr || (c.ipr >> p & 1U) != 0 ? c.reach & sizes_past(start_sizes, j) : 0;
          if (reach != 0) {
            // Bend at t_j: two places on (one strip vertex), then straight again. Seen from z the
            // same expansion walks the same path backwards, bending at jj - j the other way, so
            // either end walks it when the other does: once, it is listed from the end whose
            // straight stretch before the bend is the longer one, or from the smaller pentagon.
            // Walked back from z (orientation -s), a bent expansion's path goes straight to the
            // bend t_j, arriving from t_{j+1}: a straight walk from a pentagon in orientation -s
            // crosses t_{j+1} -> t_j at index jj - j for an expansion of jj + 1 faces. The walk
            // goes no farther than the farthest such crossing.
            const int last = j + (reach >> 63 != 0 ? limit : std::bit_width(reach) - 1);
            const int bent = ++stamp;
            Set bchanged = changed;
            bchanged.add(here.one);
            int bprev = cur;
            int bcur = h.adj[cur][static_cast<std::size_t>(to_bend)];
            int bin = h.slot_of(bcur, bprev);
            for (int jj = j + 1; jj <= last; ++jj) {
              if (seen[bcur] == straight || seen[bcur] == bent) break;
              seen[bcur] = bent;
              bchanged.add(bcur);
              const StraightSteps::Step next = walks.steps.after(bcur, bin, s);
              bchanged.add(next.one);
              bchanged.add(next.two);
              const int z = next.next;
              // Once, from the end whose stretch before the bend is the longer, else from the
              // smaller pentagon (a start that walks past the once rule's limit lists the
              // expansions beyond it only when the other end does not qualify). Seen from z the
              // path is the same, so its first face is t_m.
              if (jj >= min_m && size_listed(start_sizes, jj) && h.deg[z] == 5 && seen[z] != straight &&
                  seen[z] != bent &&
                  (!once || jj < 2 * j || (jj == 2 * j && a0 < z) || only_here(jj, z, bcur))) {
                const Expansion e{a0, t0, s, jj, j, z, bcur, bprev};
                if ((!ipr || !new_pentagon_meets_one(h, e)) && pre(e)) {
                  Set all = bchanged;
                  all.add(z);
                  f(e, all);
                }
              }
              bprev = bcur;
              bcur = z;
              bin = next.next_in;
            }
          }
          changed.add(here.one);
          changed.add(w);
          if (once) {
            if (strip[w] == straight || w == a0) strip_walkable = false;
            strip[w] = straight;
          }
          return true;
        };
        walk_straight(h, &walks.steps, a0, t0, s, start_max_m, seen, straight, step);
      }
    }
  }
}

/// for_each_reduction(g, 3, call) written out: the rows of two and three faces, in the same order
/// (for each r0 and r1, the L0 views, or the B00 views bending at r1 and then the L1 views). A
/// row that short cannot meet itself, so no walk marks are needed. Most of the generator's child
/// tests ask for these.
/// With `bent` false, the B00 views are left out.
template <bool bent = true, class C>
void reductions_of_up_to_3(const PlanarMap& g, C& call, const PentagonNeighbours* near) {
  for (const int r0 : g.pentagons) {
    for (int k = 0; k < 5; ++k) {
      const int r1 = g.adj[r0][k];
      // A hexagon r1 next to r0 alone is the middle of no row.
      if (near != nullptr && g.deg[r1] != 5 && near->count[static_cast<std::size_t>(r1)] < 2) continue;
      const std::array<int, 2> a0{g.at(r0, k, 2), g.at(r0, k, -2)};
      const std::array<bool, 2> open{g.deg[a0[0]] == 6, g.deg[a0[1]] == 6};
      if (!open[0] && !open[1]) continue;
      const int in1 = g.slot_of(r1, r0);
      if (g.deg[r1] == 5) {  // L0: r0 r1, corners two places on round each end
        for (int o = 0; o < 2; ++o) {
          if (!open[static_cast<std::size_t>(o)]) continue;
          const int s = o == 0 ? 1 : -1;
          const int a = a0[static_cast<std::size_t>(o)];
          const int z = g.at(r1, in1, 2 * s);
          if (g.deg[z] == 6 && z != r0 && a != r1 && z != a && !call(RowOp{r0, r1, s, 1, -1}, r1, a, z)) return;
        }
        continue;
      }
      // B00: bend at r1, two places on to the end b; its corner z is three places on round b.
      for (int o = 0; o < 2 && bent; ++o) {
        if (!open[static_cast<std::size_t>(o)]) continue;
        const int s = o == 0 ? 1 : -1;
        const int b = g.at(r1, in1, 2 * s);
        if (g.deg[b] != 5) continue;
        const int a = a0[static_cast<std::size_t>(o)];
        const int z = g.at(b, g.slot_of(b, r1), 3 * s);
        if (g.deg[z] == 6 && z != r0 && z != r1 && z != b && a != r1 && a != b && z != a &&
            !call(RowOp{r0, r1, s, 2, 1}, b, a, z))
          return;
      }
      // L1: straight on through r1 to r2; corner z two places on round r2.
      const int r2 = g.at(r1, in1, 3);
      if (g.deg[r2] != 5) continue;
      const int in2 = g.slot_of(r2, r1);
      for (int o = 0; o < 2; ++o) {
        if (!open[static_cast<std::size_t>(o)]) continue;
        const int s = o == 0 ? 1 : -1;
        const int a = a0[static_cast<std::size_t>(o)];
        const int z = g.at(r2, in2, 2 * s);
        if (g.deg[z] == 6 && z != r0 && z != r1 && a != r1 && a != r2 && z != a &&
            !call(RowOp{r0, r1, s, 2, -1}, r2, a, z))
          return;
      }
    }
  }
}

/// f as for_each_reduction takes it, called with a row, its far end and its corners.
template <class F>
auto reduction_call(F& f) {
  return [&f](const RowOp& row, int end, int a0, int z) {
    if constexpr (std::is_invocable_v<F&, const RowOp&, int, const std::array<int, 2>&>)
      return f(row, end, std::array<int, 2>{a0, z});
    else if constexpr (std::is_invocable_v<F&, const RowOp&, int>)
      return f(row, end);
    else
      return f(row);
  };
}

}  // namespace detail

template <class F>
void for_each_straight_reduction_up_to_3(const PlanarMap& g, F&& f, const PentagonNeighbours* near) {
  const auto call = detail::reduction_call(f);
  detail::reductions_of_up_to_3<false>(g, call, near);
}

template <class F>
void for_each_reduction(const PlanarMap& g, int max_size, F&& f, const PentagonNeighbours* near) {
  if (max_size < 2) return;
  const auto call = detail::reduction_call(f);
  if (max_size == 3) {
    detail::reductions_of_up_to_3(g, call, near);
    return;
  }
  const int max_m = max_size - 1;
  std::array<int, PlanarMap::kMaxVertices> seen{};
  int stamp = 0;
  for (const int r0 : g.pentagons) {
    for (int k = 0; k < 5; ++k) {
      // The straight line r0, r1, ... is the same in both orientations: it is walked once, and
      // each step serves the rows of both (their corners a0 and z, and their bends, differ).
      const int r1 = g.adj[r0][k];
      const std::array<int, 2> a0{g.at(r0, k, 2), g.at(r0, k, -2)};
      const std::array<bool, 2> open{g.deg[a0[0]] == 6, g.deg[a0[1]] == 6};
      if (!open[0] && !open[1]) continue;
      const int straight = ++stamp;
      bool stopped = false;  // f returned false
      // Three places on is the same in either orientation round the row's hexagons.
      detail::walk_straight(g, nullptr, r0, r1, 1, max_m - 1, seen, straight, [&](int i, int cur, int, int in) {
        const int j = i + 1;
        const bool at_end = g.deg[cur] == 5;
        if (!at_end && j == max_m) return false;  // neither a row's end nor the way on to one
        for (int o = 0; o < 2; ++o) {
          if (!open[static_cast<std::size_t>(o)]) continue;
          const int s = o == 0 ? 1 : -1;
          const int a = a0[static_cast<std::size_t>(o)];
          if (at_end) {
            const int z = g.at(cur, in, 2 * s);
            if (g.deg[z] == 6 && seen[z] != straight && seen[a] != straight && z != a)
              if (!call(RowOp{r0, r1, s, j, -1}, cur, a, z)) {
                stopped = true;
                return false;
              }
            continue;
          }
          // Bend at cur: two places on, then straight again.
          const int bent = ++stamp;
          int bprev = cur;
          int bcur = g.at(cur, in, 2 * s);
          for (int jj = j + 1; jj <= max_m; ++jj) {
            if (seen[bcur] == straight || seen[bcur] == bent) break;
            seen[bcur] = bent;
            if (g.deg[bcur] == 5) {
              const int z = g.at(bcur, g.slot_of(bcur, bprev), 3 * s);
              if (g.deg[z] == 6 && seen[z] != straight && seen[z] != bent && seen[a] != straight &&
                  seen[a] != bent && z != a)
                if (!call(RowOp{r0, r1, s, jj, j}, bcur, a, z)) {
                  stopped = true;
                  return false;
                }
              break;
            }
            if (jj == max_m) break;
            const int bnext = g.at(bcur, g.slot_of(bcur, bprev), 3);
            bprev = bcur;
            bcur = bnext;
          }
        }
        return !at_end;
      });
      if (stopped) return;
    }
  }
}

// What the first leg of an expansion path from pentagon a0 through t0 (turning s places at t0
// to reach t1) changes: a0, t0, t0's neighbours s and 2s places on from a0, t1, and t1's
// neighbour s places on from t0. in0 = index of a0 around t0, in1 = index of t0 around t1.
inline VertexSet first_leg(const PlanarMap& h, int a0, int t0, int in0, int t1, int in1, int s) {
  VertexSet changed;
  changed.put(a0);
  changed.put(t0);
  changed.put(h.at(t0, in0, s));
  changed.put(h.at(t0, in0, 2 * s));
  changed.put(t1);
  changed.put(h.at(t1, in1, s));
  return changed;
}

// Calls g(a0, t0, in0, t1, in1, s, w2) for every first leg of an expansion path from the
// pentagons a0 = h.pentagons[p] whose bit p is set in `starts`: t0 each neighbour of a0, s each
// turning direction, t1 three places on around t0 (in0 = index of a0 around t0, in1 = of t0
// around t1), w2 two places on from t0 around t1 (an L0 expansion's z, a B00 path's third vertex).
template <class G>
void for_each_first_leg(const PlanarMap& h, unsigned starts, G&& g);
/// The two first legs from a0 through its k-th neighbour (s = 1, then -1).
template <class G>
void for_each_first_leg_of(const PlanarMap& h, int a0, int k, G&& g);

/// Every first leg of h (all twelve pentagons) in for_each_first_leg's order, kept so that the
/// L0 pass and the pass over 3-vertex expansions walk them once.
struct FirstLegs {
  struct Leg {
    std::uint8_t p, a0, t0, in0, t1, in1;
    std::int8_t s;
    std::uint8_t w2;
  };
  std::array<Leg, 12 * 5 * 2> legs;
  /// A set of legs: bit i (of 120) for legs[i].
  using Marks = std::array<std::uint64_t, 2>;
  /// The legs that end next to a second pentagon (ends_at_pentagon): an L0 expansion each.
  Marks ends{};
  /// True when the leg's w2 is a pentagon after a0 (by number) and not t0: then a0 t0 t1 w2 is an
  /// L0 expansion's path, listed from its smaller end.
  static bool ends_at_pentagon(const PlanarMap& h, int a0, int t0, int w2) {
    return (h.deg[w2] == 5) & (w2 > a0) & (w2 != t0);
  }
  void fill(const PlanarMap& h) {
    ends = {};
    for (int p = 0; p < 12; ++p)
      for (int k = 0; k < 5; ++k) {
        const int i = (p * 5 + k) * 2;  // even: both legs of the pair in one word
        ends[static_cast<std::size_t>(i / 64)] |= static_cast<std::uint64_t>(fill_pair(h, p, k)) << (i % 64);
      }
  }
  /// fill(h) when these legs are those of h's parent and h was made from it by an expansion that
  /// rewrote the neighbour lists of `changed` (and moved pentagons only where it rewrote them): a
  /// leg reads the lists of a0, t0 and t1 only (w2 is t1's neighbour), so the others are kept.
  /// `ends` is kept the same way: a leg kept ends next to a pentagon in h only if it did in the
  /// parent (of the old faces only the expansion's a0 and z change degree, from 5 to 6), so only
  /// those and the legs redone are looked at again.
  void update(const PlanarMap& h, const VertexSet& changed_set) {
    // `changed` as one byte a face: a lookup is then one load (the set's has() is four steps),
    // and update looks up three faces a leg pair (all C150 part 1/16: 2.8% fewer instructions,
    // bench/RESULTS.md run 38).
    std::array<std::uint8_t, 64 * std::tuple_size_v<decltype(VertexSet::words)>> changed{};
    for (std::size_t w = 0; w < changed_set.words.size(); ++w)
      for (std::uint64_t bits = changed_set.words[w]; bits != 0; bits &= bits - 1)
        changed[64 * w + static_cast<std::size_t>(std::countr_zero(bits))] = 1;
    Marks redone{};
    Marks redone_ends{};
    const auto redo_pair = [&](int p, int k) {
      const int i = (p * 5 + k) * 2;  // even: both legs of the pair in one word
      redone[static_cast<std::size_t>(i / 64)] |= std::uint64_t{3} << (i % 64);
      redone_ends[static_cast<std::size_t>(i / 64)] |= static_cast<std::uint64_t>(fill_pair(h, p, k)) << (i % 64);
    };
    for (int p = 0; p < 12; ++p) {
      const Leg* pair = &legs[static_cast<std::size_t>(p * 10)];
      if (pair->a0 != h.pentagons[static_cast<std::size_t>(p)] || changed[pair->a0] != 0) {
        for (int k = 0; k < 5; ++k) redo_pair(p, k);
        continue;
      }
      unsigned redo = 0;  // as bits, without a branch per leg
      for (int k = 0; k < 5; ++k, pair += 2)
        redo |= static_cast<unsigned>(changed[pair[0].t0] | changed[pair[0].t1] | changed[pair[1].t1]) << k;
      for (; redo != 0; redo &= redo - 1) redo_pair(p, std::countr_zero(redo));
    }
    for (std::size_t w = 0; w < ends.size(); ++w) {
      std::uint64_t kept = redone_ends[w];
      for (std::uint64_t bits = ends[w] & ~redone[w]; bits != 0; bits &= bits - 1) {
        const int b = std::countr_zero(bits);
        kept |= static_cast<std::uint64_t>(h.deg[legs[64 * w + static_cast<std::size_t>(b)].w2] == 5) << b;
      }
      ends[w] = kept;
    }
  }
  /// The two legs from pentagon p through its k-th neighbour. Each is stored as one word: stored
  /// a byte at a time, a leg read back whole (the copy to the child's legs) waits for the bytes.
  /// Returns which of them end next to a second pentagon (ends_at_pentagon): bit 0, bit 1.
  unsigned fill_pair(const PlanarMap& h, int p, int k) {
    Leg* out = &legs[static_cast<std::size_t>((p * 5 + k) * 2)];
    unsigned at_pentagon = 0;
    int bit = 0;
    for_each_first_leg_of(h, h.pentagons[static_cast<std::size_t>(p)], k,
                          [&](int a0, int t0, int in0, int t1, int in1, int s, int w2) {
                            at_pentagon |= static_cast<unsigned>(ends_at_pentagon(h, a0, t0, w2)) << bit++;
                            const auto byte = [](int v, int at) {
                              return std::uint64_t{static_cast<std::uint8_t>(v)} << (8 * at);
                            };
                            const std::uint64_t leg = byte(p, 0) | byte(a0, 1) | byte(t0, 2) | byte(in0, 3) |
                                                      byte(t1, 4) | byte(in1, 5) | byte(s, 6) | byte(w2, 7);
                            static_assert(sizeof(Leg) == sizeof leg);
                            std::memcpy(out++, &leg, sizeof leg);
                          });
    return at_pentagon;
  }
  /// Every leg.
  static constexpr Marks kAll{~std::uint64_t{0}, (std::uint64_t{1} << (12 * 5 * 2 - 64)) - 1};
  /// The legs for which pick(const Leg&) is true. pick should not branch: which legs it takes is
  /// unpredictable. (The bits gather in two registers: or-ing each into marks[i / 64] chains
  /// every leg's store to the next one's load.)
  template <class P>
  [[nodiscard]] Marks select(P&& pick) const {
    std::uint64_t low = 0;
    std::uint64_t high = 0;
    for (std::size_t i = 0; i < 64; ++i) low |= static_cast<std::uint64_t>(pick(legs[i])) << i;
    for (std::size_t i = 64; i < legs.size(); ++i) high |= static_cast<std::uint64_t>(pick(legs[i])) << (i - 64);
    return {low, high};
  }
  /// Calls g(a0, t0, in0, t1, in1, s, w2) for every leg, in for_each_first_leg's order (for the
  /// h these legs were filled from).
  template <class G>
  void each(G&& g) const {
    for (const Leg& l : legs) g(int{l.a0}, int{l.t0}, int{l.in0}, int{l.t1}, int{l.in1}, int{l.s}, int{l.w2});
  }
  /// The same for the legs in `marks`.
  template <class G>
  void each(const Marks& marks, G&& g) const {
    for (std::size_t w = 0; w < marks.size(); ++w)
      for (std::uint64_t bits = marks[w]; bits != 0; bits &= bits - 1) {
        const Leg& l = legs[64 * w + static_cast<std::size_t>(std::countr_zero(bits))];
        g(int{l.a0}, int{l.t0}, int{l.in0}, int{l.t1}, int{l.in1}, int{l.s}, int{l.w2});
      }
  }
};

template <class G>
[[gnu::always_inline]] inline void for_each_first_leg_of(const PlanarMap& h, int a0, int k, G&& g) {
  const int t0 = h.adj[a0][k];
  const int in0 = h.slot_of(t0, a0);
  const int t1 = h.at(t0, in0, 3);
  const int in1 = h.slot_of(t1, t0);
  g(a0, t0, in0, t1, in1, 1, h.at(t1, in1, 2));
  // Round a hexagon, three places on is the same both ways (t1 again): found without a branch on
  // t0's degree, which is unpredictable.
  const int back = h.at(t0, in0, -3);
  const int in_back = h.slot_of(back, t0);
  g(a0, t0, in0, back, in_back, -1, h.at(back, in_back, -2));
}

template <class G>
void for_each_first_leg(const PlanarMap& h, unsigned starts, G&& g) {
  for (int p = 0; p < 12; ++p) {
    if ((starts >> p & 1U) == 0) continue;
    for (int k = 0; k < 5; ++k) for_each_first_leg_of(h, h.pentagons[static_cast<std::size_t>(p)], k, g);
  }
}

template <class W, class F>
void for_each_l0_expansion_on(const PlanarMap& h, W&& walk, F&& f) {
  // The m = 1 case of for_each_expansion: a0 t0 t1 turns three places at t0, z two at t1. The
  // walk hands out only legs that end next to a second pentagon z (FirstLegs::ends_at_pentagon).
  walk([&](int a0, int t0, int in0, int t1, int in1, int s, int z) {
    VertexSet changed = first_leg(h, a0, t0, in0, t1, in1, s);
    changed.put(z);
    f(Expansion{a0, t0, s, 1, -1, z, t1, t0}, changed);
  });
}

template <class F>
void for_each_l0_expansion(const PlanarMap& h, F&& f) {
  for_each_l0_expansion_on(
      h,
      [&h](auto&& g) {
        for_each_first_leg(h, 0xfffU, [&](int a0, int t0, int in0, int t1, int in1, int s, int z) {
          if (FirstLegs::ends_at_pentagon(h, a0, t0, z)) g(a0, t0, in0, t1, in1, s, z);
        });
      },
      f);
}

template <class F>
void for_each_l0_expansion(const PlanarMap& h, const FirstLegs& legs, F&& f) {
  // Only the legs that end next to a second pentagon z are walked (about one in fifteen, kept in
  // legs.ends by fill() and update()).
  for_each_l0_expansion_on(h, [&legs](auto&& g) { legs.each(legs.ends, g); }, f);
}

template <class F>
void for_each_size3_expansion(const PlanarMap& h, unsigned starts, F&& f) {
  for_each_size3_expansion(h, starts, [](const int*, int) { return true; }, f);
}

template <class W, class N, class A, class F>
void for_each_size3_expansion_on(const PlanarMap& h, W&& walk, N&& near, A&& accept, F&& f, bool once = false) {
  // The m = 2 cases of for_each_expansion, in the same order: the far end z is found first, and
  // `changed` is only collected when z has degree 5 and `accept` takes its vertices. Every
  // vertex of the expansion lies in the closed neighbourhood of t0, t1 or the path's third
  // vertex x (b2 or t2): near(t0, t1, x) false skips it at once.
  // Once: only from the end with the smaller pentagon (a0 < z). A path of 3 faces cannot meet
  // itself in a fullerene dual, so the walk from z always lists the same expansion.
  walk([&](int a0, int t0, int in0, int t1, int in1, int s, int b2) {
    // a0, t0, t0's neighbours s and 2s places on, t1, t1's neighbour s places on (first_leg),
    // then the rest of the expansion's vertices.
    std::array<int, 10> list{};
    const auto leg = [&] {
      list[0] = a0;
      list[1] = t0;
      list[2] = h.at(t0, in0, s);
      list[3] = h.at(t0, in0, 2 * s);
      list[4] = t1;
      list[5] = h.at(t1, in1, s);
    };
    const auto collect = [&list] {
      VertexSet changed;
      for (const int v : list) changed.add(v);
      return changed;
    };
    // B_00: bend at t1, two places on (b2).
    if (b2 != a0 && b2 != t0 && b2 != t1 && near(t0, t1, b2)) {
      const int bin = h.slot_of(b2, t1);
      const int z = h.at(b2, bin, 3 * s);
      if (h.deg[z] == 5 && z != a0 && z != t0 && z != t1 && z != b2 && (!once || a0 < z)) {
        leg();
        list[6] = b2;
        list[7] = h.at(b2, bin, s);
        list[8] = h.at(b2, bin, 2 * s);
        list[9] = z;
        if (accept(list.data(), 10)) f(Expansion{a0, t0, s, 2, 1, z, b2, t1}, collect());
      }
    }
    // L_1: straight on.
    const int t2 = h.at(t1, in1, 3 * s);
    if (t2 != a0 && t2 != t0 && t2 != t1 && near(t0, t1, t2)) {
      const int in2 = h.slot_of(t2, t1);
      const int z = h.at(t2, in2, 2 * s);
      if (h.deg[z] == 5 && z != a0 && z != t0 && z != t1 && z != t2 && (!once || a0 < z)) {
        leg();
        list[6] = b2;
        list[7] = t2;
        list[8] = h.at(t2, in2, s);
        list[9] = z;
        if (accept(list.data(), 10)) f(Expansion{a0, t0, s, 2, -1, z, t2, t1}, collect());
      }
    }
  });
}

template <class A, class F>
void for_each_size3_expansion(const PlanarMap& h, unsigned starts, A&& accept, F&& f) {
  for_each_size3_expansion_on(
      h, [&h, starts](auto&& g) { for_each_first_leg(h, starts, g); }, [](int, int, int) { return true; }, accept,
      f);
}

template <class P, class F, class Set>
void for_each_ipr_short_expansion_once(const PlanarMap& h, int min_size, int max_size, std::uint64_t sizes, P&& pre,
                                       F&& f, const Set& empty, const LongEnds* long_ends) {
  constexpr int kMaxM = kShortExpansionMax - 1;
  // The sizes listed: those in `sizes` from min_size to max_size.
  const int min_m = std::max({2, min_size - 1, std::countr_zero(sizes)});
  const int max_m = std::min({max_size - 1, kMaxM, static_cast<int>(std::bit_width(sizes)) - 1});
  if (max_m < min_m) return;
  // expansions() without its crossing tables: the same starts, once rules, LongEnds and marks,
  // each bent leg followed as far as a listed size goes.
  const bool restricted = long_ends != nullptr && long_ends->min_size > 0 && long_ends->min_size - 1 <= max_m;
  const int long_m = restricted ? long_ends->min_size - 1 : max_m + 1;
  for (int p = 0; p < 12; ++p) {
    const int a0 = h.pentagons[static_cast<std::size_t>(p)];
    for (int k = 0; k < 5; ++k) {
      const int t0 = h.adj[a0][k];
      const int start_reach = restricted ? long_ends->reach(a0, t0) : LongEnds::kUnbounded;
      const bool long_start = restricted && start_reach > long_m;
      const int start_max_m = std::min(max_m, start_reach - 1);
      if (start_max_m < min_m) continue;
      const std::uint64_t start_sizes = sizes & ((std::uint64_t{2} << start_max_m) - 1);
      const auto only_here = [&](int m, int z, int first) {
        return long_start && m >= long_m && long_ends->reach(z, first) <= m;
      };
      for (const int s : {1, -1}) {
        const bool start_once = !long_start;
        // IPR children only: when x (w_0) is a pentagon, only expansions ending at z = x are
        // (new_pentagon_meets_one).
        std::array<int, kMaxM + 1> t{};  // the straight path so far
        Set changed = empty;
        changed.add(a0);
        bool strip_walkable = true;
        std::array<int, kMaxM + 2> strip{};  // u_0, w_0, w_1, ...
        int nstrip = 0;
        int x = -1;
        int prev = a0;
        int cur = t0;
        for (int j = 0; j <= start_max_m; ++j) {
          bool repeat = cur == a0;
          for (int i = 0; i < j; ++i) repeat |= t[static_cast<std::size_t>(i)] == cur;
          if (repeat) break;
          t[static_cast<std::size_t>(j)] = cur;
          changed.add(cur);
          const int in = h.slot_of(cur, prev);
          const int one = h.at(cur, in, s);
          const int w = h.at(cur, in, 2 * s);
          const auto on_straight = [&](int v) {  // a_0 or t_0 .. t_j
            bool found = v == a0;
            for (int i = 0; i <= j; ++i) found |= t[static_cast<std::size_t>(i)] == v;
            return found;
          };
          if (j == 0) {
            strip[static_cast<std::size_t>(nstrip++)] = one;
            strip_walkable = one != a0;
            if (h.deg[w] == 5) x = w;
          }
          if (j >= min_m && detail::size_listed(start_sizes, j)) {
            const int z = w;
            bool on_strip = false;
            for (int i = 0; i < nstrip; ++i) on_strip |= strip[static_cast<std::size_t>(i)] == z;
            if (h.deg[z] == 5 && (x < 0 || z == x) && !on_straight(z) &&
                (a0 < z || !strip_walkable || on_strip || only_here(j, z, one))) {
              const Expansion e{a0, t0, s, j, -1, z, cur, prev};
              if (!new_pentagon_meets_one(h, e) && pre(e)) {
                Set all = changed;
                all.add(one);
                all.add(z);
                f(e, all);
              }
            }
          }
          // Bend at t_j: two places on, then straight again, to the largest listed size.
          const int limit = (start_once ? std::min(start_max_m, 2 * j) : start_max_m) - j;
          const std::uint64_t past = limit >= 1 && j >= 1 ? (start_sizes >> j) & ((std::uint64_t{2} << limit) - 2) : 0;
          if (past != 0) {
            const int last = j + std::bit_width(past) - 1;
            Set bchanged = changed;
            bchanged.add(one);
            std::array<int, kMaxM> bent{};
            int nbent = 0;
            int bprev = cur;
            int bcur = h.adj[cur][static_cast<std::size_t>(PlanarMap::wrap(h.deg[cur], in + 2 * s))];
            for (int jj = j + 1; jj <= last; ++jj) {
              bool met = on_straight(bcur);
              for (int i = 0; i < nbent; ++i) met |= bent[static_cast<std::size_t>(i)] == bcur;
              if (met) break;
              bent[static_cast<std::size_t>(nbent++)] = bcur;
              const int bin = h.slot_of(bcur, bprev);
              bchanged.add(bcur);
              bchanged.add(h.at(bcur, bin, s));
              bchanged.add(h.at(bcur, bin, 2 * s));
              const int z = h.at(bcur, bin, 3 * s);
              if (jj >= min_m && detail::size_listed(start_sizes, jj) && h.deg[z] == 5 && (x < 0 || z == x)) {
                bool z_met = on_straight(z);
                for (int i = 0; i < nbent; ++i) z_met |= bent[static_cast<std::size_t>(i)] == z;
                if (!z_met && (jj < 2 * j || (jj == 2 * j && a0 < z) || only_here(jj, z, bcur))) {
                  const Expansion e{a0, t0, s, jj, j, z, bcur, bprev};
                  if (!new_pentagon_meets_one(h, e) && pre(e)) {
                    Set all = bchanged;
                    all.add(z);
                    f(e, all);
                  }
                }
              }
              bprev = bcur;
              bcur = z;
            }
          }
          changed.add(one);
          changed.add(w);
          bool w_repeat = w == a0;
          for (int i = 0; i < nstrip; ++i) w_repeat |= strip[static_cast<std::size_t>(i)] == w;
          if (w_repeat) strip_walkable = false;
          strip[static_cast<std::size_t>(nstrip++)] = w;
          prev = cur;
          cur = h.at(cur, in, 3 * s);
        }
      }
    }
  }
}

template <class P, class F, class Set>
void for_each_ipr_size3_expansion_once(const PlanarMap& h, P&& pre, F&& f, const Set& empty) {
  // for_each_ipr_short_expansion_once's walk for m = 2, its tests written out (at IPR C130, 1.9
  // us a node three faces short of the target instead of 3.9): from a_0 through t_0 and t_1,
  // bent at t_1 to b_2 (B00, listed first) or on to t_2 (L1). x is w_0, the face two places on
  // round t_0: when it is a pentagon only expansions ending at x are listed
  // (new_pentagon_meets_one). A path that meets itself (a face of it met again) stops there, and
  // the straight one is listed from either end when its strip (the faces one place on round
  // t_0, then two places on round t_0, t_1, t_2) meets itself or its end, as there.
  for (int p = 0; p < 12; ++p) {
    const int a0 = h.pentagons[static_cast<std::size_t>(p)];
    for (int k = 0; k < 5; ++k) {
      const int t0 = h.adj[a0][k];
      const int in0 = h.slot_of(t0, a0);
      // Round a hexagon three places on is the same face both ways: t_1 (and t_2 past a hexagon
      // t_1) is read once for both orientations.
      const int t1_up = h.at(t0, in0, 3);
      const int in1_up = h.slot_of(t1_up, t0);
      const int t2_up = h.at(t1_up, in1_up, 3);
      const int in2_up = h.slot_of(t2_up, t1_up);
      const bool turn0 = h.deg[t0] == 6;
      for (const int s : {1, -1}) {
        const int t1 = turn0 ? t1_up : h.at(t0, in0, 3 * s);
        if (t1 == a0 || t1 == t0) continue;
        const int in1 = turn0 ? in1_up : h.slot_of(t1, t0);
        const int one0 = h.at(t0, in0, s);
        const int w0 = h.at(t0, in0, 2 * s);
        const int x = h.deg[w0] == 5 ? w0 : -1;
        const int one1 = h.at(t1, in1, s);
        const int w1 = h.at(t1, in1, 2 * s);
        const auto on_straight = [&](int v) { return v == a0 || v == t0 || v == t1; };
        // B00: bend at t_1 two places on, to b_2 = w_1.
        if (!on_straight(w1)) {
          const int bin = h.slot_of(w1, t1);
          const int z = h.at(w1, bin, 3 * s);
          if (h.deg[z] == 5 && (x < 0 || z == x) && !on_straight(z) && z != w1 && a0 < z) {
            const Expansion e{a0, t0, s, 2, 1, z, w1, t1};
            if (!new_pentagon_meets_one(h, e) && pre(e)) {
              Set changed = empty;
              for (const int v : {a0, t0, one0, w0, t1, one1, w1, h.at(w1, bin, s), h.at(w1, bin, 2 * s), z}) changed.add(v);
              f(e, changed);
            }
          }
        }
        // L1: straight on to t_2.
        const bool turn1 = turn0 && h.deg[t1] == 6;
        const int t2 = turn1 ? t2_up : h.at(t1, in1, 3 * s);
        if (on_straight(t2)) continue;
        const int in2 = turn1 ? in2_up : h.slot_of(t2, t1);
        const int z = h.at(t2, in2, 2 * s);
        if (h.deg[z] != 5 || (x >= 0 && z != x) || on_straight(z) || z == t2) continue;
        const bool strip_meets_itself = one0 == a0 || w0 == a0 || w0 == one0 || w1 == a0 || w1 == one0 || w1 == w0;
        const bool z_on_strip = z == one0 || z == w0 || z == w1;
        if (a0 < z || strip_meets_itself || z_on_strip) {
          const Expansion e{a0, t0, s, 2, -1, z, t2, t1};
          if (!new_pentagon_meets_one(h, e) && pre(e)) {
            Set changed = empty;
            for (const int v : {a0, t0, one0, w0, t1, one1, w1, t2, h.at(t2, in2, s), z}) changed.add(v);
            f(e, changed);
          }
        }
      }
    }
  }
}

/// The L1 and B00 expansions from the first legs in `walked`, each listed once: from the end with
/// the smaller pentagon. Both ends' first legs must be in `walked` (the generator's tests of a
/// leg are necessary conditions of the expansion, which hold from either end).
template <class N, class A, class F>
void for_each_size3_expansion_once(const PlanarMap& h, const FirstLegs& legs, const FirstLegs::Marks& walked,
                                   N&& near, A&& accept, F&& f) {
  for_each_size3_expansion_on(h, [&legs, &walked](auto&& g) { legs.each(walked, g); }, near, accept, f, true);
}

template <class F>
void for_each_l0_row(const PlanarMap& g, F&& f) {
  for_each_l0_row(g, [](int) { return false; }, f);
}

template <class K, class F>
void for_each_l0_row(const PlanarMap& g, K&& known, F&& f) {
  // The m = 1 case of for_each_reduction: r1 has degree 5, the corners a0 and z degree 6.
  for (int p = 0; p < 12; ++p) {
    const int r0 = g.pentagons[static_cast<std::size_t>(p)];
    // The pentagons next to r0 (as bits, without a branch per neighbour: which ones are is
    // unpredictable, and most are not).
    unsigned next = 0;
    for (int k = 0; k < 5; ++k) {
      const int r1 = g.adj[r0][k];
      next |= static_cast<unsigned>((g.deg[r1] == 5) & (r1 > r0)) << k;
    }
    for (; next != 0; next &= next - 1) {
      const int k = std::countr_zero(next);
      // The pairs the caller knows are skipped before anything else is looked up.
      const std::array<bool, 2> skip{known(l0_view_id(p, k, 1)), known(l0_view_id(p, k, -1))};
      if (skip[0] && skip[1]) continue;
      const int r1 = g.adj[r0][k];
      const int in = g.slot_of(r1, r0);
      const int q = g.pentagon_slot(r1);
      for (const int s : {1, -1}) {
        if (skip[s > 0 ? 0 : 1]) continue;
        const int a0 = g.at(r0, k, 2 * s);
        if (g.deg[a0] != 6) continue;
        const int z = g.at(r1, in, 2 * s);
        if (g.deg[z] == 6 && z != a0 &&
            !f(RowOp{r0, r1, s, 1, -1}, l0_view_id(p, k, s), RowOp{r1, r0, s, 1, -1}, l0_view_id(q, in, s)))
          return;
      }
    }
  }
}

}  // namespace molstep::fullerene
