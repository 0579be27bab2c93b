// SPDX-License-Identifier: MIT
#include "molstep/fullerene/expansion.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>

namespace molstep::fullerene {
namespace {

/// Stores the sequence `seq` as v's neighbour list, slot for slot; false when it is too long for
/// a neighbour list.
bool store(PlanarMap& g, int v, const int* seq, int n) {
  if (n < 1 || n > PlanarMap::kMaxDegree) return false;
  // The mask is a no-op (slots are below n <= kMaxDegree, a power of two) that lets gcc see the
  // writes stay in range.
  static_assert((PlanarMap::kMaxDegree & (PlanarMap::kMaxDegree - 1)) == 0);
  constexpr int mask = PlanarMap::kMaxDegree - 1;
  for (int i = 0; i < n; ++i) g.adj[v][i & mask] = static_cast<std::uint8_t>(seq[i]);
  g.deg[v] = static_cast<std::uint8_t>(n);
  return true;
}

/// n slots (n <= d) of a neighbour list `row` of d slots, from slot p on (0 <= p < d), round the
/// list: slot i of the result is slot p + i (mod d) of row; the slots past n are zero.
std::uint64_t slots_from(std::uint64_t row, int d, int p, int n) {
  row &= PlanarMap::kSlotMasks[static_cast<std::size_t>(d)];  // the slots past d hold stale faces
  const std::uint64_t turned = p == 0 ? row : (row >> (8 * p)) | (row << (8 * (d - p)));
  return turned & PlanarMap::kSlotMasks[static_cast<std::size_t>(n)];
}

/// Face v in slot `slot` of a neighbour list read as a word (the other slots zero).
std::uint64_t in_slot(int v, int slot) { return std::uint64_t{static_cast<std::uint8_t>(v)} << (8 * slot); }

/// True when two of the d slots of the neighbour list `row` hold the same face: slot i is
/// compared with slot i + k (mod d) for k up to d / 2, a whole turned list at a time.
bool has_repeat(std::uint64_t row, int d) {
  constexpr std::uint64_t kLow = 0x0101010101010101;
  constexpr std::uint64_t kHigh = 0x8080808080808080;
  const std::uint64_t mask = PlanarMap::kSlotMasks[static_cast<std::size_t>(d)];
  for (int k = 1; 2 * k <= d; ++k) {
    const std::uint64_t x = (row ^ slots_from(row, d, k, d)) | ~mask;  // a zero byte: a repeat
    if (((x - kLow) & ~x & kHigh) != 0) return true;
  }
  return false;
}

/// Splits t: the new vertex r takes t's neighbours strictly between x and y (walking in
/// orientation s from x) and is joined to t, x and y. The lists are put together as words: in
/// orientation s = 1, r's is t, x, the faces between, y, and t's runs from y round to x, then r;
/// for s = -1 their slots are the same sequences mirrored (slot 0 kept), so r's is t, y, the faces
/// between (in slot order), x, and t's is y, r, then x round to the face before y.
bool split(PlanarMap& g, int t, int x, int y, int s, int r) {
  const int d = g.deg[t];
  const int ix = g.index_of(t, x);
  const int iy = g.index_of(t, y);
  if (ix < 0 || iy < 0 || ix == iy) return false;
  const std::uint64_t row = g.word(t);
  // The faces strictly between x and y, in slot order: from first (b of them).
  const int first = s > 0 ? PlanarMap::wrap(d, ix + 1) : PlanarMap::wrap(d, iy + 1);
  const int b = s > 0 ? PlanarMap::wrap(d, iy - ix - 1) : PlanarMap::wrap(d, ix - iy - 1);
  const int rn = b + 3;
  const int tn = d - b + 1;
  if (rn > PlanarMap::kMaxDegree || tn > PlanarMap::kMaxDegree || g.deg[x] >= PlanarMap::kMaxDegree ||
      g.deg[y] >= PlanarMap::kMaxDegree)
    return false;
  const std::uint64_t between = slots_from(row, d, first, b);
  const int near = s > 0 ? x : y;  // slot 1 of r's list
  const int far = s > 0 ? y : x;   // its last slot
  const std::uint64_t r_row = in_slot(t, 0) | in_slot(near, 1) | between << 16 | in_slot(far, b + 2);
  const std::uint64_t t_row = s > 0 ? slots_from(row, d, iy, d - b) | in_slot(r, d - b)
                                    : in_slot(y, 0) | in_slot(r, 1) | slots_from(row, d, ix, d - b - 1) << 16;
  for (int i = 0; i < b; ++i) g.replace(static_cast<int>(between >> (8 * i) & 0xff), t, r);
  g.set_word(r, r_row);
  g.deg[r] = static_cast<std::uint8_t>(rn);
  g.set_word(t, t_row);
  g.deg[t] = static_cast<std::uint8_t>(tn);
  // r sits just before t around x and just after t around y (in orientation s).
  const int xt = g.index_of(x, t);
  if (!g.insert_at(x, s > 0 ? xt : xt + 1, r)) return false;
  const int yt = g.index_of(y, t);
  return g.insert_at(y, s > 0 ? yt + 1 : yt, r);
}

/// Merges r into its neighbour t; false when that would create a multiple edge.
bool contract_into(PlanarMap& g, int r, int t) {
  const int d = g.deg[r];
  const int it = g.index_of(r, t);
  const int ir = g.index_of(t, r);
  if (it < 0 || ir < 0) return false;
  const int y = g.adj[r][(it + 1) % d];
  const int x = g.adj[r][(it + d - 1) % d];
  std::array<int, 2 * PlanarMap::kMaxDegree> seq{};
  int n = 0;
  const int dt = g.deg[t];
  for (int i = 1; i < dt; ++i) seq[n++] = g.adj[t][(ir + i) % dt];  // x ... y
  for (int i = 2; i + 1 < d; ++i) {
    const int w = g.adj[r][(it + i) % d];
    if (g.adjacent(w, t)) return false;
    seq[n++] = w;
  }
  if (n > PlanarMap::kMaxDegree || seq[0] != x || seq[dt - 2] != y) return false;
  for (int i = 2; i + 1 < d; ++i) g.replace(g.adj[r][(it + i) % d], r, t);
  if (!store(g, t, seq.data(), n)) return false;
  g.remove_at(x, g.index_of(x, r));
  g.remove_at(y, g.index_of(y, r));
  g.deg[r] = 0;
  return true;
}

int ring(const PlanarMap& g, int v, int from, int steps) { return g.at(v, g.slot_of(v, from), steps); }

}  // namespace

bool walk_row(const PlanarMap& g, const RowOp& row, int* path) {
  VertexSet on_row;
  // r0 must be a face of g: a view kept from another map (the generator's rejector) may name one
  // past g.nv, whose slots hold what an earlier map left there.
  if (row.m < 1 || row.r0 < 0 || row.r0 >= g.nv || g.deg[row.r0] != 5 || g.index_of(row.r0, row.r1) < 0) return false;
  if (row.bend >= 0 && (row.bend < 1 || row.bend >= row.m)) return false;
  path[0] = row.r0;
  path[1] = row.r1;
  for (int j = 1; j < row.m; ++j) {
    if (g.deg[path[j]] != 6) return false;
    path[j + 1] = ring(g, path[j], path[j - 1], j == row.bend ? 2 * row.s : 3);
  }
  if (g.deg[path[row.m]] != 5) return false;
  const int a0 = ring(g, row.r0, row.r1, 2 * row.s);
  const int z = ring(g, path[row.m], path[row.m - 1], (row.bend < 0 ? 2 : 3) * row.s);
  if (g.deg[a0] != 6 || g.deg[z] != 6 || a0 == z) return false;
  for (int i = 0; i <= row.m; ++i) {
    if (on_row.has(path[i])) return false;
    on_row.add(path[i]);
  }
  return !on_row.has(a0) && !on_row.has(z);
}

VertexSet row_vertices(const PlanarMap& g, const RowOp& row) {
  std::array<int, PlanarMap::kMaxVertices> path;
  VertexSet set;
  if (!walk_row(g, row, path.data())) return set;
  for (int j = 0; j <= row.m; ++j) set.add(path[j]);
  return set;
}

RowOp reversed(const PlanarMap& g, const RowOp& row) {
  // An L0 row is just its two ends (walk_row would set path[0..1] to r0, r1).
  if (row.m == 1 && row.bend < 0) return RowOp{row.r1, row.r0, row.s, 1, -1};
  std::array<int, PlanarMap::kMaxVertices> path;
  if (!walk_row(g, row, path.data())) return row;  // not a row of g (the caller's mistake)
  return reversed(row, path.data());
}

RowOp reversed(const RowOp& row, const int* path) {
  if (row.bend < 0) return RowOp{path[row.m], path[row.m - 1], row.s, row.m, -1};
  return RowOp{path[row.m], path[row.m - 1], -row.s, row.m, row.m - row.bend};
}

bool new_pentagon_meets_one(const PlanarMap& h, const Expansion& e) {
  // Of the old faces round the new ends (old_neighbours_of_new_ends), those next to a_0 or z are
  // hexagons of h: round r_0 all but x, the vertex two places after a_0 round t_0, and round r_m
  // all but y, t_{m-1} on a straight row and the vertex after t_{m-1} round t_m on a bent one.
  const int x = h.at(e.t0, h.slot_of(e.t0, e.a0), 2 * e.s);
  if (x != e.z && h.deg[x] == 5) return true;
  const int y = e.bend < 0 ? e.tm_prev : h.at(e.tm, h.slot_of(e.tm, e.tm_prev), e.s);
  return y != e.a0 && h.deg[y] == 5;
}

Expansion other_end(const PlanarMap& h, const Expansion& e) {
  // The row goes in between the path a0 t0 t1 z and the strip beside it; seen from z, the strip
  // is the path and starts at the vertex before z round t1.
  const int t1 = ring(h, e.t0, e.a0, 3 * e.s);
  return Expansion{e.z, ring(h, t1, e.t0, e.s), e.s, 1, -1, e.a0};
}

void old_neighbours_of_new_ends(const PlanarMap& h, const Expansion& e, VertexSet& next) {
  const int in0 = h.slot_of(e.t0, e.a0);
  next.add(e.a0);
  next.add(e.t0);
  next.add(h.at(e.t0, in0, e.s));
  next.add(h.at(e.t0, in0, 2 * e.s));
  int prev = e.tm_prev;
  int cur = e.tm;
  if (cur < 0) {
    prev = e.a0;
    cur = e.t0;
    for (int j = 0; j < e.m; ++j) {
      const int step = h.at(cur, h.slot_of(cur, prev), (j == e.bend ? 2 : 3) * e.s);
      prev = cur;
      cur = step;
    }
  }
  const int in = h.slot_of(cur, prev);  // cur = t_m, prev = t_{m-1}
  next.add(cur);
  next.add(e.z);
  next.add(h.at(cur, in, e.s));
  next.add(e.bend < 0 ? prev : h.at(cur, in, 2 * e.s));
}

bool row_slides(const PlanarMap& g, const RowOp& row, int* path, int* target, std::array<int, 2>& corners) {
  if (!walk_row(g, row, path)) return false;
  slides_of_walked_row(g, row, path, target, corners);
  return true;
}

void slides_of_walked_row(const PlanarMap& g, const RowOp& row, const int* path, int* target,
                          std::array<int, 2>& corners) {
  const int m = row.m;
  const int s = row.s;
  target[0] = ring(g, path[0], path[1], s);
  for (int j = 1; j < m; ++j)
    target[j] = ring(g, path[j], path[j - 1], (row.bend < 0 || j <= row.bend ? 4 : 5) * s);
  target[m] = ring(g, path[m], path[m - 1], (row.bend < 0 ? 3 : 4) * s);
  corners = {ring(g, path[0], path[1], 2 * s), ring(g, path[m], path[m - 1], (row.bend < 0 ? 2 : 3) * s)};
}

bool undone_by_listed_expansion(const RowOp& row, const int* path, const int* target,
                                const std::array<int, 2>& corners) {
  VertexSet used;
  for (int j = 0; j <= row.m; ++j) used.add(path[j]);
  const auto fresh = [&used](int v) {
    if (used.has(v)) return false;
    used.add(v);
    return true;
  };
  if (!fresh(corners[0]) || !fresh(corners[1])) return false;
  for (int j = 0; j <= row.m; ++j)
    if (!fresh(target[j])) return false;
  return true;
}

bool undone_by_listed_expansion(const PlanarMap& g, const RowOp& row) {
  std::array<int, PlanarMap::kMaxVertices> path;  // only path[0..m] and target[0..m] are used
  std::array<int, PlanarMap::kMaxVertices> target;
  std::array<int, 2> corners{};
  return row_slides(g, row, path.data(), target.data(), corners) &&
         undone_by_listed_expansion(row, path.data(), target.data(), corners);
}

bool contract(PlanarMap& g, const RowOp& row) {
  std::array<int, PlanarMap::kMaxVertices> path;
  std::array<int, PlanarMap::kMaxVertices> target;
  std::array<int, 2> corners{};
  if (!row_slides(g, row, path.data(), target.data(), corners)) return false;
  const int m = row.m;
  for (int j = 0; j <= m; ++j)
    if (!contract_into(g, path[j], target[j])) return false;
  for (int v = 0; v < g.nv; ++v)
    if (g.deg[v] != 0 && g.deg[v] != 5 && g.deg[v] != 6) return false;
  g.find_pentagons();
  return true;
}

namespace {
/// expand() for an L0 expansion (m = 1, straight) of a fullerene dual, writing the lists that the
/// general path's two splits leave, slot for slot, without its checks: in a fullerene dual (no
/// separating triangles, degrees 5 and 6) the path a0 t0 t1 z and the vertices beside it are
/// distinct, so the expansion succeeds once z is the vertex two places on from t0 round t1.
/// Around t0 (in orientation s) lie a0, u, w, t1; around t1, t0, w, z. The new r0 takes u and w
/// from t0, r1 takes w from t1.
bool expand_l0(PlanarMap& g, const Expansion& e, RowOp& row) {
  constexpr int mask = PlanarMap::kMaxDegree - 1;
  const int s = e.s;
  const int a0 = e.a0;
  const int t0 = e.t0;
  const int z = e.z;
  const int r0 = g.nv;
  const int r1 = g.nv + 1;
  const int d0 = g.deg[t0];
  const int i0 = g.index_of(t0, a0);
  if (i0 < 0) return false;
  const int iu = PlanarMap::wrap(d0, i0 + s);
  const int iw = PlanarMap::wrap(d0, i0 + 2 * s);
  const int u = g.adj[t0][iu];
  const int w = g.adj[t0][iw];
  const int t1 = g.adj[t0][PlanarMap::wrap(d0, i0 + 3 * s)];
  const int d1 = g.deg[t1];
  const int iz = g.index_of(t1, z);
  const int w1 = g.index_of(t1, w);
  if (iz < 0 || w1 < 0 || g.adj[t1][PlanarMap::wrap(d1, iz - 2 * s)] != t0) return false;
  // t0 and t1: their lists turned to start at w and z, u and w replaced by r0 and r1 (w is slot 0
  // of t0's, u the slot one place before it in orientation s).
  const auto put = [](std::uint64_t row, int slot, int v) { return (row & ~in_slot(0xff, slot)) | in_slot(v, slot); };
  g.set_word(t0, put(put(slots_from(g.word(t0), d0, iw, d0), 0, r1), s > 0 ? d0 - 1 : 1, r0));
  g.set_word(t1, put(slots_from(g.word(t1), d1, iz, d1), PlanarMap::wrap(d1, w1 - iz), r1));
  g.replace(u, t0, r0);
  g.replace(w, t0, r0);
  g.replace(w, t1, r1);
  const auto set = [&g](int v, std::initializer_list<int> list) {
    int i = 0;
    for (const int x : list) g.adj[v][i++ & mask] = static_cast<std::uint8_t>(x);
    g.deg[v] = static_cast<std::uint8_t>(list.size());
  };
  if (s > 0) {
    set(r0, {t0, a0, u, w, r1});
    set(r1, {t1, t0, r0, w, z});
  } else {
    set(r0, {t0, r1, w, u, a0});
    set(r1, {t1, z, w, r0, t0});
  }
  // r0 goes in just before t0 round a0, r1 just after t1 round z (in orientation s).
  const int xa = g.index_of(a0, t0);
  g.insert_at(a0, s > 0 ? xa : xa + 1, r0);
  const int xz = g.index_of(z, t1);
  g.insert_at(z, s > 0 ? xz + 1 : xz, r1);
  g.nv += 2;
  g.move_pentagon(a0, r0);
  g.move_pentagon(z, r1);
  row = RowOp{r0, r1, s, 1, -1};
  return true;
}

/// expand() written out: the lists that its splits leave (expand_by_splits), slot for slot, when
/// a_0, the path t_0..t_m and z are distinct and no face that t_j gives over to the new row (the
/// faces beside the path) is an earlier t_i (i < j). The splits go from t_m back to t_0, so then
/// every t_j's list is still h's when its own split reads it; a face given over by t_j only has
/// t_j renamed r_j in its list, after its own list is written, whether it lies beside the path
/// twice (a long row winding round), is a later face of the path, a_0 or z. Returns false, with g
/// untouched, otherwise or when the expansion cannot be made; expand_by_splits then decides.
///
/// With N_j(k) the face k places on round t_j from t_{j-1} (t_{-1} = a_0) in orientation s, the
/// path goes on to t_{j+1} = N_j(3), or N_j(2) at the bend b, and ends at z = N_m(2) (straight)
/// or N_m(3) (bent). The new r_j takes from t_j the faces between t_{j-1} and the way on: N_j(1)
/// and N_j(2), only N_j(1) at the bend and at the end of a straight row. In orientation s, from
/// slot 0 (where the splits leave it):
///   r_j = t_j, t_{j-1} (r_{j-1} past the bend), r_{j-1} (0 < j, up to the bend), the faces
///         taken from t_j, r_{j+1} (j < m), t_{j+1} (b <= j < m), z (j = m);
///   t_j = r_{j+1} (j < m up to the bend) or the way on (N_j(2) at the bend or the end of a
///         straight row, else N_j(3)), the faces it keeps round to t_{j-1}, r_{j-1} (past the
///         bend), r_j.
/// a_0 takes r_0 just before t_0, z takes r_m just after t_m, and each face taken from t_j has
/// t_j replaced by r_j. Slots ascend in orientation +1, so for s = -1 each list is written from
/// slot 0 backwards.
bool expand_written_out(PlanarMap& g, const Expansion& e, RowOp& row) {
  const int m = e.m;
  const int b = e.bend;
  const int s = e.s;
  const int first = g.nv;
  if (m < 1 || (b >= 0 && (b < 1 || b >= m)) || first + m + 1 > PlanarMap::kMaxVertices || g.deg[e.a0] != 5)
    return false;
  // t[j + 1] = t_j (t[0] = a_0); list[j]: t_j's list turned to start at its way on (slot 0),
  // read before anything is written; taken[j]: the faces r_j takes from it (one per byte).
  std::array<int, PlanarMap::kMaxVertices + 2> t;
  std::array<std::uint64_t, PlanarMap::kMaxVertices + 1> list;
  std::array<std::uint16_t, PlanarMap::kMaxVertices + 1> taken;
  VertexSet used;  // a_0 and the path so far
  t[0] = e.a0;
  t[1] = e.t0;
  used.add(e.a0);
  int z = -1;
  for (int j = 0; j <= m; ++j) {
    const int v = t[j + 1];
    const int d = g.deg[v];
    if (used.has(v) || d < 5 || d > 6) return false;
    used.add(v);
    const int i = g.index_of(v, t[j]);
    if (i < 0) return false;
    const bool past_bend = b >= 0 && j > b;
    const int way_on = j == b || (b < 0 && j == m) ? 2 : 3;
    const std::uint64_t word = g.word(v);
    const auto face = [&](int k) { return static_cast<int>(word >> (8 * PlanarMap::wrap(d, i + k * s)) & 0xff); };
    list[j] = slots_from(word, d, PlanarMap::wrap(d, i + (past_bend ? 3 : 2) * s), d);
    if (j < m) t[j + 2] = face(way_on);
    else z = face(way_on);
    const int n1 = face(1);
    const int n2 = way_on == 3 ? face(2) : -1;
    for (const int f : {n1, n2}) {
      if (f < 0) continue;
      if (f != e.a0 && used.has(f)) return false;
    }
    taken[j] = static_cast<std::uint16_t>(n1 | (n2 < 0 ? 0xff00 : n2 << 8));
  }
  if (g.deg[z] != 5 || used.has(z)) return false;
  const auto r = [first](int j) { return first + j; };
  const auto put = [](std::uint64_t w, int slot, int v) { return (w & ~in_slot(0xff, slot)) | in_slot(v, slot); };
  for (int j = 0; j <= m; ++j) {
    const int v = t[j + 1];
    const int d = g.deg[v];
    const bool past_bend = b >= 0 && j > b;
    const bool from_bend = b >= 0 && j >= b;
    const int n1 = taken[j] & 0xff;
    const int n2 = taken[j] >> 8 == 0xff ? -1 : taken[j] >> 8;
    // r_j, in orientation s.
    std::array<int, 6> l{};
    int n = 0;
    l[n++] = v;
    l[n++] = past_bend ? r(j - 1) : t[j];
    if (j > 0 && !past_bend) l[static_cast<std::size_t>(n++)] = r(j - 1);
    l[static_cast<std::size_t>(n++)] = n1;
    if (n2 >= 0) l[static_cast<std::size_t>(n++)] = n2;
    if (j < m) l[static_cast<std::size_t>(n++)] = r(j + 1);
    if (j == m)
      l[static_cast<std::size_t>(n++)] = z;
    else if (from_bend)
      l[static_cast<std::size_t>(n++)] = t[j + 2];
    std::uint64_t rw = in_slot(l[0], 0);
    for (int k = 1; k < n; ++k) rw |= in_slot(l[static_cast<std::size_t>(s > 0 ? k : n - k)], k);
    g.set_word(r(j), rw);
    g.deg[r(j)] = static_cast<std::uint8_t>(n);
    // t_j: its list from the way on, with the taken faces' slots given to the new row.
    std::uint64_t tw = list[j];
    if (!from_bend && j < m) tw = put(tw, 0, r(j + 1));
    if (past_bend) {
      tw = put(tw, s > 0 ? d - 2 : 2, r(j - 1));
      tw = put(tw, s > 0 ? d - 1 : 1, r(j));
    } else {
      tw = put(tw, s > 0 ? d - 1 : 1, r(j));
    }
    g.set_word(v, tw);
  }
  for (int j = 0; j <= m; ++j) {
    g.replace(taken[j] & 0xff, t[j + 1], r(j));
    if (taken[j] >> 8 != 0xff) g.replace(taken[j] >> 8, t[j + 1], r(j));
  }
  const int xa = g.index_of(e.a0, t[1]);
  g.insert_at(e.a0, s > 0 ? xa : xa + 1, r(0));
  const int xz = g.index_of(z, t[m + 1]);
  g.insert_at(z, s > 0 ? xz + 1 : xz, r(m));
  g.nv += m + 1;
  g.move_pentagon(e.a0, r(0));
  g.move_pentagon(z, r(m));
  row = RowOp{first, first + 1, s, m, b};
  return true;
}
}  // namespace

bool expand(PlanarMap& g, const Expansion& e, RowOp& row) {
  if (e.m == 1 && e.bend < 0 && e.z >= 0 && g.nv + 2 <= PlanarMap::kMaxVertices && g.deg[e.a0] == 5 &&
      g.deg[e.z] == 5)
    return expand_l0(g, e, row);
  return expand_written_out(g, e, row) || expand_by_splits(g, e, row);
}

bool expand_by_splits(PlanarMap& g, const Expansion& e, RowOp& row) {
  const int m = e.m;
  const int s = e.s;
  if (g.nv + m + 1 > PlanarMap::kMaxVertices || g.deg[e.a0] != 5) return false;
  // t[0] is a_0, t[j+1] is t_j.
  std::array<int, PlanarMap::kMaxVertices + 2> t;
  VertexSet on_path;
  t[0] = e.a0;
  t[1] = e.t0;
  on_path.add(e.a0);
  for (int j = 0; j <= m; ++j) {
    if (on_path.has(t[j + 1])) return false;
    on_path.add(t[j + 1]);
    if (j < m) t[j + 2] = ring(g, t[j + 1], t[j], (j == e.bend ? 2 : 3) * s);
  }
  const int z = ring(g, t[m + 1], t[m], (e.bend < 0 ? 2 : 3) * s);
  if (g.deg[z] != 5 || on_path.has(z)) return false;
  const int first = g.nv;
  g.nv += m + 1;
  for (int j = 0; j <= m; ++j) g.deg[first + j] = 0;
  for (int j = m; j >= 0; --j) {
    const int y = j == m ? z : (e.bend < 0 || j < e.bend ? first + j + 1 : t[j + 2]);
    if (!split(g, t[j + 1], t[j], y, s, first + j)) return false;
  }
  if (g.deg[e.a0] != 6 || g.deg[z] != 6) return false;
  for (int j = 0; j <= m; ++j) {
    const int r = first + j;
    if (g.deg[r] != (j == 0 || j == m ? 5 : 6)) return false;
    if (has_repeat(g.word(r), g.deg[r])) return false;
    if (g.deg[t[j + 1]] < 5 || g.deg[t[j + 1]] > 6) return false;
  }
  g.move_pentagon(e.a0, first);
  g.move_pentagon(z, first + m);
  row = RowOp{first, first + 1, s, m, e.bend};
  return true;
}

}  // namespace molstep::fullerene
