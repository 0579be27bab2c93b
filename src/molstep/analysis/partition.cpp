// SPDX-License-Identifier: MIT
#include "molstep/analysis/partition.hpp"

#include <cstdlib>

#ifdef MOLSTEP_HAVE_MPI
#include <mpi.h>
#endif

namespace molstep::analysis {

#ifdef MOLSTEP_HAVE_MPI

Partition world_partition() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) return {};
  Partition p;
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p.size);
  return p;
}

std::vector<std::string> gather_text(const Partition& p, const std::string& text) {
  if (!p.distributed()) return {text};
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(p.size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<std::size_t>(p.size), 0);
  for (std::size_t r = 1; r < offsets.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string all(p.rank == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (p.rank != 0) return {};
  std::vector<std::string> out;
  for (std::size_t r = 0; r < offsets.size(); ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  }
  return out;
}

void sum_counts(const Partition& p, std::vector<std::uint64_t>& counts) {
  if (!p.distributed()) return;
  std::vector<std::uint64_t> total(counts.size(), 0);
  MPI_Reduce(counts.data(), total.data(), static_cast<int>(counts.size()), MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (p.rank == 0) counts = std::move(total);
}

void abort_all(int code) {
  if (world_partition().distributed()) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

#else

Partition world_partition() { return {}; }
std::vector<std::string> gather_text(const Partition&, const std::string& text) { return {text}; }
void sum_counts(const Partition&, std::vector<std::uint64_t>&) {}
void abort_all(int code) { std::exit(code); }

#endif

}  // namespace molstep::analysis
