// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "molstep/fullerene/expansion.hpp"
#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

struct GeneratorOptions {
  int atoms = 60;
  bool ipr = false;  ///< only isomers whose pentagons are pairwise disjoint
  int part = 0;      ///< this worker's part, 0-based ...
  int parts = 1;     ///< ... of this many; the parts partition the isomer space
};

/// Checks N: even, 20 or at least 24, at most the generator's limit. Throws molstep::Error.
void check_atom_count(int atoms);

/// Every C_N isomer exactly once, by canonical construction (McKay's canonical construction path,
/// the method of BuckyGen: Brinkmann, Goedgebeur and McKay, 2012). Isomers grow from C28-Td and
/// the (5,0) nanotubes C20, C30, C40, ... by L and B expansions (expansion.hpp); a child is kept only when the reduction that
/// undoes its expansion is its canonical reduction: the smallest, then by a cheap invariant, then
/// by breadth-first code. Memory is constant (one map per level of the search) and the output
/// order is fixed, so `part`/`parts` split the space into disjoint, reproducible parts.
class Generator {
 public:
  /// An independent piece of the search: every isomer below `root` (numbered `index` in the
  /// fixed order in which the search meets such pieces) comes from it and from no other piece.
  struct Subtree {
    PlanarMap root;
    int nauto = 1;
    std::uint64_t index = 0;
  };

  explicit Generator(const GeneratorOptions& options);

  /// Calls sink(map) for each isomer (dual triangulation) of this part; returns how many.
  std::uint64_t run(const std::function<void(const PlanarMap&)>& sink);
  /// Walks only the top of the search and hands out this part's subtrees in order; running each
  /// with run_subtree (on any thread, each with its own Generator) yields the same isomers as run().
  void for_each_subtree(const std::function<void(const Subtree&)>& sink);
  std::uint64_t run_subtree(const Subtree& subtree, const std::function<void(const PlanarMap&)>& sink);

 private:
  struct Key {
    int size;
    int shape;
    int inv;   // pentagons round r0 and the corner a0
    std::int64_t inv2;  // pentagons round r1 and t0 and along straight rays from the row
    auto operator<=>(const Key&) const = default;
  };
  /// One of a parent's L0 views: the children of its L0 expansions compete with it.
  struct Rival {
    RowOp view;
    Key key;          // inv only
    VertexSet reads;  // vertices whose neighbour lists or degrees the key depends on
    bool has_reads;   // reads is filled in (on first use)
    bool untouched;   // by the expansion being tried: the view and its key survive in the child
  };
  /// A parent's L0 views, and which of them has each l0_view_id (-1: none).
  struct Rivals {
    std::vector<Rival> list;
    std::array<std::int8_t, kL0Views> by_view{};
    std::vector<std::pair<int, int>> rows;  // the L0 rows (r0 < r1)
    bool carried = false;  // filled in by the test of the map's own expansion
  };

  void search(int depth, int nauto);
  void start(const std::function<void(const PlanarMap&)>* sink, const std::function<void(const Subtree&)>* subtrees);
  /// True when the new row `row` of g is g's canonical reduction (up to automorphisms); with
  /// `either_end`, when either of its two views is. Sets nauto to |Aut(g)| and, when asked, code
  /// to g's code from the canonical view.
  /// `known`: for an L0 child, the parent's L0 views, marked untouched where the expansion left
  /// them in place (nullptr: none known); then g's own L0 views go to `carry` (when not nullptr)
  /// if g passes.
  bool is_canonical(const PlanarMap& g, const RowOp& row, bool either_end, const Rivals* known, Rivals* carry,
                    int& nauto, std::string* code);
  /// The key without inv2 (left 0); complete() adds it when a comparison needs it.
  [[nodiscard]] Key key_of(const PlanarMap& g, const RowOp& row) const;
  static void complete(const PlanarMap& g, const RowOp& row, Key& key);
  /// ka < kb, completing both keys first when their cheap parts are equal.
  static bool settle(const PlanarMap& g, const RowOp& a, Key& ka, const RowOp& b, Key& kb);
  bool reduces_to_fullerene(const PlanarMap& g, const RowOp& row);
  void visit(int depth, int nauto);

  GeneratorOptions options_;
  int target_nv_;
  int split_nv_;
  std::vector<int> max_canonical_;  // max_canonical_size(nv) for nv <= target_nv_
  std::uint64_t split_index_ = 0;
  std::uint64_t emitted_ = 0;
  std::vector<PlanarMap> level_;
  std::vector<std::unordered_set<std::string>> seen_;
  struct Lasting {
    int size;
    VertexSet row;
  };
  std::vector<std::vector<Lasting>> lasting_;  // per level: the parent's reductions
  std::vector<Rivals> rivals_;  // per level
  /// The inv of the child's new row seen from r0 after the L0 expansion e, read from h.
  [[nodiscard]] static int predicted_l0_inv(const PlanarMap& h, const Expansion& e);
  /// True when the expansion rewriting `changed` leaves r and its key in place.
  static bool untouched(const PlanarMap& h, Rival& r, const VertexSet& changed);
  /// Bit p set for each degree-5 vertex h.pentagons[p] within distance 4 of v or w; marks
  /// (mark_[x] == stamp_) every vertex x that close.
  unsigned pentagons_near(const PlanarMap& h, int v, int w);
  std::array<std::uint32_t, PlanarMap::kMaxVertices> mark_{};
  std::uint32_t stamp_ = 0;
  std::vector<int> queue_;
  std::vector<RowOp> ties_;
  std::vector<std::uint8_t> code_a_, code_b_;
  PlanarMap scratch_;
  const std::function<void(const PlanarMap&)>* sink_ = nullptr;
  const std::function<void(const Subtree&)>* subtree_sink_ = nullptr;
  bool in_subtree_ = false;
};

/// Number of C_N isomers (all, or IPR), counted on `threads` threads: one walks the top of the
/// search and hands its subtrees to the others.
[[nodiscard]] std::uint64_t count_isomers(int atoms, bool ipr, int threads);

/// True when no two pentagons (degree-5 vertices) are adjacent.
[[nodiscard]] bool is_ipr(const PlanarMap& m);

}  // namespace molstep::fullerene
