// SPDX-License-Identifier: MIT
// The search within IPR fullerenes. An IPR fullerene that is not irreducible (ipr_roots.hpp) has
// L or B reductions that leave IPR fullerenes; the smallest of them by (size, key, breadth-first
// code) is its canonical IPR reduction, and its parent is the IPR fullerene that reduction leaves.
// So every IPR fullerene lies exactly once in the tree that grows from the irreducible ones by
// expansions whose children are IPR and undone by their canonical IPR reductions, and the search
// visits only IPR fullerenes (at C120, 27 thousand nodes against the whole search's 4 million).
// Expansions of every size are tried: the canonical IPR reduction of a nanotube-like fullerene can
// be long (24 vertices in one isomer of C140).
#include <algorithm>
#include <array>
#include <string>

#include "molstep/fullerene/canonical.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ipr_roots.hpp"

namespace molstep::fullerene {
namespace {

/// The vertices within distance 2 of the row of `row`. A reduction reads nothing farther: its
/// walk reads the row's lists, the vertices it merges and the two new degree-5 corners are the
/// row's neighbours, and whether a pentagon meets another after it depends on their lists.
VertexSet near_row(const PlanarMap& g, const RowOp& row) {
  VertexSet reach = row_vertices(g, row);
  for (int step = 0; step < 2; ++step) {
    VertexSet next = reach;
    for (int v = 0; v < g.nv; ++v)
      if (reach.has(v)) next.add_closed_neighbourhood(g, v);
    reach = next;
  }
  return reach;
}

}  // namespace

void Generator::ipr_search(int depth, int nauto) {
  const PlanarMap& h = level_[static_cast<std::size_t>(depth)];
  PlanarMap& g = level_[static_cast<std::size_t>(depth) + 1];
  auto& seen = seen_[static_cast<std::size_t>(depth)];
  seen.clear();
  const int max_size = target_nv_ - h.nv;
  // A reduction of h that leaves an IPR fullerene keeps doing so in a child whose expansion
  // rewrites no vertex within distance 2 of its row (near_row: nothing it reads changes, and the
  // expansion's new vertices lie farther out). If it is smaller than the expansion, the child's
  // canonical IPR reduction is not the one undoing the expansion.
  auto& lasting = ipr_lasting_[static_cast<std::size_t>(depth)];
  lasting.clear();
  if (max_size > 3)
    for_each_reduction(h, max_size - 1, [&](const RowOp& c) {
      if (reduces_within_ipr(h, c, scratch_)) lasting.push_back({c.size(), near_row(h, c)});
      return true;
    });
  std::sort(lasting.begin(), lasting.end(), [](const Lasting& a, const Lasting& b) { return a.size < b.size; });
  std::string code;
  for_each_expansion(h, 3, max_size, 0xfff, [&](const Expansion& e, const VertexSet& changed) {
    if (dead(h.nv + e.size())) return;
    for (const Lasting& l : lasting) {
      if (l.size >= e.size()) break;
      if (!l.row.meets(changed)) return;
    }
    g.copy_from(h);
    RowOp row;
    if (!expand(g, e, row) || !is_ipr(g)) return;
    int child_auto = 1;
    if (!is_canonical_ipr(g, row, child_auto, nauto > 1 ? &code : nullptr)) return;
    if (nauto > 1 && !seen.insert(code).second) return;
    visit(depth + 1, child_auto);
  });
}

bool Generator::is_canonical_ipr(const PlanarMap& g, const RowOp& row, int& nauto, std::string* code) {
  // Each view of a reduction is undone by one expansion (from its r0): the row's other view
  // belongs to the expansion from the other end, so it competes like any other reduction.
  const RowOp other = reversed(g, row);
  RowOp mine_row = row;
  Key mine = key_of(g, row);
  Key theirs = key_of(g, other);
  const int ends = compare_keys(g, other, theirs, mine_row, mine);
  if (ends < 0) return false;
  ties_.clear();
  if (ends == 0) ties_.push_back(other);
  const int size = row.size();
  bool smaller = false;
  for_each_reduction(g, size, [&](const RowOp& c) {
    if (same_view(c, row) || same_view(c, other)) return true;
    if (c.size() < size) {
      smaller = reduces_within_ipr(g, c, scratch_);
      return !smaller;
    }
    Key k = key_of(g, c);
    const int cmp = compare_keys(g, c, k, mine_row, mine);
    if (cmp > 0 || !reduces_within_ipr(g, c, scratch_)) return true;
    if (cmp < 0) {
      smaller = true;
      return false;
    }
    ties_.push_back(c);
    return true;
  });
  if (smaller) return false;
  // Ties (all of them reductions to IPR fullerenes) are settled by breadth-first codes; an equal
  // code is an automorphism.
  nauto = 1;
  for (const RowOp& c : ties_) {
    const int cmp = bfs_compare(g, c.r0, c.r1, c.s, row.r0, row.r1, row.s);
    if (cmp < 0) return false;
    if (cmp == 0) ++nauto;
  }
  if (code != nullptr) {
    bfs_code(g, row.r0, row.r1, row.s, nullptr, code_a_.data());
    code->assign(code_a_.begin(), code_a_.begin() + bfs_code_length(g.nv));
  }
  return true;
}

}  // namespace molstep::fullerene
