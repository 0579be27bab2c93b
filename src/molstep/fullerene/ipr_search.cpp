// SPDX-License-Identifier: MIT
// The search within IPR fullerenes. An IPR fullerene that is not irreducible (ipr_roots.hpp) has
// reductions within IPR fullerenes (they leave IPR fullerenes, and the search's expansions undo
// them); the smallest by (size, key, breadth-first code) is its canonical IPR reduction, and its
// parent is the IPR fullerene that reduction leaves. So every IPR fullerene lies exactly once in
// the tree that grows from the irreducible ones by expansions whose children are IPR and undone by
// their canonical IPR reductions, and the search visits only IPR fullerenes (at C120 about 27,000
// nodes, where the whole search has millions). Expansions of every size are tried: a canonical
// IPR reduction can be long (at C130 kept expansions reach 10 vertices) and no bound on its size
// is known to us; BuckyGen's bounds (LongEnds, below) say where the longer ones may end.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "molstep/fullerene/canonical.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ipr_roots.hpp"

namespace molstep::fullerene {
namespace {

/// The largest of the parent's reductions that ipr_search collects as IprLasting (at most
/// kRowsAlwaysValid, which the argument at IprLasting needs).
constexpr int kLastingFaces = 4;
static_assert(kLastingFaces <= kRowsAlwaysValid);
/// Up to this many faces short of the target, ipr_search collects only the parent's reductions
/// of 3 faces as IprLasting.
constexpr int kShortLastingUpTo = 6;
/// Up to this many faces short of the target, ipr_search lists expansions of 4 faces or more
/// without the crossing tables (for_each_ipr_short_expansion_once).
constexpr int kShortListingUpTo = 6;
static_assert(kShortListingUpTo <= kShortExpansionMax);
/// The size from which BuckyGen's bounds on long expansions apply (ipr_search).
constexpr int kLongExpansion = 4;

/// True when no pentagon lies within distance 2 of the L1 row's ends (the view `l1` from r0, the
/// other end r2; `near`: the faces within distance 2 of them) but r0, r2 and the two faces
/// opposite r0 across a face next to both r0 and r1.
bool only_hexagons_near_l1(const PlanarMap& h, const RowOp& l1, int r2, const VertexSet& near) {
  const int k = h.slot_of(l1.r0, l1.r1);
  std::array<int, 2> across{};
  for (int side = 0; side < 2; ++side) {
    const int x = h.at(l1.r0, k, side == 0 ? 1 : -1);
    across[static_cast<std::size_t>(side)] = h.at(x, h.slot_of(x, l1.r0), 3);
  }
  for (const int p : h.pentagons)
    if (p != l1.r0 && p != r2 && p != across[0] && p != across[1] && near.has(p)) return false;
  return true;
}

}  // namespace

void Generator::ipr_search(int depth, int nauto, int cap) {
  const PlanarMap& h = level_[static_cast<std::size_t>(depth)];
  PlanarMap& g = level_[static_cast<std::size_t>(depth) + 1];
  // Expansions past cap make children of other parts (start_part_of_search): within IPR
  // fullerenes every expansion has 3 faces or more.
  if (cap < 3) return;
  auto& seen = seen_[static_cast<std::size_t>(depth)];
  seen.clear();
  const int max_size = target_nv_ - h.nv;
  // The sizes alive, bit m for m + 1 faces, for the walks: near the target most are dead (five
  // faces short of it, only expansions of five faces are alive; three and four leave a child one
  // or two short).
  std::uint64_t sizes = 0;
  for (int m = 2; m < 64 && m < max_size; ++m)
    if (!dead(h.nv + m + 1)) sizes |= std::uint64_t{1} << m;
  // A reduction of h within IPR fullerenes of up to kRowsAlwaysValid faces stays one in a child
  // (IprLasting) whose expansion rewrites none of its faces and brings neither of its corners next
  // to a new pentagon. If it is smaller than the expansion, the child's canonical IPR reduction is
  // not the one undoing the expansion. Longer ones cost more to test than the children they save:
  // they are collected up to kLastingFaces faces (IPR C136 on one core: 14.5 s with every size,
  // 12.1 s up to 5, in 8280d05; C140 12.0 s up to 5, 11.7 s up to 4, with the rivals below).
  // Near the target, where the children are few, only those of 3 faces are (kShortLastingUpTo;
  // IPR C130 on one VM core, own time per node with those of 4 faces and without: 4 faces short
  // 10.3 and 8.5-9.0 us, 5 short 10.9 and 9.9-10.4 us, 6 short 20.8 and 20.3 us; 7 short and
  // farther the 4-face ones pay). Both views of a reduction have the same faces and corners: one
  // (from its smaller end) is enough.
  auto& lasting = ipr_lasting_[static_cast<std::size_t>(depth)];
  lasting.clear();
  std::array<int, kLastingFaces> path;
  std::array<int, kLastingFaces> target;
  std::array<int, 2> corners{};
  // Those of the expansion's own size are rivals: in a child where they last, both views compete
  // with its new row, and a smaller key turns the child down before its own reductions are
  // listed.
  near_.fill(h);
  for_each_reduction(
      h, max_size <= kShortLastingUpTo ? 3 : std::min(max_size, kLastingFaces),
      [&](const RowOp& c, int end, const std::array<int, 2>& ends) {
        if (end < c.r0 || !corners_clear_of_pentagons(h, near_, c, end, ends) ||
            !row_slides(h, c, path.data(), target.data(), corners))
          return true;
        if (reduces_within_ipr(h, c, path.data(), target.data(), corners, scratch_)) {
          IprLasting l{c.size(), {}, corners, {c, reversed(c, path.data())}};
          for (int j = 0; j <= c.m; ++j) l.row.add(path[static_cast<std::size_t>(j)]);
          lasting.push_back(l);
        }
        return true;
      },
      &near_);
  std::sort(lasting.begin(), lasting.end(),
            [](const IprLasting& a, const IprLasting& b) { return a.size < b.size; });
  // The walks gather which of them an expansion meets as bits (LastingHits): 64 at most. The
  // rest are left out; they only turn children down early (at IPR C130 a node has at most 36).
  if (lasting.size() > 64) lasting.resize(64);
  const std::size_t firm_count = lasting.size();
  // The blocked rows of 3 faces (IprLasting) turn down children of longer expansions only: they
  // are collected where some are alive and this part's.
  if (options_.ipr_blocked_rows && (sizes >> 3) != 0 && cap > 3 && lasting.size() < 64) {
    for_each_reduction(
        h, 3,
        [&](const RowOp& c, int end, const std::array<int, 2>& ends) {
          if (end < c.r0 || corners_clear_of_pentagons(h, near_, c, end, ends)) return true;
          std::array<int, 2> blockers{-1, -1};
          int n = 0;
          for (const int corner : ends)
            for (int i = 0; i < h.deg[corner]; ++i) {
              const int p = h.adj[corner][i];
              if (h.deg[p] != 5 || p == c.r0 || p == end || p == blockers[0] || p == blockers[1]) continue;
              if (n == 2) return true;  // three blockers: no expansion turns them all
              blockers[static_cast<std::size_t>(n++)] = p;
            }
          const std::array<int, 3> row_path{c.r0, c.r1, end};
          IprLasting l{3, {}, ends, {c, reversed(c, row_path.data())}, blockers, -1};
          for (const int v : row_path) l.row.add(v);
          lasting.push_back(l);
          return lasting.size() < 64;
        },
        &near_);
  }
  auto& bits = ipr_lasting_bits_[static_cast<std::size_t>(depth)];
  std::fill_n(bits.begin(), h.nv, LastingBits{0, 0});
  // below[s]: the reductions of fewer than s faces (all of them past kLastingFaces).
  std::array<std::uint64_t, kLastingFaces + 2> below{};
  for (std::size_t i = 0; i < lasting.size(); ++i) {
    const IprLasting& l = lasting[i];
    const std::uint64_t bit = std::uint64_t{1} << i;
    for (std::size_t w = 0; w < l.row.words.size(); ++w)
      for (std::uint64_t faces = l.row.words[w]; faces != 0; faces &= faces - 1)
        bits[64 * w + static_cast<std::size_t>(std::countr_zero(faces))].row |= bit;
    for (const int c : l.corners) bits[static_cast<std::size_t>(c)].corner |= bit;
    for (int s = l.size + 1; s < static_cast<int>(below.size()); ++s) below[static_cast<std::size_t>(s)] |= bit;
  }
  const auto first_bits = [](std::size_t n) { return n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; };
  const std::uint64_t firm = first_bits(firm_count);  // the reductions of h
  const std::uint64_t blocked = first_bits(lasting.size()) & ~firm;
  const auto smaller_than = [&](int size) {
    return below[static_cast<std::size_t>(std::min(size, static_cast<int>(below.size()) - 1))];
  };
  const LastingHits no_hits{bits.data()};
  // BuckyGen's bounds on long expansions (Brinkmann, Goedgebeur and McKay 2012, on IPR
  // fullerenes). Let h have a reduction of 3 faces within IPR fullerenes, pentagons p and q,
  // corners c_p next to p and c_q next to q: a B00, or an L1 with no other pentagon within
  // distance 2 of p or q (only_hexagons_near_l1). An expansion that does not come
  // near it leaves it in the child, or (crossing it) a row one face longer: a reduction within
  // IPR fullerenes smaller than its own, or as large. So a canonical child of an expansion of 4
  // faces has an end at a pentagon within distance 3 of p or q whose path leaves it through a
  // face within distance 2 of them; of 5 or more faces, an end at p or q, or at such a pentagon
  // leaving through a face on the far side of a corner (two to four places on round c_p from p,
  // round c_q from q). The walks list those expansions only from a qualifying end (LongEnds).
  // Checked: the walk lists exactly those (IprLongEndsListEachQualifyingExpansionOnce); the
  // search loses no isomer by them (IprLongEndsBoundLosesNoIsomer, and the counts up to C172).
  LongEnds long_ends;
  if (options_.ipr_long_ends && max_size >= kLongExpansion) {
    const IprLasting* bound = nullptr;
    VertexSet close;  // the faces within distance 2 of the bound's ends, once an L1 is the bound
    for (const IprLasting& l : lasting) {
      if (l.size != 3 || l.blockers[0] >= 0) continue;
      if (l.views[0].bend >= 0) {  // a B00: taken at once
        bound = &l;
        close = ball(h, l.views[0].r0, l.views[1].r0, 2);
        break;
      }
      if (bound != nullptr) continue;
      const VertexSet near_l1 = ball(h, l.views[0].r0, l.views[1].r0, 2);
      if (only_hexagons_near_l1(h, l.views[0], l.views[1].r0, near_l1)) {
        bound = &l;
        close = near_l1;
      }
    }
    if (bound != nullptr) {
      const int p = bound->views[0].r0;
      const int q = bound->views[1].r0;
      long_ends.min_size = kLongExpansion;
      long_ends.far_size = kLongExpansion + 1;
      long_ends.near = ball(h, p, q, 3);
      long_ends.close = close;
      long_ends.any.add(p);
      long_ends.any.add(q);
      // A corner next to both ends gives both far sides: more qualifying ends, never fewer.
      for (const int c : bound->corners)
        for (const int end : {p, q}) {
          const int i = h.index_of(c, end);
          if (i < 0) continue;
          for (int k = 2; k <= 4; ++k) long_ends.through.add(h.at(c, i, k));
        }
    }
  }
  std::string code;
  auto& rivals = ipr_rivals_[static_cast<std::size_t>(depth)];
  RowOp rejector{-1, -1, 1, 0, -1};  // m = 0: none yet
  // Each child is built from one end of its new row only; is_canonical_ipr takes the better view.
  // Asked before an expansion's rewritten vertices are put together (every walk asks it before
  // it calls try_expansion): is its child alive, and this part's?
  const auto alive = [&](const Expansion& e) { return !dead(h.nv + e.size()) && e.size() <= cap; };
  const auto try_expansion = [&](const Expansion& e, const LastingHits& changed) {
    // A smaller reduction whose faces and corners the expansion does not rewrite turns the child
    // down. Corners it rewrites cannot lie next to its new pentagons; the others are checked once
    // those pentagons' neighbours are known.
    const std::uint64_t smaller = smaller_than(e.size());
    const std::uint64_t untouched = smaller & ~changed.rows;
    if ((untouched & firm & ~changed.corners) != 0) return;
    // A blocked one lasts when the expansion turns its blockers into hexagons (its a_0 and z) and
    // rewrites none of its faces; with its corners rewritten too, when neither is next to a new
    // pentagon (as the others, below). A smaller one turns the child down.
    const auto lasts_blocked = [&](IprLasting& l) {
      if (l.blockers[0] != e.a0 && l.blockers[0] != e.z) return false;
      if (l.blockers[1] >= 0 && l.blockers[1] != e.a0 && l.blockers[1] != e.z) return false;
      if (l.valid < 0) l.valid = reduces_within_ipr_3(h, l.views[0], l.views[1].r0, scratch_, l.blockers) ? 1 : 0;
      return l.valid == 1;
    };
    const std::uint64_t asked = e.z >= 0 ? untouched & blocked & ~changed.corners : 0;
    for (std::uint64_t left = asked; left != 0; left &= left - 1)
      if (lasts_blocked(lasting[static_cast<std::size_t>(std::countr_zero(left))])) return;
    VertexSet next;
    old_neighbours_of_new_ends(h, e, next);
    // The lasting reductions of the child (IprLasting): a smaller one turns it down (only those
    // with a corner rewritten are left to check), those of its own size are its rivals. Keys
    // compare size, then shape (straight 0, bent at b: b + 1): the child's new row takes the
    // better of its two views, so a bent one has shape min(b, m - b) + 1 and loses to a rival of
    // smaller shape before it is built.
    rivals.clear();
    const int shape = e.bend < 0 ? 0 : std::min(e.bend, e.m - e.bend) + 1;
    const std::uint64_t same_size = smaller_than(e.size() + 1) & ~smaller & ~changed.rows;
    // (The blocked ones asked above did not last.)
    for (std::uint64_t left = (untouched | same_size) & ~asked; left != 0; left &= left - 1) {
      const int i = std::countr_zero(left);
      IprLasting& l = lasting[static_cast<std::size_t>(i)];
      if (next.has(l.corners[0]) || next.has(l.corners[1])) continue;
      if ((blocked >> i & 1U) != 0 && (e.z < 0 || !lasts_blocked(l))) continue;
      if (l.size < e.size()) return;
      for (const RowOp& view : l.views)
        if (view.bend + 1 < shape) return;
      rivals.push_back(l.views[0]);
      rivals.push_back(l.views[1]);
    }
    g.copy_from(h);
    RowOp row;
    // The child is IPR: the listing left out the expansions whose new pentagons meet one
    // (new_pentagon_meets_one; the test NewPentagonsMeetOneExactlyWhenTheChildIsNotIpr).
    if (!expand(g, e, row)) return;
    // Tried before the child's own reductions are listed: the smaller reduction that turned down
    // the sibling before (siblings share most of their faces and their numbers), then the
    // parent's smaller reductions that the test above could not keep.
    if (rejector.m > 0 && rejector.size() < e.size() && reduces_within_ipr(g, rejector, scratch_)) return;
    for (std::size_t i = 0; i < firm_count; ++i) {
      const IprLasting& l = lasting[i];
      if (l.size >= e.size()) break;
      if (reduces_within_ipr(g, l.views[0], scratch_)) return;
    }
    int child_auto = 1;
    if (!is_canonical_ipr(g, row, child_auto, nauto > 1 ? &code : nullptr, rivals, &rejector)) return;
    if (nauto > 1 && !seen.insert(code).second) return;
    visit(depth + 1, child_auto);
  };
  // Expansions of 3 faces are listed by a walk written for them (for_each_ipr_size3_expansion_once:
  // at IPR C130 1.9 us a node three faces short of the target, where the short listing takes
  // 3.9; farther out the general listing spends 1-2 us a node more on them than it). The longer
  // ones: up to six faces short of the target, where few sizes are alive (four and five faces
  // short only 4 and 5; six short 3 and 6), without the crossing tables (at IPR C130 the walk and
  // its tables took about 7 us of a node's 9-10 four and five faces short, for 1.7 and 2.9
  // children built; six short 6.7 us against 8.8 with the 3-face walk); from seven short, where
  // more sizes are alive, with them.
  constexpr std::uint64_t size3 = std::uint64_t{1} << 2;
  if ((sizes & size3) != 0) for_each_ipr_size3_expansion_once(h, alive, try_expansion, no_hits);
  // The longer ones come after: with a cap of 3 they are all another part's.
  if (cap == 3) return;
  if (max_size <= kShortListingUpTo)
    for_each_ipr_short_expansion_once(h, 4, max_size, sizes & ~size3, alive, try_expansion, no_hits, &long_ends);
  else
    for_each_ipr_expansion_once(h, 4, max_size, sizes & ~size3, alive, try_expansion, no_hits, &long_ends);
}

Generator::Key Generator::ipr_key_of(const PlanarMap& g, const RowOp& row) const {
  // Each neighbour of r0 has r0 and at most two other pentagons next to it: 2 bits, 3 - count.
  const int k = g.slot_of(row.r0, row.r1);
  int inv = 0;
  for (int i = 0; i < 5; ++i) inv = inv << 2 | (3 - near_.count[g.at(row.r0, k, i * row.s)]);
  return Key{row.size(), row.bend + 1, inv, {}, {}};
}

bool Generator::is_canonical_ipr(const PlanarMap& g, const RowOp& row, int& nauto, std::string* code,
                                 const std::vector<RowOp>& rivals, RowOp* rejector) {
  ties_.clear();
  const int size = row.size();
  bool smaller = false;
  // A smaller reduction within IPR fullerenes is any view of one: both views of a short row are
  // (its expansion is listed from both ends, kRowsAlwaysListed; both leave the same fullerene) or
  // neither, so one view (r0 < r_m) is tested. A longer row's views can differ (one may wind
  // round a nanotube): both are tested.
  // A 3-face row as for_each_reduction lists it is r0, r1, r_m: it need not be walked again.
  // A row's corners become pentagons: most rows of a child have one next to a pentagon off the
  // row (corners_clear_of_pentagons: at IPR C130, of the 2.4 million views of 3-face children's
  // scans whose keys are not larger than the new row's, 1.3 million have one at the far corner).
  // That is read before the rest is put together.
  near_.fill(g);
  near_ready_ = true;
  const auto corners_clear = [&](const RowOp& c, int end, const std::array<int, 2>& corners) {
    return corners_clear_of_pentagons(g, near_, c, end, corners);
  };
  // For a view whose corners are clear.
  const auto within_ipr = [&](const RowOp& c, int end) {
    return c.m == 2 ? reduces_within_ipr_3(g, c, end, scratch_) : reduces_within_ipr(g, c, scratch_);
  };
  const auto smaller_one = [&](const RowOp& c, int end, const std::array<int, 2>& corners) {
    return (c.size() > kRowsAlwaysListed || end > c.r0) && corners_clear(c, end, corners) && within_ipr(c, end);
  };
  // Most children have a smaller reduction (of 3 faces, mostly): those are looked for first, size
  // by size, before the row's views are compared (IPR C130 on one VM core: 2.89 s with the views
  // compared first and only the 3-face ones first, 2.74 s).
  for (int lo = 3; lo < size;) {  // sizes 3, then 4, then the rest
    const int hi = lo < 5 ? lo : size - 1;
    for_each_reduction(
        g, hi,
        [&](const RowOp& c, int end, const std::array<int, 2>& corners) {
          smaller = c.size() >= lo && smaller_one(c, end, corners);
          if (smaller && rejector != nullptr) *rejector = c;
          return !smaller;
        },
        &near_);
    if (smaller) return false;
    lo = hi + 1;
  }
  // The child is built from one end of its new row only (ipr_search), so the better of the row's
  // two views (by key, then breadth-first code) is the one that competes with the others; when
  // the two are equal, the child has an automorphism that reverses the row. The other view
  // counts only when the parent's walk from its end lists its expansion: a long straight row can
  // wind round a nanotube so that it does not (the child was then built from this end); a bent
  // row's two ends walk the same path, and a short row is always listed (kRowsAlwaysListed).
  // The new row's faces are numbered r0, r0 + 1, ... (expand): its other view needs no walk.
  std::array<int, PlanarMap::kMaxVertices> new_row;
  for (int j = 0; j <= row.m; ++j) new_row[static_cast<std::size_t>(j)] = row.r0 + j;
  const RowOp other = reversed(row, new_row.data());
  RowOp mine_row = row;
  Key mine = ipr_key_of(g, row);
  nauto = 1;
  if (row.bend >= 0 || row.size() <= kRowsAlwaysListed || undone_by_listed_expansion(g, other)) {
    Key theirs = ipr_key_of(g, other);
    int ends = compare_keys(g, other, theirs, mine_row, mine);
    if (ends == 0) ends = bfs_compare(g, other.r0, other.r1, other.s, row.r0, row.r1, row.s);
    if (ends < 0) {
      mine_row = other;
      std::swap(mine, theirs);
    }
    if (ends == 0) nauto = 2;
  }
  // A key's shape (after its size) is the view's bend + 1: a view of larger shape cannot win.
  for (const RowOp& c : rivals) {
    if (c.bend + 1 > mine.shape) continue;
    Key k = ipr_key_of(g, c);
    if (compare_keys(g, c, k, mine_row, mine) < 0) return false;
  }
  const auto compete = [&](const RowOp& c, int end, const std::array<int, 2>& corners) {
    // The smaller ones were tested above.
    if (c.size() < size || same_view(c, row) || same_view(c, other)) return true;
    if (c.bend + 1 > mine.shape) return true;
    if (!corners_clear(c, end, corners)) return true;  // no reduction within IPR fullerenes
    Key k = ipr_key_of(g, c);
    const int cmp = compare_keys(g, c, k, mine_row, mine);
    if (cmp > 0 || !within_ipr(c, end)) return true;
    if (cmp < 0) {
      smaller = true;
      return false;
    }
    ties_.push_back(c);
    return true;
  };
  // A straight row's key is below every bent one's (shape 0): the bent rows of 3 faces need not
  // be listed.
  if (size == 3 && mine.shape == 0)
    for_each_straight_reduction_up_to_3(g, compete, &near_);
  else
    for_each_reduction(g, size, compete, &near_);
  if (smaller) return false;
  // Ties (all of them reductions to IPR fullerenes) are settled by breadth-first codes; an equal
  // code is an automorphism.
  for (const RowOp& c : ties_) {
    const int cmp = bfs_compare(g, c.r0, c.r1, c.s, mine_row.r0, mine_row.r1, mine_row.s);
    if (cmp < 0) return false;
    if (cmp == 0) ++nauto;
  }
  if (code != nullptr) {
    bfs_code(g, mine_row.r0, mine_row.r1, mine_row.s, nullptr, code_a_.data());
    code->assign(code_a_.begin(), code_a_.begin() + bfs_code_length(g.nv));
  }
  return true;
}

}  // namespace molstep::fullerene
