// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdlib>
#include <string>

#include "molstep/core/error.hpp"

namespace molstep::gpu {

/// Threads per block of the per-atom kernels: 128 unless MOLSTEP_CUDA_BLOCK names another
/// multiple of 32 up to 1024 (a tuning knob, measured in bench/RESULTS.md; results do not depend
/// on it, since every atom is summed by one thread in a fixed order).
inline int block_size() {
  static const int size = [] {
    const char* v = std::getenv("MOLSTEP_CUDA_BLOCK");
    if (!v || !*v) return 128;
    const int b = std::atoi(v);
    return (b >= 32 && b <= 1024 && b % 32 == 0) ? b : 128;
  }();
  return size;
}

/// Opt-in variants of the MD step's GPU kernels, for measuring the choices issue 4 lists against
/// the default (bench/gpu_variants.sh). Every variant gives the default's energies, virials and
/// forces to round-off; the defaults are today's kernels, unchanged.
struct Tuning {
  /// MOLSTEP_CUDA_LIST=half: a half neighbour list (each pair once) and force kernels that add
  /// the partner's force with atomicAdd (not bit-reproducible: atomics land in any order).
  bool half_list = false;
  /// MOLSTEP_CUDA_TPA=auto|1|2|4|8: threads per atom in the LJ and EAM kernels; an atom's neighbours
  /// are split over the group and its partial sums reduced by warp shuffles in a fixed order.
  /// 0 (auto, the default): chosen by the atom count (md::cuda::PairCuda::threads_per_atom).
  int threads_per_atom = 0;
  /// MOLSTEP_CUDA_SORT=0: leave the atoms in their order at rebuilds (only an index is sorted by
  /// cell, and the list is built through it).
  bool sort = true;
  /// MOLSTEP_CUDA_PAD=N: the column-major list stride is the atom count rounded up to a multiple
  /// of N (0 or 1: the atom count, as by default).
  int pad = 0;
  /// MOLSTEP_CUDA_BINS=full: the list build's cells are at least the list cutoff wide and every
  /// atom scans the 27 cells around its own (the build before half-width cells, kept to measure
  /// them against; "half", the default, gives the same list).
  bool full_bins = false;
  /// MOLSTEP_CUDA_PRUNE=F (0 to 1): EAM's inner list holds the pairs within the cutoff plus F
  /// times the skin, and is pruned again from the full list only when an atom has moved more
  /// than half that buffer since the last pruning (0: pruned exactly to the cutoff at every
  /// step). Any F gives the same pairs inside the cutoff, in the same order: with one thread
  /// per atom results are identical (with a group, the entries are dealt to its lanes by their
  /// place in the list walked, so sums are grouped otherwise: the same to round-off).
  static constexpr double kDefaultPrune = 0.25;
  double prune = kDefaultPrune;
  /// MOLSTEP_CUDA_TABLES=force|both|global: which EAM passes of a single element read their
  /// r-tables from a copy in each block's shared memory (md::cuda::kernels::EamWindow; such a
  /// kernel runs as one resident wave of blocks of table_block threads, each thread taking atoms
  /// grid-stride) rather than from the packed records in global memory: the force pass (the
  /// default), both passes, or neither. Several elements always read global memory. Results are
  /// identical either way: the same coefficients, the same arithmetic, the same order.
  enum class TableMemory { global, force, both };
  TableMemory eam_tables = TableMemory::force;
  /// MOLSTEP_CUDA_TABLE_BLOCK=N: threads per block of those shared-table kernels (a multiple of
  /// 32 up to 1024).
  static constexpr int kDefaultTableBlock = 512;
  int table_block = kDefaultTableBlock;
  /// MOLSTEP_CUDA_ORDER=auto|index|distance: the order of each atom's entries in a full
  /// neighbour list: by partner index (the search's order), or nearest first in shells of the
  /// distance (md::cuda::NeighborCuda). auto (the default): by distance for EAM with one thread
  /// per atom, whose table lookups it makes coherent across a warp; by index otherwise (LJ looks
  /// up no tables; md::cuda::PairCuda::list_by_distance).
  enum class ListOrder { automatic, index, distance };
  ListOrder list_order = ListOrder::automatic;
  /// MOLSTEP_CUDA_GRAPH=0: launch every kernel of every step from the host instead of replaying
  /// the steps without output from CUDA graphs. Not a kernel variant: the same kernels run in the
  /// same order either way, so results are identical (is_default() and describe() ignore it).
  bool graphs = true;
  /// MOLSTEP_CUDA_DRIFT=0: every step runs fix nve's first half kick and drift, and the
  /// displacement checks, in kernels of their own, rather than in the force kernel of the step
  /// before (md::cuda::Drift; EAM with a full list). Not a kernel variant either: the same
  /// arithmetic on the same values, so results are identical (is_default() ignores it).
  bool fuse_drift = true;

  [[nodiscard]] bool is_default() const {
    return !half_list && threads_per_atom == 0 && sort && pad <= 1 && !full_bins && prune == kDefaultPrune &&
           eam_tables == TableMemory::force && table_block == kDefaultTableBlock &&
           list_order == ListOrder::automatic;
  }
  /// "list half, 4 threads per atom, ..." naming what differs from the default ("default").
  [[nodiscard]] std::string describe() const {
    if (is_default()) return "default";
    std::string s;
    const auto add = [&s](const std::string& w) { s += (s.empty() ? "" : ", ") + w; };
    if (half_list) add("half list");
    if (threads_per_atom != 0) add(std::to_string(threads_per_atom) + " threads per atom");
    if (!sort) add("atoms not sorted by cell");
    if (pad > 1) add("list stride padded to " + std::to_string(pad));
    if (full_bins) add("list cells as wide as the cutoff");
    if (prune != kDefaultPrune) add("EAM inner list buffer " + std::to_string(prune).substr(0, 4) + " skin");
    if (eam_tables == TableMemory::global) add("EAM tables in global memory");
    if (eam_tables == TableMemory::both) add("EAM tables in shared memory in both passes");
    if (table_block != kDefaultTableBlock) add("EAM table blocks of " + std::to_string(table_block) + " threads");
    if (list_order == ListOrder::index) add("lists by partner index");
    if (list_order == ListOrder::distance) add("lists by distance");
    return s;
  }
};

/// Reads the MOLSTEP_CUDA_LIST/TPA/SORT/PAD/BINS/PRUNE/TABLES/TABLE_BLOCK/ORDER/GRAPH/DRIFT variables; a value outside those documented is an
/// error naming the variable (a mistyped variant must not be measured as the default).
inline Tuning read_tuning() {
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  const auto bad = [](const char* name, const std::string& v, const char* allowed) {
    return Error(std::string(name) + "='" + v + "' is not " + allowed);
  };
  Tuning t;
  if (const auto v = env("MOLSTEP_CUDA_LIST"); !v.empty()) {
    if (v == "half") t.half_list = true;
    else if (v != "full") throw bad("MOLSTEP_CUDA_LIST", v, "full or half");
  }
  if (const auto v = env("MOLSTEP_CUDA_TPA"); !v.empty()) {
    if (v == "1" || v == "2" || v == "4" || v == "8") t.threads_per_atom = std::stoi(v);
    else if (v != "auto") throw bad("MOLSTEP_CUDA_TPA", v, "auto, 1, 2, 4 or 8");
  }
  if (const auto v = env("MOLSTEP_CUDA_SORT"); !v.empty()) {
    if (v == "0") t.sort = false;
    else if (v != "1") throw bad("MOLSTEP_CUDA_SORT", v, "0 or 1");
  }
  if (const auto v = env("MOLSTEP_CUDA_PAD"); !v.empty()) {
    char* end = nullptr;
    const long p = std::strtol(v.c_str(), &end, 10);
    if (*end != '\0' || p < 0 || p > 65536) throw bad("MOLSTEP_CUDA_PAD", v, "a whole number from 0 to 65536");
    t.pad = static_cast<int>(p);
  }
  if (const auto v = env("MOLSTEP_CUDA_BINS"); !v.empty()) {
    if (v == "full") t.full_bins = true;
    else if (v != "half") throw bad("MOLSTEP_CUDA_BINS", v, "half or full");
  }
  if (const auto v = env("MOLSTEP_CUDA_PRUNE"); !v.empty()) {
    char* end = nullptr;
    const double f = std::strtod(v.c_str(), &end);
    if (*end != '\0' || !(f >= 0.0 && f <= 1.0)) throw bad("MOLSTEP_CUDA_PRUNE", v, "a number from 0 to 1");
    t.prune = f;
  }
  if (const auto v = env("MOLSTEP_CUDA_TABLES"); !v.empty()) {
    if (v == "global") t.eam_tables = Tuning::TableMemory::global;
    else if (v == "both") t.eam_tables = Tuning::TableMemory::both;
    else if (v != "force") throw bad("MOLSTEP_CUDA_TABLES", v, "force, both or global");
  }
  if (const auto v = env("MOLSTEP_CUDA_TABLE_BLOCK"); !v.empty()) {
    char* end = nullptr;
    const long b = std::strtol(v.c_str(), &end, 10);
    if (*end != '\0' || b < 32 || b > 1024 || b % 32 != 0)
      throw bad("MOLSTEP_CUDA_TABLE_BLOCK", v, "a multiple of 32 from 32 to 1024");
    t.table_block = static_cast<int>(b);
  }
  if (const auto v = env("MOLSTEP_CUDA_ORDER"); !v.empty()) {
    if (v == "index") t.list_order = Tuning::ListOrder::index;
    else if (v == "distance") t.list_order = Tuning::ListOrder::distance;
    else if (v != "auto") throw bad("MOLSTEP_CUDA_ORDER", v, "auto, index or distance");
  }
  if (const auto v = env("MOLSTEP_CUDA_GRAPH"); !v.empty()) {
    if (v == "0") t.graphs = false;
    else if (v != "1") throw bad("MOLSTEP_CUDA_GRAPH", v, "0 or 1");
  }
  if (const auto v = env("MOLSTEP_CUDA_DRIFT"); !v.empty()) {
    if (v == "0") t.fuse_drift = false;
    else if (v != "1") throw bad("MOLSTEP_CUDA_DRIFT", v, "0 or 1");
  }
  return t;
}

namespace detail {
inline Tuning& tuning_slot() {
  static Tuning t = read_tuning();
  return t;
}
}  // namespace detail

/// The variants in force: the environment as read at the first call (or at the last
/// reload_tuning()).
inline const Tuning& tuning() { return detail::tuning_slot(); }

/// Reads the variables again (for tests, which set them between runs). Not for use while a run
/// is in progress: the neighbour list and the pair kernels of one run must see the same values.
inline void reload_tuning() { detail::tuning_slot() = read_tuning(); }

/// Blocks needed for one thread per item.
inline int blocks_for(std::size_t n) {
  const auto b = static_cast<std::size_t>(block_size());
  return static_cast<int>((n + b - 1) / b);
}

}  // namespace molstep::gpu
