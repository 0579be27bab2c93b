// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
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

  void search(int depth, int nauto);
  void start(const std::function<void(const PlanarMap&)>* sink, const std::function<void(const Subtree&)>* subtrees);
  bool is_canonical(const PlanarMap& g, const RowOp& row, int& nauto, std::string* code);
  /// The key without inv2 (left 0); complete() adds it when a comparison needs it.
  [[nodiscard]] Key key_of(const PlanarMap& g, const RowOp& row) const;
  static void complete(const PlanarMap& g, const RowOp& row, Key& key);
  bool reduces_to_fullerene(const PlanarMap& g, const RowOp& row);
  void visit(int depth, int nauto);

  GeneratorOptions options_;
  int target_nv_;
  int split_nv_;
  std::uint64_t split_index_ = 0;
  std::uint64_t emitted_ = 0;
  std::vector<PlanarMap> level_;
  std::vector<std::unordered_set<std::string>> seen_;
  struct Lasting {
    int size;
    VertexSet row;
  };
  std::vector<std::vector<Lasting>> lasting_;  // per level: the parent's reductions
  struct Rival {
    Key key;
    VertexSet reads;  // vertices whose neighbour lists or degrees the key depends on
  };
  std::vector<std::vector<Rival>> rivals_;  // per level: the parent's L0 reductions
  [[nodiscard]] Key predicted_l0_key(const PlanarMap& h, const Expansion& e) const;
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
