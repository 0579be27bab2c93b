// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace molstep::analysis {

/// Which frames of a stream this process computes: frame k belongs to rank k mod size. With one
/// rank (no MPI, or a run without mpirun) every frame is local.
struct Partition {
  int rank = 0;
  int size = 1;
  [[nodiscard]] bool mine(std::size_t frame) const { return static_cast<int>(frame % static_cast<std::size_t>(size)) == rank; }
  [[nodiscard]] bool distributed() const { return size > 1; }
};

/// The MPI world's partition when molstep was built with MPI and MPI is initialised, else one rank.
Partition world_partition();

/// Concatenates every rank's `text` on rank 0 (in rank order); other ranks get an empty vector.
std::vector<std::string> gather_text(const Partition& p, const std::string& text);
/// Element-wise sum of `counts` over all ranks, on rank 0.
void sum_counts(const Partition& p, std::vector<std::uint64_t>& counts);
/// Stops every rank after an error on one (a collective would otherwise wait forever).
[[noreturn]] void abort_all(int code);

}  // namespace molstep::analysis
