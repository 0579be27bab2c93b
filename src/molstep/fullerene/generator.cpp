// SPDX-License-Identifier: MIT
#include "molstep/fullerene/generator.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/canonical.hpp"
#include "molstep/fullerene/seeds.hpp"

namespace molstep::fullerene {
namespace {
// Reductions of a parent up to this size are kept to prune its expansions; larger ones rarely
// prune anything the small ones do not.
constexpr int kLastingSize = 5;
constexpr int kAlwaysValid = 5;
// Length of the straight rays in the second part of a reduction's key (BuckyGen found 7 best for
// its similar "path colours").
constexpr int kRayLength = 7;

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

Generator::Generator(const GeneratorOptions& options) : options_(options) {
  check_atom_count(options.atoms);
  if (options.parts < 1 || options.part < 0 || options.part >= options.parts)
    throw Error("part " + std::to_string(options.part + 1) + "/" + std::to_string(options.parts) +
                " does not exist: parts are numbered 1.." + std::to_string(options.parts));
  target_nv_ = options.atoms / 2 + 2;
  // Parts are assigned where the search first reaches this size: late enough that there are
  // many subtrees to share out, early enough that every part skips most of the work.
  split_nv_ = std::max(12, target_nv_ - 10);
  level_.resize(static_cast<std::size_t>(target_nv_) + 1);
  seen_.resize(level_.size());
  lasting_.resize(level_.size());
  rivals_.resize(level_.size());
  code_a_.resize(static_cast<std::size_t>(bfs_code_length(target_nv_)));
  code_b_.resize(code_a_.size());
}

void Generator::start(const std::function<void(const PlanarMap&)>* sink,
                      const std::function<void(const Subtree&)>* subtrees) {
  sink_ = sink;
  subtree_sink_ = subtrees;
  in_subtree_ = false;
  emitted_ = 0;
  split_index_ = 0;
  std::vector<Triangulation> seeds{c28_td_dual()};
  for (int rings = 0; 12 + 5 * rings <= target_nv_; ++rings) seeds.push_back(nanotube_5_0_dual(rings));
  for (const Triangulation& seed : seeds) {
    if (seed.size() > target_nv_) continue;
    level_[0] = as_planar_map(seed);
    // The seeds are highly symmetric: their children are always checked for repeats.
    visit(0, 2);
  }
  sink_ = nullptr;
  subtree_sink_ = nullptr;
}

std::uint64_t Generator::run(const std::function<void(const PlanarMap&)>& sink) {
  start(&sink, nullptr);
  return emitted_;
}

void Generator::for_each_subtree(const std::function<void(const Subtree&)>& sink) { start(nullptr, &sink); }

std::uint64_t Generator::run_subtree(const Subtree& subtree, const std::function<void(const PlanarMap&)>& sink) {
  sink_ = &sink;
  in_subtree_ = true;
  emitted_ = 0;
  level_[0].copy_from(subtree.root);
  visit(0, subtree.nauto);
  in_subtree_ = false;
  sink_ = nullptr;
  return emitted_;
}

void Generator::visit(int depth, int nauto) {
  const PlanarMap& g = level_[depth];
  const bool first_past_split =
      !in_subtree_ && g.nv >= split_nv_ && (depth == 0 || level_[depth - 1].nv < split_nv_);
  if (first_past_split) {
    const std::uint64_t index = split_index_++;
    if (index % static_cast<std::uint64_t>(options_.parts) != static_cast<std::uint64_t>(options_.part)) return;
    if (subtree_sink_ != nullptr) {
      Subtree t;
      t.root.copy_from(g);
      t.nauto = nauto;
      t.index = index;
      (*subtree_sink_)(t);
      return;
    }
  }
  if (g.nv == target_nv_) {
    if (!options_.ipr || is_ipr(g)) {
      ++emitted_;
      (*sink_)(g);
    }
    return;
  }
  search(depth, nauto);
}

void Generator::search(int depth, int nauto) {
  const PlanarMap& h = level_[depth];
  PlanarMap& g = level_[depth + 1];
  auto& seen = seen_[depth];
  seen.clear();
  int max_size = target_nv_ - h.nv;
  while (max_size > 2 && max_size > max_canonical_size(h.nv + max_size)) --max_size;
  // Most children come from L0 expansions and compete with the parent's other L0 reductions: one
  // the expansion leaves untouched keeps its key, and if that key is smaller the child is not
  // canonical. The child's key is predicted from h, so most such children are never built.
  auto& rivals = rivals_[depth];
  rivals.clear();
  auto& lasting = lasting_[depth];
  lasting.clear();
  for_each_reduction(h, 2, [&](const RowOp& c) {
    Rival r{key_of(h, c), {}};
    r.reads.add_closed_neighbourhood(h, c.r0);
    r.reads.add_closed_neighbourhood(h, h.at(c.r0, h.index_of(c.r0, c.r1), 2 * c.s));
    rivals.push_back(r);
    lasting.push_back({2, row_vertices(h, c)});
    return true;
  });
  // With an L0 reduction in the parent every child has a reduction of at most 3 vertices: an
  // expansion destroying all of them would need a 6-cut that fullerenes do not have (Brinkmann,
  // Goedgebeur and McKay 2012).
  if (!rivals.empty()) max_size = std::min(max_size, 3);
  // A reduction of h that an expansion does not touch survives into the child; if it is smaller
  // than the expansion, the child's canonical reduction is not the one undoing the expansion.
  if (max_size - 1 > 2)
    for_each_reduction(h, std::min(max_size - 1, kLastingSize), [&](const RowOp& c) {
      if (c.size() > 2 && reduces_to_fullerene(h, c)) lasting.push_back({c.size(), row_vertices(h, c)});
      return true;
    });
  std::sort(lasting.begin(), lasting.end(), [](const Lasting& a, const Lasting& b) { return a.size < b.size; });
  std::string code;
  for_each_expansion(h, max_size, [&](const Expansion& e, const VertexSet& changed) {
    // A child one vertex short of the target can never reach it: expansions add two or more.
    if (h.nv + e.size() == target_nv_ - 1) return;
    if (e.size() > max_canonical_size(h.nv + e.size())) return;
    for (const Lasting& l : lasting) {
      if (l.size >= e.size()) break;
      if (!l.row.meets(changed)) return;
    }
    if (e.m == 1) {
      // Only the predicted part of the key is compared (inv2 is not predicted).
      const Key mine = predicted_l0_key(h, e);
      for (const Rival& r : rivals)
        if (r.key.inv < mine.inv && !r.reads.meets(changed)) return;
    }
    g.copy_from(h);
    RowOp row;
    if (!expand(g, e, row)) return;
    int child_auto = 1;
    if (!is_canonical(g, row, child_auto, nauto > 1 ? &code : nullptr)) return;
    if (nauto > 1 && !seen.insert(code).second) return;
    visit(depth + 1, child_auto);
  });
}

Generator::Key Generator::key_of(const PlanarMap& g, const RowOp& row) const {
  // Pentagon pattern around r0 (from r1) and around the corner a0 (from r0), in orientation s.
  int inv = 0;
  const int k = g.index_of(row.r0, row.r1);
  for (int i = 0; i < 5; ++i) inv = inv << 1 | (g.deg[g.at(row.r0, k, i * row.s)] == 5);
  const int a0 = g.at(row.r0, k, 2 * row.s);
  const int ka = g.index_of(a0, row.r0);
  for (int i = 1; i < 6; ++i) inv = inv << 1 | (g.deg[g.at(a0, ka, i * row.s)] == 5);
  return Key{row.size(), row.bend + 1, inv, 0};
}

void Generator::complete(const PlanarMap& g, const RowOp& row, Key& key) {
  // Where pentagons lie along a straight line of the triangulation from `from` through `to`.
  const auto ray = [&g, &row](std::int64_t bits, int from, int to) {
    for (int i = 0; i < kRayLength; ++i) {
      const int next = g.at(to, g.index_of(to, from), 3 * row.s);
      from = to;
      to = next;
      bits = bits << 1 | (g.deg[to] == 5);
    }
    return bits;
  };
  std::int64_t inv2 = 1;  // nonzero: complete
  const int k1 = g.index_of(row.r1, row.r0);
  for (int i = 1; i < g.deg[row.r1]; ++i) inv2 = inv2 << 1 | (g.deg[g.at(row.r1, k1, i * row.s)] == 5);
  const int t0 = g.at(row.r0, g.index_of(row.r0, row.r1), row.s);
  const int kt = g.index_of(t0, row.r0);
  for (int i = 1; i < g.deg[t0]; ++i) inv2 = inv2 << 1 | (g.deg[g.at(t0, kt, i * row.s)] == 5);
  // Three places on in orientation s: straight through hexagons, and mirror-consistent at
  // pentagons.
  const int a0 = g.at(row.r0, g.index_of(row.r0, row.r1), 2 * row.s);
  inv2 = ray(inv2, row.r0, a0);
  inv2 = ray(inv2, row.r0, t0);
  key.inv2 = inv2;
}

Generator::Key Generator::predicted_l0_key(const PlanarMap& h, const Expansion& e) const {
  // The key key_of() will compute for the new row r0 r1 of this L0 expansion, read from h.
  // Around r0 (from r1, orientation s) lie r1, t0, a0, and the two strip vertices of t0; around
  // a0, r0 comes just before t0 and a0's old neighbours follow t0. Degrees do not change except
  // at a0 and z (5 -> 6); r0 and r1 have degree 5.
  const int s = e.s;
  const int in0 = h.index_of(e.t0, e.a0);
  const int t1 = h.at(e.t0, in0, 3 * s);
  const int z = h.at(t1, h.index_of(t1, e.t0), 2 * s);
  const auto pent = [&](int v) { return v != e.a0 && v != z && h.deg[v] == 5 ? 1 : 0; };
  int inv = 1;
  inv = inv << 1 | pent(e.t0);
  inv = inv << 1;  // a0
  inv = inv << 1 | pent(h.at(e.t0, in0, s));
  inv = inv << 1 | pent(h.at(e.t0, in0, 2 * s));
  inv = inv << 1 | pent(e.t0);
  const int ka = h.index_of(e.a0, e.t0);
  for (int i = 1; i <= 4; ++i) inv = inv << 1 | pent(h.at(e.a0, ka, i * s));
  return Key{2, 0, inv, 0};
}

bool Generator::reduces_to_fullerene(const PlanarMap& g, const RowOp& row) {
  // A row of at most kAlwaysValid vertices cannot wrap round the cage far enough to make the
  // closing zip meet itself (measured: the first failing rows have 6 vertices); the counts test
  // covers this shortcut.
  if (row.size() <= kAlwaysValid) return true;
  scratch_.copy_from(g);
  return contract(scratch_, row);
}

bool Generator::is_canonical(const PlanarMap& g, const RowOp& row, int& nauto, std::string* code) {
  Key mine = key_of(g, row);
  complete(g, row, mine);
  const RowOp other = reversed(g, row);
  Key theirs = key_of(g, other);
  if (theirs.inv == mine.inv) complete(g, other, theirs);
  if (theirs < mine) return false;
  // Most children have a small reduction somewhere else: look for the smallest ones first.
  bool smaller = false;
  for (int size = 2; size < row.size() && size <= 3 && !smaller; ++size)
    for_each_reduction(g, size, [&](const RowOp& c) {
      smaller = reduces_to_fullerene(g, c);
      return !smaller;
    });
  if (smaller) return false;
  ties_.clear();
  for_each_reduction(g, row.size(), [&](const RowOp& c) {
    if (c.size() < row.size()) {
      smaller = reduces_to_fullerene(g, c);
      return !smaller;
    }
    Key k = key_of(g, c);
    if (k.inv == mine.inv) complete(g, c, k);
    if (k > mine) return true;
    if (k == mine) {
      if (!(c.r0 == row.r0 && c.r1 == row.r1 && c.s == row.s && c.bend == row.bend && c.m == row.m))
        ties_.push_back(c);
      return true;
    }
    smaller = reduces_to_fullerene(g, c);
    return !smaller;
  });
  if (smaller) return false;
  nauto = 1;
  if (ties_.empty() && code == nullptr) return true;
  bfs_code(g, row.r0, row.r1, row.s, nullptr, code_a_.data());
  for (const RowOp& c : ties_) {
    const int cmp = bfs_code(g, c.r0, c.r1, c.s, code_a_.data(), code_b_.data());
    if (cmp == 0) ++nauto;
    if (cmp < 0 && reduces_to_fullerene(g, c)) return false;
  }
  if (code != nullptr) code->assign(code_a_.begin(), code_a_.begin() + bfs_code_length(g.nv));
  return true;
}

std::uint64_t count_isomers(int atoms, bool ipr, int threads) {
  check_atom_count(atoms);
  const GeneratorOptions options{atoms, ipr, 0, 1};
  if (threads <= 1) return Generator(options).run([](const PlanarMap&) {});
  std::vector<Generator> workers(static_cast<std::size_t>(threads), Generator(options));
  std::atomic<std::uint64_t> total{0};
  std::atomic<std::uint64_t>* sum = &total;
  Generator* pool = workers.data();
#pragma omp parallel num_threads(threads)
#pragma omp single
  Generator(options).for_each_subtree([sum, pool](const Generator::Subtree& subtree) {
#pragma omp task firstprivate(subtree, sum, pool)
    *sum += pool[omp_get_thread_num()].run_subtree(subtree, [](const PlanarMap&) {});
  });
  return total;
}

}  // namespace molstep::fullerene
