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
}  // namespace

void check_atom_count(int atoms) {
  const int limit = 2 * PlanarMap::kMaxVertices - 4;
  if (atoms % 2 != 0 || atoms < 20 || atoms == 22 || atoms > limit)
    throw Error("no fullerene C" + std::to_string(atoms) + ": N must be even, 20 or 24.." + std::to_string(limit) +
                " (C22 does not exist)");
}

bool is_ipr(const PlanarMap& m) {
  for (int v = 0; v < m.nv; ++v)
    if (m.deg[v] == 5)
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
  const int max_size = target_nv_ - h.nv;
  // A reduction of h that an expansion does not touch survives into the child; if it is smaller
  // than the expansion, the child's canonical reduction is not the one undoing the expansion.
  auto& lasting = lasting_[depth];
  lasting.clear();
  for_each_reduction(h, std::min(max_size - 1, kLastingSize), [&](const RowOp& c) {
    if (reduces_to_fullerene(h, c)) lasting.push_back({c.size(), row_vertices(h, c)});
    return true;
  });
  std::sort(lasting.begin(), lasting.end(), [](const Lasting& a, const Lasting& b) { return a.size < b.size; });
  std::string code;
  for_each_expansion(h, max_size, [&](const Expansion& e, const VertexSet& changed) {
    for (const Lasting& l : lasting) {
      if (l.size >= e.size()) break;
      if (!l.row.meets(changed)) return;
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
  return Key{row.size(), row.bend + 1, inv};
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
  const Key mine = key_of(g, row);
  const RowOp other = reversed(g, row);
  if (key_of(g, other) < mine) return false;
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
    const Key k = key_of(g, c);
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
