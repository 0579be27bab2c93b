// SPDX-License-Identifier: MIT
#include "molstep/fullerene/generator.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/canonical.hpp"
#include "molstep/fullerene/ipr_roots.hpp"
#include "molstep/fullerene/seeds.hpp"

namespace molstep::fullerene {
namespace {
// Reductions of a parent up to this size are kept to prune its expansions; larger ones rarely
// prune anything the small ones do not.
constexpr int kLastingSize = 5;
// The faces read along each straight ray of a reduction's key (inv2) past the first two: the
// ray goes from r0 through a0 or t0 (both read by a longer row's inv) to the face beyond, then
// this many faces more. Each face is read with the number of pentagons next to it, so a ray sees
// the pentagons beside its line too: at all C110, 83% of the comparisons that reach the rays end
// at the first face read and 97% by the second, against 49% at the first when rays read one bit
// a face from the third face on; and 6 faces are as good as 11 (bench/RESULTS.md run 36).
constexpr int kRaySteps = 6;
// An expansion of 3 vertices rewrites only vertices within this distance of its path's middle
// vertex t1, the end of its first leg (the legs search walks on) ...
constexpr int kSize3Reach = 2;
// ... so within this distance of each other (far_pairs).
constexpr int kSize3Spread = 2 * kSize3Reach;

/// Faces within distance r of a pentagon when all of them are distinct: 1 + 5 + 10 + ... + 5r.
int faces_in_patch(int r) { return 1 + 5 * r * (r + 1) / 2; }

/// Largest canonical reduction a fullerene dual with nv vertices can need. Two pentagons at
/// distance d or more have disjoint patches of radius (d-1)/2 round them, so a small fullerene
/// has two pentagons close together, and two pentagons at distance d give a reduction of at most
/// d+1 vertices (Brinkmann, Goedgebeur and McKay 2012; the extra 20 faces for even d come from the
/// same paper). Expansions larger than this bound cannot be canonical.
int max_canonical_size(int nv) {
  for (int d = 1;; ++d) {
    int needed = 12 * faces_in_patch((d - 1) / 2);
    if (d % 2 == 0 && d > 2) needed += 20;
    if (nv < needed) return d;
  }
}
}  // namespace

void check_atom_count(int atoms) {
  const int limit = 2 * PlanarMap::kMaxVertices - 4;
  if (atoms % 2 != 0 || atoms < 20 || atoms == 22 || atoms > limit)
    throw Error("no fullerene C" + std::to_string(atoms) + ": N must be even, 20 or 24.." + std::to_string(limit) +
                " (C22 does not exist)");
}

bool is_ipr(const PlanarMap& m) {
  for (const int v : m.pentagons)
    for (int i = 0; i < 5; ++i)
      if (m.deg[m.adj[v][i]] == 5) return false;
  return true;
}

bool Generator::dead(int child_nv) const {
  // A child one vertex short of the target can never reach it: expansions add two or more. With
  // --ipr, the isomer's own expansion adds at least three vertices (only an L0 expansion adds
  // two, and the ends of its new row are adjacent pentagons) and at most max_canonical_size of
  // the target (a larger one is not canonical); those before it two or more each. So a child r
  // short of the target is dead unless r is such a size, or such a size plus two or more: below
  // C140 (where that size is 3), r = 1, 2 or 4.
  const int r = target_nv_ - child_nv;
  if (r == 1) return true;
  // Within IPR fullerenes every expansion adds three vertices or more (an L0 expansion leaves
  // its new row's ends, two pentagons, adjacent), of any size.
  if (ipr_tree_) return r == 2;
  if (!options_.ipr || r <= 0) return false;
  const int largest = max_canonical_[static_cast<std::size_t>(target_nv_)];
  for (int last = 3; last <= largest; ++last)
    if (r == last || r - last >= 2) return false;
  return true;
}

Generator::Generator(const GeneratorOptions& options) : options_(options) {
  check_atom_count(options.atoms);
  ipr_tree_ = options.ipr && !options.ipr_whole_search;
  if (options.parts < 1 || options.part < 0 || options.part >= options.parts)
    throw Error("part " + std::to_string(options.part + 1) + "/" + std::to_string(options.parts) +
                " does not exist: parts are numbered 1.." + std::to_string(options.parts));
  target_nv_ = options.atoms / 2 + 2;
  // Parts are assigned where the search first reaches this size: late enough that there are
  // many subtrees to share out, early enough that the search above it, which every part repeats,
  // is a small share of the work. From C100 on, 20 faces short of the target, as BuckyGen, up to
  // C126 (2.65 million subtrees; the 14.5 million nodes above them take over a minute); below,
  // 10 short of the target up to C60 (1,812 subtrees).
  split_nv_ = std::clamp(target_nv_ - 20, std::min(target_nv_ - 10, 32), kMaxSplitFaces);
  // Within IPR fullerenes as well 20 faces short of the target (below C100 the irreducible roots
  // themselves are shared out), but never above kMaxSplitFacesIpr. 10 short, every part repeated
  // most of the search: the IPR fullerenes up to C_{N-22} are a large share of the nodes (IPR
  // C130, one core: the whole 5.4 s, part 1/16 2.3 s with the fork at C110, 0.39 s with it at
  // C90).
  if (ipr_tree_) split_nv_ = std::min(target_nv_ - 20, kMaxSplitFacesIpr);
  level_.resize(static_cast<std::size_t>(target_nv_) + 1);
  jump_owner_.resize(level_.size());
  seen_.resize(level_.size());
  lasting_.resize(level_.size());
  rivals_.resize(level_.size());
  row_bits_.resize(level_.size());
  legs_.resize(level_.size());
  rings_.resize(level_.size());
  legs_filled_.assign(level_.size(), false);
  made_by_.resize(level_.size());
  row_near_.resize(level_.size());
  ipr_pairs_.resize(level_.size());
  ipr_lasting_.resize(level_.size());
  if (ipr_tree_) ipr_lasting_bits_.resize(level_.size());
  ipr_rivals_.resize(level_.size());
  for (int nv = 0; nv <= target_nv_; ++nv) max_canonical_.push_back(max_canonical_size(nv));
  code_a_.resize(static_cast<std::size_t>(bfs_code_length(target_nv_)));
}

std::vector<Generator::Subtree> Generator::seeds() const {
  if (ipr_tree_) {
    // Within IPR fullerenes the search grows from the irreducible ones, each checked for repeats
    // among its children as the seeds below are.
    std::vector<Subtree> roots;
    for (const Spiral& irreducible : irreducible_ipr_fullerenes_up_to(options_.atoms))
      roots.push_back(Subtree{as_planar_map(triangulation_from_spiral(irreducible)), 2});
    return roots;
  }
  std::vector<Triangulation> seeds{c28_td_dual()};
  for (int rings = 0; 12 + 5 * rings <= target_nv_; ++rings) seeds.push_back(nanotube_5_0_dual(rings));
  std::vector<Subtree> roots;
  for (const Triangulation& seed : seeds) {
    if (seed.size() > target_nv_) continue;
    // The seeds are highly symmetric: their children are always checked for repeats.
    roots.push_back(Subtree{as_planar_map(seed), 2});
  }
  return roots;
}

void Generator::start_at(const Subtree& subtree) {
  level_[0].copy_from(subtree.root);
  rivals_[0].carried = false;
  visit(0, subtree.nauto);
}

std::uint64_t Generator::run(const std::function<void(const PlanarMap&)>& sink, const Fork* at_split) {
  sink_ = &sink;
  split_fork_ = at_split;
  in_subtree_ = false;
  emitted_ = 0;
  split_index_ = 0;
  near_index_ = 0;
  for (const Subtree& seed : seeds()) start_at(seed);
  sink_ = nullptr;
  split_fork_ = nullptr;
  return emitted_;
}

std::uint64_t Generator::run_subtree(const Subtree& subtree, const std::function<void(const PlanarMap&)>& sink,
                                     const Fork* fork, std::uint64_t budget) {
  sink_ = &sink;
  fork_ = fork;
  fork_budget_ = budget;
  in_subtree_ = true;
  emitted_ = 0;
  searched_ = 0;
  start_at(subtree);
  in_subtree_ = false;
  fork_ = nullptr;
  sink_ = nullptr;
  return emitted_;
}

void Generator::visit(int depth, int nauto) {
  const PlanarMap& g = level_[depth];
  // Parts are dealt out, in run()'s order, to the nodes where the search first reaches split_nv_
  // or passes it: they are numbered, and the part numbered i-1 modulo m takes each. A node whose
  // parent lies kPartCapReach faces or fewer short of split_nv_ and which jumps past it is not:
  // such parents are numbered instead (near_index_), and the part of its parent's number takes
  // it (jump_owner_). The nodes below split_nv_ and the numbered ones are then the same in every
  // part, in the same order, and a parent whose jumps go to another part need not try them
  // (start_part_of_search), as BuckyGen's parts do not: at IPR C150, the search above the
  // nodes dealt out, which every part repeats, took 0.82 s on one VM core with every jump tried,
  // 0.37 s with those from up to 3 faces below left to their part, 0.28 s up to kPartCapReach = 5
  // (bench/RESULTS.md runs 36 and 37).
  const bool first_past_split = !in_subtree_ && g.nv >= split_nv_ && (depth == 0 || level_[depth - 1].nv < split_nv_);
  if (first_past_split) {
    const bool jump = depth > 0 && g.nv > split_nv_ && split_nv_ - level_[depth - 1].nv <= kPartCapReach;
    const std::uint64_t index = jump ? jump_owner_[static_cast<std::size_t>(depth) - 1] : split_index_++;
    if (index % static_cast<std::uint64_t>(options_.parts) != static_cast<std::uint64_t>(options_.part)) return;
  }
  if (g.nv == target_nv_) {
    if (!options_.ipr || is_ipr(g)) {
      ++emitted_;
      (*sink_)(g);
    }
    return;
  }
  if (first_past_split && split_fork_ != nullptr) {
    (*split_fork_)(g, nauto);
    return;
  }
  if (fork_ != nullptr && depth > 0 && searched_ >= fork_budget_) {
    (*fork_)(g, nauto);
    return;
  }
  ++searched_;
  search(depth, nauto);
}

template <class F>
void Generator::size3_meeting(const PlanarMap& h, const FirstLegs& legs, std::size_t level,
                              const std::vector<std::pair<int, int>>& pairs, const FirstLegs::Marks& walked, F&& f) {
  if (pairs.empty() || pairs.size() > 64) {
    for_each_size3_expansion_once(
        h, legs, walked, [](int, int, int) { return true; }, [](const int*, int) { return true; }, f);
  } else {
    auto& bits = row_bits_[level];
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      bits[static_cast<std::size_t>(pairs[i].first)] |= std::uint64_t{1} << i;
      bits[static_cast<std::size_t>(pairs[i].second)] |= std::uint64_t{1} << i;
    }
    const std::uint64_t all = pairs.size() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << pairs.size()) - 1;
    const auto meets_all = [&bits, all](const int* v, int n) {
      std::uint64_t met = 0;
      for (int i = 0; i < n; ++i) met |= bits[static_cast<std::size_t>(v[i])];
      return met == all;
    };
    // near1[x]: the pairs with a vertex in x's closed neighbourhood. The vertices an expansion
    // rewrites lie round t0, t1 and its third path vertex, so those three must see every pair.
    auto& near1 = row_near_[level];
    const auto spread = [&](bool set) {
      for (const auto& [v, w] : pairs)
        for (const int y : {v, w}) {
          const std::uint64_t b = bits[static_cast<std::size_t>(y)];
          near1[static_cast<std::size_t>(y)] = set ? near1[static_cast<std::size_t>(y)] | b : 0;
          for (int i = 0; i < h.deg[y]; ++i) {
            const auto x = static_cast<std::size_t>(h.adj[y][i]);
            near1[x] = set ? near1[x] | b : 0;
          }
        }
    };
    spread(true);
    const auto near = [&near1, all](int t0, int t1, int x) {
      return (near1[static_cast<std::size_t>(t0)] | near1[static_cast<std::size_t>(t1)] |
              near1[static_cast<std::size_t>(x)]) == all;
    };
    for_each_size3_expansion_once(h, legs, walked, near, meets_all, f);
    spread(false);
    for (const auto& [v, w] : pairs) {
      bits[static_cast<std::size_t>(v)] = 0;
      bits[static_cast<std::size_t>(w)] = 0;
    }
  }
}

void Generator::adjacent_pairs(const PlanarMap& g, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  for (const int v : g.pentagons)
    for (int i = 0; i < 5; ++i)
      if (const int w = g.adj[v][i]; v < w && g.deg[w] == 5) pairs.emplace_back(v, w);
}

void Generator::far_pairs(const PlanarMap& h, const std::vector<std::pair<int, int>>& pairs,
                          std::array<std::uint32_t, kMaxAdjacentPairs>& far) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const VertexSet close = ball(h, pairs[i].first, pairs[i].second, kSize3Spread);
    far[i] = 0;
    for (std::size_t j = 0; j < pairs.size(); ++j)
      if (!close.has(pairs[j].first) && !close.has(pairs[j].second)) far[i] |= 1U << j;
  }
}

bool Generator::ipr_below(const PlanarMap& h, std::size_t level, int child_nv, const VertexSet& changed) {
  IprPairs& pairs = ipr_pairs_[level];
  const auto& adjacent = pairs.adjacent;
  // An isomer must have no two pentagons adjacent: an adjacent pair of h survives into the child
  // unless the expansion rewrites the neighbour list of one of them.
  if (child_nv == target_nv_) {
    for (const auto& [v, w] : adjacent)
      if (!changed.has(v) && !changed.has(w)) return false;
    return true;
  }
  // A child 3 short of the target has one expansion of 3 vertices left (dead()), which rewrites
  // only vertices within distance 2 of its path's middle vertex: every pair of adjacent
  // pentagons it destroys has a vertex that close, so two pairs of h farther apart than 4 cannot
  // both survive into the child (distances never shrink in an expansion).
  if (child_nv != target_nv_ - 3 || adjacent.size() < 2) return true;
  if (!pairs.far_ready) {
    far_pairs(h, adjacent, pairs.far);
    pairs.far_ready = true;
  }
  std::uint32_t left = 0;
  for (std::size_t i = 0; i < adjacent.size(); ++i)
    if (!changed.has(adjacent[i].first) && !changed.has(adjacent[i].second)) left |= 1U << i;
  for (std::size_t i = 0; i < adjacent.size(); ++i)
    if ((left >> i & 1U) != 0 && (pairs.far[i] & left) != 0) return false;
  return true;
}

int Generator::start_part_of_search(int depth) {
  const PlanarMap& h = level_[static_cast<std::size_t>(depth)];
  if (in_subtree_ || h.nv >= split_nv_ || split_nv_ - h.nv > kPartCapReach) return std::numeric_limits<int>::max();
  // A parent of jumps past split_nv_ that visit hands out by its number.
  const std::uint64_t number = near_index_++;
  jump_owner_[static_cast<std::size_t>(depth)] = number;
  if (number % static_cast<std::uint64_t>(options_.parts) == static_cast<std::uint64_t>(options_.part))
    return std::numeric_limits<int>::max();
  return split_nv_ - h.nv;
}

void Generator::search(int depth, int nauto) {
  // Expansions past cap make children of other parts: none below 2 faces, and only L0 ones below
  // 3 (the passes of larger ones come after the L0 pass, so the children that remain come in the
  // same order as in the part that takes the jumps).
  const int cap = start_part_of_search(depth);
  if (ipr_tree_) {
    ipr_search(depth, nauto, cap);
    return;
  }
  if (cap < 2) return;
  const PlanarMap& h = level_[depth];
  PlanarMap& g = level_[depth + 1];
  auto& seen = seen_[depth];
  seen.clear();
  int max_size = target_nv_ - h.nv;
  while (max_size > 2 && max_size > max_canonical_[static_cast<std::size_t>(h.nv + max_size)]) --max_size;
  // Most children come from L0 expansions and compete with the parent's other L0 reductions: one
  // the expansion leaves untouched keeps its key, and if that key is smaller the child is not
  // canonical. The child's key is predicted from h, so most such children are never built.
  // They were met when h itself was tested, if h is an L0 child.
  Rivals& known = rivals_[depth];
  auto& rivals = known.list;
  if (!known.carried) {
    rivals.clear();
    known.by_view.fill(-1);
    for_each_l0_row(h, [&](const RowOp& v, int v_id, const RowOp& w, int w_id) {
      const std::array<int, 2> invs = l0_pair_invs(h, v, v_id, w, w_id);
      add_rival(known, v, invs[0], v_id);
      add_rival(known, w, invs[1], w_id);
      return true;
    });
  }
  known.carried = false;
  auto& l0_rows = known.rows;
  l0_rows.clear();
  for (const Rival& r : rivals) {
    const RowOp& c = r.view;
    if (c.r0 < c.r1 && (l0_rows.empty() || l0_rows.back() != std::pair{c.r0, c.r1})) l0_rows.emplace_back(c.r0, c.r1);
  }
  // The pairs by their smaller inv (insertion sort: a few dozen at most), so that an L0
  // expansion's check against them reads only those below its own key and no flag per pair: at
  // all C96 that check took 4.8% of the run when it looked at every pair.
  const std::size_t rival_pairs = rivals.size() / 2;
  for (std::size_t i = 0; i < rival_pairs; ++i) {
    const int low = std::min(rivals[2 * i].key.inv, rivals[2 * i + 1].key.inv);
    std::size_t j = i;
    for (; j > 0 && known.low_inv[j - 1] > low; --j) {
      known.low_inv[j] = known.low_inv[j - 1];
      known.by_inv[j] = known.by_inv[j - 1];
    }
    known.low_inv[j] = low;
    known.by_inv[j] = static_cast<std::uint8_t>(i);
  }
  known.low_inv[rival_pairs] = std::numeric_limits<int>::max();  // ends the scans below
  // Their reads, filled for every pair here rather than on first use: most nodes build an L0
  // child, whose test reads every pair.
  for (std::size_t i = 0; i < rivals.size(); i += 2)
    if (!rivals[i].has_reads) fill_reads(h, rivals[i]);
  // With an L0 reduction in the parent every child has a reduction of at most 3 vertices: an
  // expansion destroying all of them would need a 6-cut that fullerenes do not have (Brinkmann,
  // Goedgebeur and McKay 2012).
  if (!rivals.empty()) max_size = std::min(max_size, 3);
  // A reduction of h that an expansion does not touch survives into the child; if it is smaller
  // than the expansion, the child's canonical reduction is not the one undoing the expansion.
  auto& lasting = lasting_[depth];
  lasting.clear();
  if (max_size - 1 > 2)
    for_each_reduction(h, std::min(max_size - 1, kLastingSize), [&](const RowOp& c, int r_m) {
      if (c.size() > 2 && reduces_to_fullerene(h, c))
        lasting.push_back({c.size(), row_vertices(h, c), {c.r0, r_m}, c.bend < 0});
      return true;
    });
  std::sort(lasting.begin(), lasting.end(), [](const Lasting& a, const Lasting& b) { return a.size < b.size; });
  // BuckyGen's bound (Brinkmann, Goedgebeur and McKay 2012): with three L1 reductions, or three
  // B00, that share no end, no expansion of more than 3 faces makes a canonical child. Such nodes
  // then take the pass of 3 faces, which lists each expansion once, in place of the general walk,
  // which lists both ends: all C150 part 1/16, 35,551 nodes, 1.7% fewer instructions
  // (bench/RESULTS.md run 38).
  if (max_size > 3 && three_independent_size3(lasting)) max_size = 3;
  IprPairs& pairs = ipr_pairs_[static_cast<std::size_t>(depth)];
  if (options_.ipr) {
    adjacent_pairs(h, pairs.adjacent);
    pairs.far_ready = false;
  }
  std::string code;
  const PentagonRings& rings = rings_[static_cast<std::size_t>(depth)];
  // Expansions of 3 faces come from the pass over them (below), which lists each from one end
  // only, when no larger one is tried; otherwise from the general walk, which lists both ends.
  const bool size3_listed_once = max_size == 3;
  const auto consider = [&](const Expansion& e, const VertexSet& changed) {
    if (dead(h.nv + e.size()) || e.size() > cap) return;
    if (e.size() > max_canonical_[static_cast<std::size_t>(h.nv + e.size())]) return;
    if (options_.ipr && !ipr_below(h, static_cast<std::size_t>(depth), h.nv + e.size(), changed)) return;
    if (e.m > 1)
      for (const auto& [v, w] : l0_rows)
        if (!changed.has(v) && !changed.has(w)) return;
    for (const Lasting& l : lasting) {
      if (l.size >= e.size()) break;
      if (!l.row.meets(changed)) return;
    }
    // The inv of the new row's views from r0 and from r1, predicted for an L0 expansion (-1: not).
    int inv_a = -1;
    int inv_b = -1;
    if (e.m == 1) {
      // Only the predicted part of the key is compared (inv2 is not predicted): the row's better
      // end against the parent's L0 views that survive untouched.
      const std::array<int, 2> invs = predicted_l0_invs(h, e, rings);
      inv_a = invs[0];
      inv_b = invs[1];
      const int mine = std::min(inv_a, inv_b);
      // The rivals come in pairs, the two views of a row in one orientation, which read the same
      // faces (for_each_l0_row): the first of each pair holds their reads. Those with a smaller
      // key come first in by_inv.
      for (std::size_t j = 0; known.low_inv[j] < mine; ++j)
        if (untouched(rivals[2 * static_cast<std::size_t>(known.by_inv[j])], changed)) return;
      // The child is built: is_canonical takes the parent's views that it keeps, with their inv
      // in the child. Those with pentagons round their corners lose the expansion's a0 and z
      // there (and a smaller inv may turn the child down now).
      std::uint64_t touched = 0;
      for (std::size_t i = 0; i < rivals.size(); i += 2) {
        const bool clear = untouched(rivals[i], changed);
        rivals[i].untouched = rivals[i + 1].untouched = clear;
        rivals[i].inv_now = rivals[i].key.inv;
        rivals[i + 1].inv_now = rivals[i + 1].key.inv;
        touched |= static_cast<std::uint64_t>(!clear) << (i / 2);
      }
      // A touched pair still lasts when the expansion rewrites none of r0, r1 and the corners.
      bool lower_now = false;
      for (; touched != 0; touched &= touched - 1) {
        Rival& v = rivals[2 * static_cast<std::size_t>(std::countr_zero(touched))];
        Rival& w = (&v)[1];
        if (changed.has(v.view.r0) || changed.has(v.view.r1) || changed.has(v.corners[0]) ||
            changed.has(v.corners[1]))
          continue;
        v.untouched = w.untouched = true;
        const std::array<int, 2> invs =
            l0_pair_invs(corner_pattern_after(h, v.corners[0], v.view.r0, v.view.s, e.a0, e.z),
                         corner_pattern_after(h, v.corners[1], v.view.r1, v.view.s, e.a0, e.z));
        v.inv_now = invs[0];
        w.inv_now = invs[1];
        lower_now |= std::min(v.inv_now, w.inv_now) < mine;
      }
      if (lower_now) return;
    }
    g.copy_from(h);
    RowOp row;
    if (!expand(g, e, row)) return;
    if (options_.ipr && g.nv == target_nv_ && !is_ipr(g)) return;  // the sink would not get it: not worth its test
    int child_auto = 1;
    const bool l0 = e.m == 1;
    // An L0 child three faces short of the target has children only when one face lies within
    // kSize3Reach of all its L0 rows (below), among them its new row and the parent's views that
    // last in it: at all C100, 153,000 such children pass their test and 287 of them have
    // children. Those with no such face are left before their test.
    // (A row's pairs of views in its two orientations sit side by side: its ball is taken once.)
    if (l0 && g.nv == target_nv_ - 3) {
      VertexSet close = ball(g, row.r0, row.r1, kSize3Reach);
      const RowOp* last = nullptr;
      for (std::size_t i = 0; i < rivals.size() && !close.empty(); i += 2) {
        const RowOp& v = rivals[i].view;
        if (!rivals[i].untouched || (last != nullptr && last->r0 == v.r0 && last->r1 == v.r1)) continue;
        close.intersect(ball(g, v.r0, v.r1, kSize3Reach));
        last = &v;
      }
      if (close.empty()) return;
    }
    rivals_[static_cast<std::size_t>(depth) + 1].carried = false;
    Rivals* carry = l0 && g.nv < target_nv_ ? &rivals_[static_cast<std::size_t>(depth) + 1] : nullptr;
    // An expansion listed from one of its ends only (L0, and L1 and B00 in the pass of 3 faces):
    // either view of its row counts.
    if (!is_canonical(g, row, l0 || (e.m == 2 && size3_listed_once), l0 ? &known : nullptr, carry, child_auto,
                      nauto > 1 ? &code : nullptr, {inv_a, inv_b}))
      return;
    if (nauto > 1 && !seen.insert(code).second) return;
    made_by_[static_cast<std::size_t>(depth) + 1] = changed;
    visit(depth + 1, child_auto);
  };
  const bool l0_pass = max_size >= 2 && !dead(h.nv + 2) && !(options_.ipr && h.nv + 2 == target_nv_);
  bool size3_pass = max_size == 3 && !dead(h.nv + 3) && cap >= 3;
  // A larger expansion must rewrite a vertex of every L0 row; one of 3 vertices rewrites only
  // vertices within kSize3Reach of the end t1 of its first leg, so t1 lies that close to every
  // row, and only such legs are walked on (the rows' balls intersected from the last row found
  // back to the first, stopping once nothing is left: then the pass is skipped). This comes
  // before the legs, which a node with no L0 pass then does without: at all C110, 419,013 nodes
  // three faces short of the target have 2,356 children in all.
  VertexSet close;
  if (size3_pass && !l0_rows.empty()) {
    close = ball(h, l0_rows[0].first, l0_rows[0].second, kSize3Reach);
    for (std::size_t i = l0_rows.size() - 1; i > 0 && !close.empty(); --i)
      close.intersect(ball(h, l0_rows[i].first, l0_rows[i].second, kSize3Reach));
    size3_pass = !close.empty();
  }
  // The first legs of the expansion paths are walked once for both passes.
  // A child's legs are its parent's, redone where the expansion rewrote the lists they read.
  FirstLegs& legs = legs_[static_cast<std::size_t>(depth)];
  const bool legs_filled = l0_pass || size3_pass;
  if (legs_filled) {
    if (depth > 0 && legs_filled_[static_cast<std::size_t>(depth) - 1]) {
      legs = legs_[static_cast<std::size_t>(depth) - 1];
      legs.update(h, made_by_[static_cast<std::size_t>(depth)]);
    } else {
      legs.fill(h);
    }
  }
  legs_filled_[static_cast<std::size_t>(depth)] = legs_filled;
  FirstLegs::Marks walked = FirstLegs::kAll;
  if (size3_pass && !l0_rows.empty()) {
    walked = legs.select([&close](const FirstLegs::Leg& l) { return close.has(l.t1); });
    size3_pass = (walked[0] | walked[1]) != 0;
  }
  if (l0_pass) {
    rings_[static_cast<std::size_t>(depth)].fill(h);
    for_each_l0_expansion(h, legs, consider);
  }
  // Every expansion of 3 vertices must rewrite a vertex of each L0 row (see consider): that is
  // tested on the vertices it rewrites before they are collected into a set; and none is kept
  // when it would leave the child one vertex short.
  // With --ipr, one making an isomer must rewrite a vertex of every pair of adjacent pentagons
  // (consider), L0 rows among them.
  if (size3_pass)
    size3_meeting(h, legs, static_cast<std::size_t>(depth),
                  options_.ipr && h.nv + 3 == target_nv_ ? pairs.adjacent : l0_rows, walked, consider);
  if (max_size > 3 && cap >= 3) for_each_expansion(h, 3, max_size, 0xfffU, consider);
}

bool Generator::three_independent_size3(const std::vector<Lasting>& lasting) {
  for (const bool straight : {true, false}) {
    std::array<std::array<int, 2>, 64> ends{};
    std::size_t n = 0;
    for (const Lasting& l : lasting) {
      if (l.size != 3) break;  // sorted by size
      // Past 64 views the rest are left out: the bound may then be missed, never misapplied.
      if (l.straight == straight && n < ends.size()) ends[n++] = l.ends;
    }
    const auto apart = [](const std::array<int, 2>& a, const std::array<int, 2>& b) {
      return a[0] != b[0] && a[0] != b[1] && a[1] != b[0] && a[1] != b[1];
    };
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        if (apart(ends[i], ends[j]))
          for (std::size_t k = j + 1; k < n; ++k)
            if (apart(ends[k], ends[i]) && apart(ends[k], ends[j])) return true;
  }
  return false;
}

void Generator::add_rival(Rivals& rivals, const RowOp& c, int inv, int id) {
  // Written into the list field by field: a Rival built on the stack and copied in is read back
  // in 16-byte pieces that its narrower stores cannot forward, a stall that took a fifth of the
  // child's scan of its views (perf, all C100; 3% of the run).
  rivals.by_view[static_cast<std::size_t>(id)] = static_cast<std::int8_t>(rivals.list.size());
  Rival& r = rivals.list.emplace_back();
  r.view.r0 = c.r0;
  r.view.r1 = c.r1;
  r.view.s = c.s;
  r.view.m = c.m;
  r.view.bend = c.bend;
  r.key.size = 2;
  r.key.shape = 0;
  r.key.inv = inv;
  r.id = static_cast<std::int8_t>(id);
}

void Generator::fill_reads(const PlanarMap& h, Rival& r) {
  // The view lasts in a child whose expansion rewrites the lists of neither r0, r1 nor its corners
  // (so the row, its ids and the faces round the corners stay). Of the old faces only the
  // expansion's a0 and z change degree (pentagons turned hexagons), which the key's inv loses
  // where they lie round a corner. So an expansion that rewrites none of `reads` (those four
  // faces and the pentagons round the corners, not the hexagons there) leaves view and key as
  // they are; one that rewrites only pentagons round the corners leaves the view, and consider()
  // works out its inv in the child.
  const RowOp& v = r.view;
  const int c0 = h.at(v.r0, h.slot_of(v.r0, v.r1), 2 * v.s);
  const int c1 = h.at(v.r1, h.slot_of(v.r1, v.r0), 2 * v.s);
  r.reads.put(v.r0);
  r.reads.put(v.r1);
  r.reads.put(c0);
  r.reads.put(c1);
  // Corners are hexagons; a hexagon round one adds the corner again (no branch per face).
  for (const int c : {c0, c1})
    for (int i = 0; i < 6; ++i) {
      const int x = h.adj[c][i];
      r.reads.put(h.deg[x] == 5 ? x : c);
    }
  r.corners = {static_cast<std::uint8_t>(c0), static_cast<std::uint8_t>(c1)};
  r.has_reads = true;
}

VertexSet Generator::ball(const PlanarMap& h, int v, int w, int reach) {
  // Breadth-first, a level at a time as sets: each face of the frontier adds its neighbours
  // without a test per neighbour.
  VertexSet seen;
  seen.add(v);
  seen.add(w);
  VertexSet frontier = seen;
  for (int dist = 0; dist < reach; ++dist) {
    VertexSet next;
    for (std::size_t k = 0; k < frontier.words.size(); ++k)
      for (std::uint64_t bits = frontier.words[k]; bits != 0; bits &= bits - 1) {
        const int x = static_cast<int>(64 * k) + std::countr_zero(bits);
        // Degrees are 5 and 6: slot 5 or, again, slot 0 (no branch on the degree).
        for (int i = 0; i < 5; ++i) next.put(h.adj[x][i]);
        next.put(h.adj[x][h.deg[x] == 6 ? 5 : 0]);
      }
    for (std::size_t k = 0; k < next.words.size(); ++k) {
      next.words[k] &= ~seen.words[k];
      seen.words[k] |= next.words[k];
    }
    frontier = next;
  }
  return seen;
}

int Generator::corner_pattern_after(const PlanarMap& h, int corner, int from, int s, int a0, int z) {
  const int k = h.slot_of(corner, from);
  int pattern = 0;
  for (int i = 1; i < 6; ++i) {
    const int v = h.at(corner, k, i * s);
    pattern = pattern << 1 | ((h.deg[v] == 5) & (v != a0) & (v != z));
  }
  return pattern;
}

int Generator::corner_pattern(const PlanarMap& g, int r0, int r1, int s) {
  return corner_pattern_at(g, r0, g.slot_of(r0, r1), s);
}

int Generator::corner_pattern_at(const PlanarMap& g, int r0, int k, int s) {
  // No face is -1: the compiler drops those tests.
  return corner_pattern_after(g, g.at(r0, k, 2 * s), r0, s, -1, -1);
}

Generator::Key Generator::key_of(const PlanarMap& g, const RowOp& row, int inv_known) const {
  if (inv_known >= 0) return Key{row.size(), row.bend + 1, inv_known, {}, {}};
  if (row.m == 1 && row.bend < 0)
    return Key{2, 0, l0_inv(corner_pattern(g, row.r0, row.r1, row.s), corner_pattern(g, row.r1, row.r0, row.s)), {}, {}};
  // Pentagon pattern around r0 (from r1) and around the corner a0 (from r0), in orientation s.
  int inv = 0;
  const int k = g.slot_of(row.r0, row.r1);
  for (int i = 0; i < 5; ++i) inv = inv << 1 | (g.deg[g.at(row.r0, k, i * row.s)] == 5);
  return Key{row.size(), row.bend + 1, inv << 5 | corner_pattern_at(g, row.r0, k, row.s), {}, {}};
}

int Generator::ray_code(const PlanarMap& g, int face) const {
  return (g.deg[face] == 5) << 3 | near_.count[face];
}

void Generator::start_rays(const PlanarMap& g, const RowOp& row, Key& key) const {
  // The first step of each ray, from r0 through a0 (ray a) or t0 (ray t) to the face beyond,
  // whose code is the first. Both leave r0 from r1's slot.
  const int k = g.slot_of(row.r0, row.r1);
  const auto start = [&](int x, Ray& ray) {
    ray.from = static_cast<std::uint8_t>(x);
    const int to = g.at(x, g.slot_of(x, row.r0), 3 * row.s);
    ray.to = static_cast<std::uint8_t>(to);
    ray.bits = 16 | static_cast<std::uint64_t>(ray_code(g, to));
  };
  start(g.at(row.r0, k, 2 * row.s), key.ray_a);
  start(g.at(row.r0, k, row.s), key.ray_t);
}

void Generator::step_ray(const PlanarMap& g, int s, Ray& ray) const {
  // Three places on in orientation s: straight through hexagons, mirror-consistent at pentagons.
  const int next = g.at(ray.to, g.slot_of(ray.to, ray.from), 3 * s);
  ray.from = ray.to;
  ray.to = static_cast<std::uint8_t>(next);
  ray.bits = ray.bits << 4 | static_cast<std::uint64_t>(ray_code(g, next));
}

std::array<int, 2> Generator::predicted_l0_invs(const PlanarMap& h, const Expansion& e, const PentagonRings& rings) {
  // The corner patterns that key_of() will read round the new row's corners in the child, read
  // from h. Degrees do not change except at a0 and z (5 -> 6), which lose their pentagons.
  // Round a0 the child has r0 just before t0 (orientation s), so from r0 come t0 and then a0's
  // old neighbours after t0; round z it has r1 just after t1, so from r1 come z's old neighbours
  // after t1 and then t1. Of these faces only a0's neighbours can be z and only z's can be a0
  // (t0 and t1 are neither).
  // a0 and z are pentagons of h: the four neighbours after t0 (after t1) are read from the ring
  // of a0 (of z) by a table, with z (a0) left out when they are adjacent.
  const int s = e.s;
  const int a0 = e.a0;
  const int z = e.z;  // two places on round t1 from t0 (set by the L0 walk)
  const int t1 = e.tm >= 0 ? e.tm : h.at(e.t0, h.slot_of(e.t0, a0), 3 * s);
  const int z_at_a0 = h.index_of(a0, z);
  unsigned ring_a0 = rings.of[static_cast<std::size_t>(a0)];
  unsigned ring_z = rings.of[static_cast<std::size_t>(z)];
  if (z_at_a0 >= 0) {
    ring_a0 &= ~(1U << z_at_a0);
    ring_z &= ~(1U << h.slot_of(z, a0));
  }
  const int at_a0 = (h.deg[e.t0] == 5) << 4 | PentagonRings::after(ring_a0, h.slot_of(a0, e.t0), s);
  const int at_z = PentagonRings::after(ring_z, h.slot_of(z, t1), s) << 1 | (h.deg[t1] == 5);
  return {l0_inv(at_a0, at_z), l0_inv(at_z, at_a0)};
}

bool Generator::reduces_to_fullerene(const PlanarMap& g, const RowOp& row) {
  // A reduction counts only when its parent's walks list the expansion that undoes it (else the
  // child could never be made from that parent); short rows always are (kRowsAlwaysListed).
  if (row.size() <= kRowsAlwaysListed) return true;
  if (!undone_by_listed_expansion(g, row)) return false;
  if (row.size() <= kRowsAlwaysValid) return true;
  scratch_.copy_from(g);
  return contract(scratch_, row);
}

int Generator::compare_keys(const PlanarMap& g, const RowOp& a, Key& ka, const RowOp& b, Key& kb) {
  if (ka.size != kb.size) return ka.size < kb.size ? -1 : 1;
  if (ka.shape != kb.shape) return ka.shape < kb.shape ? -1 : 1;
  if (ka.inv != kb.inv) return ka.inv < kb.inv ? -1 : 1;
  // The rays, a step at a time, ray a and then ray t at each step: the four walks are
  // independent chains of loads, so they go side by side, and a comparison ends at the first step
  // where the keys differ. Their codes read the pentagons next to each face (near_, of g).
  if (!near_ready_) {
    near_.fill(g);
    near_ready_ = true;
  }
  if (ka.ray_a.bits == 0) start_rays(g, a, ka);
  if (kb.ray_a.bits == 0) start_rays(g, b, kb);
  for (int step = 0; step <= kRaySteps; ++step) {
    // Rays walked further by an earlier comparison keep their bits (four a face).
    const int la = (std::bit_width(ka.ray_a.bits) - 1) / 4 - 1;
    const int lb = (std::bit_width(kb.ray_a.bits) - 1) / 4 - 1;
    if (la < step) step_ray(g, a.s, ka.ray_a), step_ray(g, a.s, ka.ray_t);
    if (lb < step) step_ray(g, b.s, kb.ray_a), step_ray(g, b.s, kb.ray_t);
    const int sa = std::max(la, step) - step;
    const int sb = std::max(lb, step) - step;
    const auto bits_a = (ka.ray_a.bits >> (4 * sa) & 15) << 4 | (ka.ray_t.bits >> (4 * sa) & 15);
    const auto bits_b = (kb.ray_a.bits >> (4 * sb) & 15) << 4 | (kb.ray_t.bits >> (4 * sb) & 15);
    if (bits_a != bits_b) return bits_a < bits_b ? -1 : 1;
  }
  return 0;
}

bool Generator::is_canonical(const PlanarMap& g, const RowOp& row, bool either_end, const Rivals* known,
                             Rivals* carry, int& nauto, std::string* code, std::array<int, 2> inv_hint) {
  if (carry != nullptr) {
    carry->carried = false;
    carry->list.clear();
    carry->by_view.fill(-1);
  }
  near_ready_ = false;
  RowOp mine_row = row;
  Key mine = key_of(g, row, inv_hint[0]);
  RowOp other = reversed(g, row);
  Key theirs = key_of(g, other, inv_hint[1]);
  const int ends = compare_keys(g, other, theirs, mine_row, mine);
  if (ends < 0) {
    if (!either_end) return false;
    std::swap(mine_row, other);
    std::swap(mine, theirs);
  }
  // The row's other view, when its key equals mine, is the first tie.
  ties_.clear();
  if (ends == 0) ties_.push_back(other);
  const auto is_row = [&](const RowOp& c) { return same_view(c, mine_row) || same_view(c, other); };
  bool smaller = false;
  if (row.size() == 2) {
    // L0 reductions always leave a fullerene (reduces_to_fullerene). The parent's untouched views
    // keep their inv: those that tie with mine are the likeliest to beat it and go first, the
    // others cannot.
    if (known != nullptr) {
      // Those to compare are picked out first, without a branch per view.
      // (In registers, a word at a time: see FirstLegs::select.)
      std::array<std::uint64_t, (kL0Views + 63) / 64> compared{};
      for (std::size_t w = 0; 64 * w < known->list.size(); ++w) {
        std::uint64_t bits = 0;
        for (std::size_t i = 64 * w; i < std::min(known->list.size(), 64 * w + 64); ++i) {
          const Rival& r = known->list[i];
          bits |= static_cast<std::uint64_t>(r.untouched & (r.inv_now <= mine.inv)) << (i % 64);
        }
        compared[w] = bits;
      }
      for (std::size_t w = 0; w < compared.size(); ++w)
        for (std::uint64_t bits = compared[w]; bits != 0; bits &= bits - 1) {
          const Rival& r = known->list[64 * w + static_cast<std::size_t>(std::countr_zero(bits))];
          Key k = r.key;
          k.inv = r.inv_now;
          const int cmp = compare_keys(g, r.view, k, mine_row, mine);
          if (cmp < 0) return false;
          if (cmp == 0) ties_.push_back(r.view);
        }
    }
    // A child that passes has met all its L0 views here: they go to `carry`, with keys cut back
    // to inv (the part an untouched view keeps).
    const auto keep = [carry](const Rival& r, int id) {
      if (carry == nullptr) return;
      carry->by_view[static_cast<std::size_t>(id)] = static_cast<std::int8_t>(carry->list.size());
      carry->list.push_back(r);
      carry->list.back().key.inv = r.inv_now;
      carry->list.back().key.ray_a = {};
      carry->list.back().key.ray_t = {};
    };
    const auto keep_new = [carry](const RowOp& c, int inv, int id) {
      if (carry != nullptr) add_rival(*carry, c, inv, id);
    };
    // Each view is a survivor from the parent (whose key it keeps), one of the row's own, or
    // keyed here. The two views of a row in one orientation read the same faces, so both survive
    // or neither does (the parent's list holds them side by side), and their keys share the two
    // corner patterns. A survivor keeps its faces, its corners and its ids, so the scan takes it
    // by its id before it looks anything up.
    const auto survivor = [&](int v_id) {
      const int r = known != nullptr ? known->by_view[static_cast<std::size_t>(v_id)] : -1;
      if (r < 0 || !known->list[static_cast<std::size_t>(r)].untouched) return false;
      keep(known->list[static_cast<std::size_t>(r)], v_id);
      keep(known->list[static_cast<std::size_t>(r ^ 1)], known->list[static_cast<std::size_t>(r ^ 1)].id);
      return true;
    };
    for_each_l0_row(g, survivor, [&](const RowOp& v, int v_id, const RowOp& w, int w_id) {
      if (is_row(v)) {
        keep_new(v, same_view(v, mine_row) ? mine.inv : theirs.inv, v_id);
        keep_new(w, same_view(w, mine_row) ? mine.inv : theirs.inv, w_id);
        return true;
      }
      const std::array<int, 2> invs = l0_pair_invs(g, v, v_id, w, w_id);
      for (const bool first : {true, false}) {
        const RowOp& c = first ? v : w;
        Key k{2, 0, invs[first ? 0 : 1], {}, {}};
        keep_new(c, k.inv, first ? v_id : w_id);
        const int cmp = compare_keys(g, c, k, mine_row, mine);
        if (cmp < 0) {
          smaller = true;
          return false;
        }
        if (cmp == 0) ties_.push_back(c);
      }
      return true;
    });
  } else {
    // Most children have a small reduction somewhere else: look for the smallest ones first.
    // An L0 reduction always leaves a fullerene, so any row for_each_l0_row lists is smaller;
    // it lists them without the general walk and its table of faces seen, which
    // for_each_reduction of size 2 sets up on every call (all C150 part 1/16: 4.0% fewer
    // instructions, bench/RESULTS.md run 38).
    for_each_l0_row(g, [&](const RowOp&, int, const RowOp&, int) {
      smaller = true;
      return false;
    });
    if (!smaller && row.size() > 3)
      for_each_reduction(g, 3, [&](const RowOp& c) {
        smaller = c.size() == 3 && reduces_to_fullerene(g, c);
        return !smaller;
      });
    if (smaller) return false;
    for_each_reduction(g, row.size(), [&](const RowOp& c) {
      if (c.size() < row.size()) {
        smaller = reduces_to_fullerene(g, c);
        return !smaller;
      }
      if (is_row(c)) return true;
      Key k = key_of(g, c);
      if (const int cmp = compare_keys(g, c, k, mine_row, mine); cmp >= 0) {
        if (cmp == 0) ties_.push_back(c);
        return true;
      }
      smaller = reduces_to_fullerene(g, c);
      return !smaller;
    });
  }
  if (smaller) return false;
  nauto = 1;
  if (carry != nullptr) carry->carried = row.size() == 2 && known != nullptr;
  if (ties_.empty() && code == nullptr) return true;
  // Ties are settled by breadth-first codes, compared in lockstep up to their first difference.
  RowOp best = mine_row;
  for (std::size_t i = 0; i < ties_.size(); ++i) {
    const RowOp& c = ties_[i];
    const int cmp = bfs_compare(g, c.r0, c.r1, c.s, best.r0, best.r1, best.s);
    if (cmp == 0) ++nauto;
    if (cmp >= 0) continue;
    if (i == 0 && same_view(c, other)) {
      // The row's other view is its better one: it counts if its code is smallest.
      if (!either_end) {
        if (carry != nullptr) carry->carried = false;
        return false;
      }
      best = c;
      continue;
    }
    if (reduces_to_fullerene(g, c)) {
      if (carry != nullptr) carry->carried = false;
      return false;
    }
  }
  if (code != nullptr) {
    bfs_code(g, best.r0, best.r1, best.s, nullptr, code_a_.data());
    code->assign(code_a_.begin(), code_a_.begin() + bfs_code_length(g.nv));
  }
  return true;
}

namespace {
/// Counts the isomers below `node` into *total on the calling thread's generator in `pool`;
/// the nodes the bounded expansion hands out become tasks of their own. They are made once the
/// expansion is over: a thread may run a new task at once, on the same generator.
void count_below(const Generator::Subtree& node, Generator* pool, std::atomic<std::uint64_t>* total) {
  std::vector<Generator::Subtree> forks;
  const Generator::Fork fork = [&forks](const PlanarMap& root, int nauto) {
    forks.emplace_back();
    forks.back().root.copy_from(root);
    forks.back().nauto = nauto;
  };
  *total += pool[omp_get_thread_num()].run_subtree(
      node, [](const PlanarMap&) {}, &fork, Generator::kTaskBudget);
  for (const Generator::Subtree& child : forks) {
#pragma omp task firstprivate(child, pool, total)
    count_below(child, pool, total);
  }
}
}  // namespace

std::uint64_t count_isomers(int atoms, bool ipr, int threads, int part, int parts) {
  return count_isomers(GeneratorOptions{atoms, ipr, part, parts}, threads);
}

std::uint64_t count_isomers(const GeneratorOptions& options, int threads) {
  const int parts = options.parts;
  Generator top(options);  // checks the options
  if (threads <= 1) return top.run([](const PlanarMap&) {});
  std::vector<Generator> workers(static_cast<std::size_t>(threads), Generator(options));
  std::atomic<std::uint64_t> total{0};
  std::atomic<std::uint64_t>* sum = &total;
  Generator* pool = workers.data();
#pragma omp parallel num_threads(threads)
#pragma omp single
  {
    if (parts == 1) {
      for (const Generator::Subtree& seed : top.seeds()) {
#pragma omp task firstprivate(seed, pool, sum)
        count_below(seed, pool, sum);
      }
    } else {
      // The part's subtrees become tasks as the search above them (on this thread, with a
      // generator of its own) finds them; the runtime runs tasks at once when many are waiting.
      const Generator::Fork fork = [pool, sum](const PlanarMap& root, int nauto) {
        Generator::Subtree node;
        node.root.copy_from(root);
        node.nauto = nauto;
#pragma omp task firstprivate(node, pool, sum)
        count_below(node, pool, sum);
      };
      *sum += top.run([](const PlanarMap&) {}, &fork);
    }
  }
  return total;
}

}  // namespace molstep::fullerene
