// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

/// A small mutable rotation system for the generator's inner loop: fixed-size arrays, no heap,
/// cheap to copy. Vertices are faces of the fullerene (at most kMaxVertices, i.e. C506); during
/// an expansion a vertex may briefly hold up to kMaxDegree neighbours.
struct PlanarMap {
  static constexpr int kMaxVertices = 255;
  static constexpr int kMaxDegree = 8;  // a power of two: indices are masked with kMaxDegree-1

  /// kSlotMasks[d]: the bytes of slots 0..d-1 of a neighbour list read as one word.
  static constexpr std::array<std::uint64_t, kMaxDegree + 1> kSlotMasks = [] {
    std::array<std::uint64_t, kMaxDegree + 1> masks{};
    for (int d = 1; d <= kMaxDegree; ++d) masks[d] = masks[d - 1] << 8 | 0xff;
    return masks;
  }();

  /// kWrap[d][j + 2*kMaxDegree]: j reduced modulo d, for -2*kMaxDegree <= j < 3*kMaxDegree (no
  /// branches in at()).
  static constexpr std::array<std::array<std::uint8_t, 5 * kMaxDegree>, kMaxDegree + 1> kWrap = [] {
    std::array<std::array<std::uint8_t, 5 * kMaxDegree>, kMaxDegree + 1> wrap{};
    for (int d = 1; d <= kMaxDegree; ++d)
      for (int j = 0; j < 5 * kMaxDegree; ++j)
        wrap[d][j] = static_cast<std::uint8_t>(((j - 2 * kMaxDegree) % d + d) % d);
    return wrap;
  }();

  int nv = 0;
  std::array<std::uint8_t, 12> pentagons{};  ///< the degree-5 vertices, kept current by expand()
  std::array<std::uint8_t, kMaxVertices> deg{};
  /// Rows on 8-byte boundaries: a row read as one word (word()) never straddles two cache lines.
  alignas(std::uint64_t) std::array<std::array<std::uint8_t, kMaxDegree>, kMaxVertices> adj{};

  /// v's neighbour list as one word: slot i is byte i.
  [[nodiscard]] std::uint64_t word(int v) const {
    static_assert(std::endian::native == std::endian::little, "slot i is byte i of the word");
    static_assert(sizeof(adj[0]) == sizeof(std::uint64_t));
    std::uint64_t row = 0;
    std::memcpy(&row, adj[v].data(), sizeof row);
    return row;
  }
  void set_word(int v, std::uint64_t row) { std::memcpy(adj[v].data(), &row, sizeof row); }
  /// The high bit of each byte of v's list word that holds w (and, above the lowest such byte,
  /// possibly of bytes that do not: the zero-byte test's borrow runs upwards only). All eight
  /// slots, stale ones past deg(v) included, are compared at once.
  [[nodiscard]] std::uint64_t slots_holding(int v, int w) const {
    const std::uint64_t x = word(v) ^ (std::uint64_t{0x0101010101010101} * static_cast<std::uint8_t>(w));
    return (x - std::uint64_t{0x0101010101010101}) & ~x & std::uint64_t{0x8080808080808080};
  }
  /// Position of w in v's neighbour list, or -1 (the lists have no repeats, so the lowest
  /// matching slot below deg(v) is the one).
  [[nodiscard]] int index_of(int v, int w) const {
    const std::uint64_t zero = slots_holding(v, w) & kSlotMasks[deg[v]];
    return zero == 0 ? -1 : std::countr_zero(zero) >> 3;
  }
  /// Position of w in v's list when w is one of v's neighbours: index_of without its tests (the
  /// lowest matching slot is then the one, below deg(v)). When w is no neighbour the result is
  /// some slot from 0 to 7. At all C96 12.808 -> 12.574 billion instructions with the walks,
  /// the child tests and the breadth-first codes on it.
  [[nodiscard]] int slot_of(int v, int w) const {
    return std::countr_zero(slots_holding(v, w) | std::uint64_t{1} << 63) >> 3;
  }
  /// Position j round a vertex of degree d, reduced modulo d (-2*kMaxDegree <= j < 3*kMaxDegree).
  [[nodiscard]] static int wrap(int d, int j) {
    return kWrap[static_cast<std::size_t>(d)][static_cast<std::size_t>(j + 2 * kMaxDegree)];
  }
  /// Neighbour of v `steps` places on from position i (|steps| <= deg(v); negative walks back).
  [[nodiscard]] int at(int v, int i, int steps) const { return adj[v][wrap(deg[v], i + steps)]; }
  /// Inserts w at position pos of v's list; false (and no change) when the list is full.
  bool insert_at(int v, int pos, int w) {
    const int d = deg[v];
    if (d >= kMaxDegree || pos < 0 || pos > d) return false;
    // The list as one word: the slots from pos on move up one byte (slots past deg are unused).
    const std::uint64_t row = word(v);
    set_word(v, (row & kSlotMasks[pos]) | std::uint64_t{static_cast<std::uint8_t>(w)} << (8 * pos) |
                    ((row << 8) & ~kSlotMasks[pos + 1]));
    deg[v] = static_cast<std::uint8_t>(d + 1);
    return true;
  }
  void remove_at(int v, int pos) {
    const std::uint64_t row = word(v);
    set_word(v, (row & kSlotMasks[pos]) | ((row >> 8) & ~kSlotMasks[pos]));
    --deg[v];
  }
  void replace(int v, int old_w, int new_w) {
    const int i = index_of(v, old_w);
    if (i >= 0) adj[v][i & (kMaxDegree - 1)] = static_cast<std::uint8_t>(new_w);
  }
  [[nodiscard]] bool adjacent(int v, int w) const { return index_of(v, w) >= 0; }
  /// Records that pentagon `was` has become a hexagon and `now` a pentagon.
  void move_pentagon(int was, int now) {
    for (auto& p : pentagons) p = p == was ? static_cast<std::uint8_t>(now) : p;  // no branch per slot
  }
  /// The slot of pentagon v in `pentagons` (v must be one).
  [[nodiscard]] int pentagon_slot(int v) const {
    int p = 0;
    while (p < 11 && pentagons[static_cast<std::size_t>(p)] != v) ++p;
    return p;
  }
  /// Rebuilds the pentagon list from the degrees.
  void find_pentagons();
  /// Copies only the live rows (the generator copies maps at every node of its search).
  void copy_from(const PlanarMap& other);
};

/// A set of vertices of a PlanarMap.
struct VertexSet {
  std::array<std::uint64_t, (PlanarMap::kMaxVertices + 64) / 64> words{};

  void add(int v) { words[v >> 6] |= std::uint64_t{1} << (v & 63); }
  /// add(v) writing every word (or-ing 0 into all but one), for a set that a function builds
  /// from scratch: the compiler can then keep it in registers, where add's one-word store makes
  /// each add wait on the one before through memory (all C90 3.5% faster with it in first_leg,
  /// ball and add_closed_neighbourhood; IPR C130 2% slower with it in every add).
  void put(int v) {
    const auto& bits = kPut[static_cast<std::size_t>(v)];
    for (std::size_t i = 0; i < words.size(); ++i) words[i] |= bits[i];
  }
  /// kPut[v]: the set {v}, which put() ors in whole (two vector ors, no test per word).
  static constexpr std::array<decltype(words), 256> kPut = [] {
    std::array<decltype(words), 256> table{};
    for (std::size_t v = 0; v < table.size(); ++v) table[v][v / 64] = std::uint64_t{1} << (v % 64);
    return table;
  }();
  [[nodiscard]] bool has(int v) const { return (words[v >> 6] >> (v & 63) & 1U) != 0; }
  [[nodiscard]] bool meets(const VertexSet& other) const {
    // No early exit: four ANDs and no branches.
    std::uint64_t common = 0;
    for (std::size_t i = 0; i < words.size(); ++i) common |= words[i] & other.words[i];
    return common != 0;
  }
  [[nodiscard]] bool empty() const {
    std::uint64_t any = 0;
    for (const std::uint64_t w : words) any |= w;
    return any == 0;
  }
  /// Keeps only the vertices that `other` holds too.
  void intersect(const VertexSet& other) {
    for (std::size_t i = 0; i < words.size(); ++i) words[i] &= other.words[i];
  }
  /// Adds v and its neighbours.
  void add_closed_neighbourhood(const PlanarMap& m, int v) {
    put(v);
    for (int i = 0; i < m.deg[v]; ++i) put(m.adj[v][i]);
  }
};

/// For each face of a map, how many pentagons (degree-5 vertices) lie next to it. fill() reads
/// five neighbours a pentagon: the map must be whole (not one in the middle of an expansion).
struct PentagonNeighbours {
  std::array<std::uint8_t, PlanarMap::kMaxVertices> count;
  void fill(const PlanarMap& g);
};

/// For each pentagon of a map, which of its five neighbours are pentagons: bit j for slot j.
struct PentagonRings {
  std::array<std::uint8_t, PlanarMap::kMaxVertices> of;  ///< valid at the map's pentagons only
  void fill(const PlanarMap& g) {
    for (const int p : g.pentagons) {
      unsigned ring = 0;
      for (int j = 0; j < 5; ++j) ring |= static_cast<unsigned>(g.deg[g.adj[p][j]] == 5) << j;
      of[static_cast<std::size_t>(p)] = static_cast<std::uint8_t>(ring);
    }
  }
  /// The neighbours 1, 2, 3 and 4 places after slot k round a pentagon whose ring is `ring`
  /// (orientation s = 1 or -1), as bits, the first one highest.
  [[nodiscard]] static int after(unsigned ring, int k, int s) {
    return kAfter[s > 0 ? 0 : 1][static_cast<std::size_t>(k)][ring];
  }
  static constexpr std::array<std::array<std::array<std::uint8_t, 32>, 5>, 2> kAfter = [] {
    std::array<std::array<std::array<std::uint8_t, 32>, 5>, 2> table{};
    for (int o = 0; o < 2; ++o)
      for (int k = 0; k < 5; ++k)
        for (unsigned ring = 0; ring < 32; ++ring) {
          unsigned bits = 0;
          for (int i = 1; i <= 4; ++i) bits = bits << 1 | (ring >> ((k + (o == 0 ? i : 5 - i)) % 5) & 1U);
          table[o][k][ring] = static_cast<std::uint8_t>(bits);
        }
    return table;
  }();
};

[[nodiscard]] PlanarMap as_planar_map(const Triangulation& t);
[[nodiscard]] Triangulation as_triangulation(const PlanarMap& m);

}  // namespace molstep::fullerene
