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
  /// With `ipr`, search the whole space of fullerenes and keep the IPR ones instead of searching
  /// within IPR fullerenes (ipr_search.cpp). For checks of that search.
  bool ipr_whole_search = false;
  /// Within IPR fullerenes, list long expansions only where BuckyGen's bounds (ipr_search.cpp)
  /// allow a canonical child. Off, for checks of those bounds, every expansion is tried.
  bool ipr_long_ends = true;
  /// Within IPR fullerenes, turn children down before they are built by the parent's blocked
  /// rows of 3 faces (Generator::IprLasting). Off, for checks, the children's tests find them.
  bool ipr_blocked_rows = true;
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
  /// A node of the search to start from: a seed, or a node a bounded expansion handed out.
  /// Expanding it yields every isomer below it, in run()'s order; the map and nauto are all the
  /// search carries down from above.
  struct Subtree {
    PlanarMap root;
    int nauto = 1;
  };
  /// Where a bounded expansion sends the nodes it does not expand itself.
  using Fork = std::function<void(const PlanarMap& root, int nauto)>;
  /// A budget for bounded expansions run as tasks on threads. Most nodes lie near the bottom of
  /// the search, so most tasks end within it; the others hand out a few dozen nodes (at most 65).
  /// Measured on the first 60,000 C200 isomers: 20,495 tasks of 0.43 ms on average (making and
  /// scheduling one costs microseconds), and the longest chain of tasks, each handed out by the
  /// one before, takes 0.057 s of the 8.7 s of work (budget 64: 55,179 tasks, 0.021 s).
  static constexpr std::uint64_t kTaskBudget = 256;

  /// Parts are dealt out where the search first reaches N/2+2-20 faces (nearer the target for
  /// N below 100), but never above this.
  static constexpr int kMaxSplitFaces = 65;
  /// The same within IPR fullerenes (--ipr): C110. Above it a node's own walks grow long (a node
  /// g faces short of the target lists expansions of up to g faces), so the search above a fork
  /// 20 faces short of the target, which every part repeats, grows fast: one VM core, with the
  /// fork at C(N-40), 2.1 s at C150, 9.1 s at C160, 34 s at C170 and, by that growth, about
  /// 2,000 s at C200; with it at C110, 2.5 s at C170, 2.9 s at C180 and 5.6 s at C200 (each with
  /// one subtree). The nodes where the search first reaches C110 still share out evenly: IPR C160
  /// in 8 parts took 15.6-17.1 s a part (132 s in all) with the fork at C110, 22.2-22.9 s (180 s)
  /// with it at C120.
  static constexpr int kMaxSplitFacesIpr = 57;

  explicit Generator(const GeneratorOptions& options);

  /// Calls sink(map) for each isomer (dual triangulation) of this part; returns how many. With
  /// `at_split`, the part's nodes where the search first reaches the size at which parts are
  /// dealt out go to (*at_split) instead of being expanded (run_subtree expands each): the
  /// isomers below them complete the part.
  std::uint64_t run(const std::function<void(const PlanarMap&)>& sink, const Fork* at_split = nullptr);
  /// The roots of the whole search, in run()'s order: expanding each in turn with run_subtree
  /// yields run()'s isomers (of the whole space: parts are a walk of run()'s own).
  [[nodiscard]] std::vector<Subtree> seeds() const;
  /// Calls sink(map) for each isomer below `subtree` (parts ignored); returns how many. With
  /// `fork`, the expansion is bounded: once `budget` nodes are searched (the root always is),
  /// each further node the search meets goes to (*fork) instead of being expanded, in its place
  /// among the isomers, so expanding the forks in the order given (on any thread, each with its
  /// own Generator) continues the same sequence.
  std::uint64_t run_subtree(const Subtree& subtree, const std::function<void(const PlanarMap&)>& sink,
                            const Fork* fork = nullptr, std::uint64_t budget = 0);

 private:
  /// Where pentagons lie along and beside a straight line of the triangulation from a reduction's
  /// r0, walked a step at a time as comparisons need it: a leading 1, then four bits per face
  /// reached (ray_code: whether it is a pentagon, how many pentagons lie next to it), the first
  /// for the face two steps from r0 (0: not started); the last step went from `from` to `to`.
  struct Ray {
    std::uint64_t bits = 0;
    std::uint8_t from = 0;
    std::uint8_t to = 0;
  };
  struct Key {
    int size;
    int shape;
    // An L0 view's: the pentagons round its corner a0 and round the corner at its other end
    // (l0_inv). A longer row's: the pentagons round r0 and round its corner a0.
    int inv;
    // inv2, the pentagons along two straight rays from r0, through a0 and through t0, walked
    // side by side as comparisons need them and compared a step at a time, ray a's face before
    // ray t's at each step (compare_keys).
    Ray ray_a;
    Ray ray_t;
  };
  /// One of a parent's L0 views: the children of its L0 expansions compete with it.
  struct Rival {
    RowOp view;
    Key key{};                // inv only
    VertexSet reads;          // faces an expansion must not rewrite for view and key to last (fill_reads)
    std::array<std::uint8_t, 2> corners;  // at r0 and at r1 (fill_reads)
    bool has_reads = false;   // reads and corners are filled in
    bool untouched = false;   // by the expansion being tried: the view survives in the child ...
    int inv_now;              // ... with this inv (set with untouched)
    std::int8_t id;           // its l0_view_id, which a child it survives into keeps
    // Members set one by one (add_rival), not the whole struct zeroed first (rep stos).
    Rival() {}  // NOLINT(modernize-use-equals-default): `= default` would zero it in emplace_back()
  };
  /// A parent's L0 views, and which of them has each l0_view_id (-1: none).
  struct Rivals {
    std::vector<Rival> list;
    std::array<std::int8_t, kL0Views> by_view{};
    std::vector<std::pair<int, int>> rows;  // the L0 rows (r0 < r1)
    // The pairs of views (list[2i], list[2i+1]) by the smaller inv of the two, ascending: pair
    // by_inv[j] has smaller inv low_inv[j] (search() sorts them at each node).
    std::array<std::uint8_t, kL0Views / 2> by_inv{};
    std::array<int, kL0Views / 2 + 1> low_inv{};
    bool carried = false;  // filled in by the test of the map's own expansion
  };

  /// Appends the L0 view c with key inv (rays not walked, reads not filled) to `rivals` as the
  /// view of l0_view_id `id`. Defined in generator.cpp, whose two callers it is inlined into
  /// (as a call, or defined here, it measured 1-2% slower at all C90).
  [[gnu::always_inline]] static inline void add_rival(Rivals& rivals, const RowOp& c, int inv, int id);

  /// Nodes this many faces short of split_nv_ or fewer are numbered, and the nodes they jump past
  /// it to (visit) go to the part of that number; from farther below those are numbered.
  /// BuckyGen's IPR parts reach 3; 5 measured faster with parts as even (bench/RESULTS.md run 37:
  /// IPR C150 in 16 parts on one VM core 21.4 -> 19.8-20.4 s, all C136 79.3 -> 78.3 s).
  static constexpr int kPartCapReach = 5;
  /// Numbers the node at `depth` (jump_owner_) when it lies kPartCapReach faces short of
  /// split_nv_ or fewer, and returns the largest expansion it need try: when the nodes its
  /// expansions jump past split_nv_ to belong to another part (visit), split_nv_ - nv; otherwise
  /// no limit.
  int start_part_of_search(int depth);
  void search(int depth, int nauto);
  /// search() within IPR fullerenes (ipr_search.cpp): the children are the IPR fullerenes whose
  /// canonical IPR reduction undoes their expansion; expansions of more than `cap` faces are
  /// left out (start_part_of_search).
  void ipr_search(int depth, int nauto, int cap);
  /// True when the new row `row` of the IPR fullerene g (as expand() numbers it: r0, r0 + 1, ...)
  /// is its canonical IPR reduction: the smallest (size, then key) among its reductions within
  /// IPR fullerenes (ipr_roots.hpp), ties settled by breadth-first codes. Sets nauto and, when
  /// asked, code as is_canonical() does. `rivals`: views of reductions within IPR fullerenes of
  /// g of the new row's size, other than its own, known beforehand (they are tried first).
  /// `rejector` (when not null) is set to the smaller reduction that turns g down, when one does.
  bool is_canonical_ipr(const PlanarMap& g, const RowOp& row, int& nauto, std::string* code,
                        const std::vector<RowOp>& rivals, RowOp* rejector = nullptr);
  /// True when no isomer of this run lies below a child of child_nv vertices.
  [[nodiscard]] bool dead(int child_nv) const;
  void start_at(const Subtree& subtree);
  /// True when the new row `row` of g is g's canonical reduction (up to automorphisms); with
  /// `either_end`, when either of its two views is. Sets nauto to |Aut(g)| and, when asked, code
  /// to g's code from the canonical view.
  /// `known`: for an L0 child, the parent's L0 views, marked untouched where the expansion left
  /// them in place (nullptr: none known); then g's own L0 views go to `carry` (when not nullptr)
  /// if g passes.
  /// `inv_hint`: the inv of the row's views from r0 and from r_m when known beforehand (-1: not).
  bool is_canonical(const PlanarMap& g, const RowOp& row, bool either_end, const Rivals* known, Rivals* carry,
                    int& nauto, std::string* code, std::array<int, 2> inv_hint = {-1, -1});
  /// The key with its rays (inv2) not yet walked; compare_keys() walks them as a comparison
  /// needs them.
  /// `inv_known` (when not -1) is its inv, known beforehand.
  [[nodiscard]] Key key_of(const PlanarMap& g, const RowOp& row, int inv_known = -1) const;
  /// The key of a view of a reduction within IPR fullerenes of g (is_canonical_ipr), with near_
  /// filled from g. key_of's inv is the same for all of them (r0 has no pentagon next to it, and
  /// its corner none but r0), so the rays would decide every comparison; this inv reads instead
  /// how many pentagons lie next to each of r0's neighbours (from r1, in orientation s; more
  /// first). At IPR C130 it decides 1.79 million of the 2.24 million comparisons.
  [[nodiscard]] Key ipr_key_of(const PlanarMap& g, const RowOp& row) const;
  /// A face's four bits in a ray: whether it is a pentagon, then how many pentagons lie next to
  /// it (near_, at most 6).
  [[nodiscard]] int ray_code(const PlanarMap& g, int face) const;
  /// Starts rays a and t of the view `row` in `key`.
  void start_rays(const PlanarMap& g, const RowOp& row, Key& key) const;
  /// One more step along the ray (in orientation s).
  void step_ray(const PlanarMap& g, int s, Ray& ray) const;
  /// -1, 0 or 1 as ka is below, equal to or above kb: their cheap parts first, then their rays,
  /// walked side by side up to their first difference.
  int compare_keys(const PlanarMap& g, const RowOp& a, Key& ka, const RowOp& b, Key& kb);
  bool reduces_to_fullerene(const PlanarMap& g, const RowOp& row);
  void visit(int depth, int nauto);

  GeneratorOptions options_;
  /// --ipr (and not ipr_whole_search): the search runs within IPR fullerenes from the
  /// irreducible ones (ipr_search.cpp, ipr_roots.hpp).
  bool ipr_tree_ = false;
  int target_nv_;
  int split_nv_;
  std::vector<int> max_canonical_;  // max_canonical_size(nv) for nv <= target_nv_
  std::uint64_t split_index_ = 0;
  /// The nodes kPartCapReach faces or fewer below split_nv_ searched so far (start_part_of_search).
  std::uint64_t near_index_ = 0;
  /// Per level: such a node's number, which gives the part of its jumps past split_nv_ (visit).
  std::vector<std::uint64_t> jump_owner_;
  std::uint64_t emitted_ = 0;
  std::uint64_t searched_ = 0;  // nodes searched by this run_subtree, against fork_budget_
  std::vector<PlanarMap> level_;
  std::vector<std::unordered_set<std::string>> seen_;
  struct Lasting {
    int size;
    VertexSet row;
    std::array<int, 2> ends;  // r0 and r_m
    bool straight;
  };
  /// True when h has three reductions of 3 faces, all L1 or all B00, no two with an end in
  /// common, among `lasting` (BuckyGen's bound: then no expansion of more than 3 faces makes a
  /// canonical child).
  [[nodiscard]] static bool three_independent_size3(const std::vector<Lasting>& lasting);
  std::vector<std::vector<Lasting>> lasting_;  // per level: the parent's reductions
  /// A parent's reduction within IPR fullerenes (ipr_roots.hpp) of up to kRowsAlwaysValid faces:
  /// its faces and its two corners. It stays one in a child whose expansion rewrites none of its
  /// faces (so the row, its targets and corners are the same; a_0 and z, which turn into
  /// hexagons, are then not among its ends) and brings neither corner next to a new pentagon
  /// (old_neighbours_of_new_ends): the lists reduces_within_ipr reads then gain only new hexagons
  /// and lose faces (the corners', and those of the pentagons next to the row, which the child's
  /// IPR test keeps off the new pentagons), an expansion joins no two old faces, and old faces
  /// keep their degrees but a_0 and z. So no pentagon comes next to another in its result.
  ///
  /// A *blocked* one (blockers[0] >= 0) is a parent's row of 3 faces that is no reduction within
  /// IPR fullerenes only because its corners lie next to one or two other pentagons, the
  /// blockers. In a child whose expansion turns every blocker into a hexagon (they are its a_0
  /// and z) and rewrites none of the row's faces and corners, the corners are clear, every list
  /// reduces_within_ipr reads is the parent's, and the pentagons among the faces those lists
  /// hold are the parent's less a_0 and z: the parent's lists read with the blockers as hexagons
  /// (`valid`, found when first asked) say whether the row reduces within IPR fullerenes there.
  /// With a corner rewritten, the same holds when neither corner comes next to a new pentagon
  /// (as above: the corners' lists then only lose faces and gain new hexagons).
  struct IprLasting {
    int size;
    VertexSet row;
    std::array<int, 2> corners;
    std::array<RowOp, 2> views;  // from either end
    std::array<int, 2> blockers{-1, -1};
    int valid = -1;  // blocked only: -1 not yet known, 0 no, 1 yes
  };
  /// Per level, in ipr_search: the parent's IprLasting reductions (at most 64, by size, the
  /// blocked ones after the others).
  std::vector<std::vector<IprLasting>> ipr_lasting_;
  /// For a face of the parent, the IprLasting reductions (bit i: ipr_lasting_[level][i]) that have
  /// it among their faces (row) and those that have it as a corner.
  struct LastingBits {
    std::uint64_t row;
    std::uint64_t corner;
  };
  /// Per level, in ipr_search: the LastingBits of each face of the parent.
  std::vector<std::array<LastingBits, PlanarMap::kMaxVertices>> ipr_lasting_bits_;
  /// An expansion's rewritten faces as the IprLasting reductions they meet: the IPR walks gather
  /// these in place of a VertexSet (add(v) ors in v's LastingBits), and an expansion's test of
  /// the parent's reductions is then a few ands.
  struct LastingHits {
    const LastingBits* of;
    std::uint64_t rows = 0;
    std::uint64_t corners = 0;
    void add(int v) {
      rows |= of[v].row;
      corners |= of[v].corner;
    }
  };
  /// Per level, in ipr_search: the views of the parent's IprLasting reductions that last in the
  /// child being tested and are as large as its expansion.
  std::vector<std::vector<RowOp>> ipr_rivals_;
  std::vector<Rivals> rivals_;  // per level
  /// Per level, bit i set for each vertex of the parent's i-th L0 row (zero elsewhere between
  /// uses): an expansion of 3 vertices that meets every row is one whose vertices OR to all bits.
  std::vector<std::array<std::uint64_t, PlanarMap::kMaxVertices>> row_bits_;
  /// Per level, for each vertex the OR of row_bits_ over its closed neighbourhood (zero elsewhere
  /// between uses).
  std::vector<std::array<std::uint64_t, PlanarMap::kMaxVertices>> row_near_;
  std::vector<FirstLegs> legs_;  // per level: the parent's first legs (expansion_walks.hpp)
  std::vector<bool> legs_filled_;  // per level: legs_ holds the first legs of level_'s map
  std::vector<VertexSet> made_by_;  // per level: the vertices the expansion making level_'s map rewrote
  /// The inv of the child's new row seen from r0 and from r1 after the L0 expansion e, read from
  /// h (e.z set, as the L0 walk sets it; e.tm, t1, used when set).
  /// (Always inlined into the L0 check, its one caller: all C96 0.5% fewer instructions.)
  [[nodiscard, gnu::always_inline]] static inline std::array<int, 2> predicted_l0_invs(
      const PlanarMap& h, const Expansion& e, const PentagonRings& rings);
  std::vector<PentagonRings> rings_;  // per level: of level_'s map, for its L0 pass
  /// The pentagons round the corner a0 = at(r0, index of r1, 2s) of a row from r0 through r1, read
  /// from r0 in orientation s (five bits, the first for the face after r0).
  [[nodiscard]] static int corner_pattern(const PlanarMap& g, int r0, int r1, int s);
  /// The same with r1 given by its slot k round r0.
  [[nodiscard]] static int corner_pattern_at(const PlanarMap& g, int r0, int k, int s);
  /// An L0 view's inv from the corner patterns at its own end and at the other end. The smallest
  /// wins: fewer pentagons round the corners. Two corners a row apart tie far less often than
  /// the patterns round r0 and its corner (next to each other), which the rays then had to
  /// settle for most children; and preferring fewer pentagons costs less than preferring more,
  /// as BuckyGen's colours do (all C90: 10.45 billion instructions, against 11.35 preferring
  /// more and 12.18 with the old inv; bench/RESULTS.md run 29).
  static constexpr int l0_inv(int own, int other) { return own << 5 | other; }
  /// The invs of the two views of an L0 row in one orientation (v from r0, w from r1, as
  /// for_each_l0_row hands them out) from the patterns round their own corners.
  static constexpr std::array<int, 2> l0_pair_invs(int at_v, int at_w) { return {l0_inv(at_v, at_w), l0_inv(at_w, at_v)}; }
  /// The same read off g.
  [[nodiscard]] static std::array<int, 2> l0_pair_invs(const PlanarMap& g, const RowOp& v, int v_id, const RowOp& w,
                                                       int w_id) {
    return l0_pair_invs(corner_pattern_at(g, v.r0, l0_view_slot(v_id), v.s),
                        corner_pattern_at(g, w.r0, l0_view_slot(w_id), w.s));
  }
  /// At most 30 pairs of adjacent pentagons (the 30 edges of the dodecahedron, C20).
  static constexpr std::size_t kMaxAdjacentPairs = 30;
  /// far[i]: bit j set for each pair j of `pairs` (adjacent pentagons of h) farther than 4 from
  /// pair i (from every vertex of one to every vertex of the other).
  void far_pairs(const PlanarMap& h, const std::vector<std::pair<int, int>>& pairs,
                 std::array<std::uint32_t, kMaxAdjacentPairs>& far);
  /// With --ipr: false when no IPR isomer lies below the child of child_nv vertices that the
  /// expansion rewriting `changed` makes of h (the map of search level `level`).
  [[gnu::noinline]] bool ipr_below(const PlanarMap& h, std::size_t level, int child_nv, const VertexSet& changed);
  /// The pairs (v < w) of adjacent pentagons of g.
  static void adjacent_pairs(const PlanarMap& g, std::vector<std::pair<int, int>>& pairs);
  /// for_each_size3_expansion of h from the first legs in `walked` (legs: h's first legs),
  /// calling f only for the expansions that rewrite a vertex of every pair in `pairs` (with more
  /// than 64 pairs, for every one), with the scratch of search level `level`.
  template <class F>
  void size3_meeting(const PlanarMap& h, const FirstLegs& legs, std::size_t level,
                     const std::vector<std::pair<int, int>>& pairs, const FirstLegs::Marks& walked, F&& f);
  /// True when the expansion rewriting `changed` leaves r and its key in place (fill_reads).
  static bool untouched(const Rival& r, const VertexSet& changed) { return !r.reads.meets(changed); }
  /// The pentagons round `corner` read from its neighbour `from` in orientation s, as
  /// corner_pattern gives them, in the child of the expansion whose a0 and z are given: in h, but
  /// with a0 and z turned into hexagons.
  [[nodiscard]] static int corner_pattern_after(const PlanarMap& h, int corner, int from, int s, int a0, int z);
  /// Fills r.reads and r.corners (search() does, for the pairs of each node not carried with
  /// them).
  static void fill_reads(const PlanarMap& h, Rival& r);
  /// The faces within distance `reach` of v or w.
  [[nodiscard]] static VertexSet ball(const PlanarMap& h, int v, int w, int reach);
  std::vector<RowOp> ties_;
  PentagonNeighbours near_;  // of the map whose reductions are being scanned (ipr_search.cpp)
  /// near_ holds the map that is_canonical tests (filled when a comparison first reaches the
  /// rays, which read it).
  bool near_ready_ = false;
  /// With --ipr, per level: the map's pairs of adjacent pentagons and, when first needed, which
  /// of them lie far apart (far_pairs).
  struct IprPairs {
    std::vector<std::pair<int, int>> adjacent;
    std::array<std::uint32_t, kMaxAdjacentPairs> far{};
    bool far_ready = false;
  };
  std::vector<IprPairs> ipr_pairs_;
  std::vector<std::uint8_t> code_a_;  // the code handed to the sibling check
  PlanarMap scratch_;
  const std::function<void(const PlanarMap&)>* sink_ = nullptr;
  const Fork* fork_ = nullptr;
  const Fork* split_fork_ = nullptr;
  std::uint64_t fork_budget_ = 0;
  bool in_subtree_ = false;
};

/// Number of C_N isomers (all, or IPR) in part `part` (0-based) of `parts`, counted on `threads`
/// threads: each expands a bounded piece of the search and hands the rest of it out as new pieces
/// (run_subtree with a fork). With parts, the search above the part's subtrees runs on one thread.
[[nodiscard]] std::uint64_t count_isomers(int atoms, bool ipr, int threads, int part = 0, int parts = 1);
/// The same with every generator option.
[[nodiscard]] std::uint64_t count_isomers(const GeneratorOptions& options, int threads);

/// True when no two pentagons (degree-5 vertices) are adjacent.
[[nodiscard]] bool is_ipr(const PlanarMap& m);

}  // namespace molstep::fullerene
