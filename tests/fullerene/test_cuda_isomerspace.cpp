// SPDX-License-Identifier: MIT
// The GPU isomer pipeline (queue, batch, all stages) against the CPU pipeline, through
// optimize_stream as `molstep fullerene isomerspace --device cuda` uses it. Skipped, with a
// message, where no CUDA device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "molstep/analysis/partition.hpp"
#include "molstep/fullerene/isomerspace.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "support/fullerene_isomers.hpp"
#include "support/require_gpu.hpp"

namespace molstep::fullerene {
namespace {

/// Every row of optimize_stream over `duals` (index = position), in the order `done` saw them.
std::vector<IsomerResult> stream_rows(const std::vector<Triangulation>& duals, const StreamOptions& options) {
  std::vector<IsomerResult> rows;
  optimize_stream(
      [&](const auto& take) {
        for (std::size_t i = 0; i < duals.size(); ++i) take(i, duals[i]);
      },
      options,
      [&](std::vector<OptimizedIsomer>& batch) {
        for (const OptimizedIsomer& isomer : batch) rows.push_back(isomer.result);
      });
  return rows;
}

StreamOptions gpu_options(int slots = 0, int chunk = 0, int queue = 0, std::size_t batch = 0, int finished = 0) {
  StreamOptions o;
  o.threads = 4;
  o.batch = batch;
  o.gpu.enabled = true;
  o.gpu.slots = slots;
  o.gpu.chunk = chunk;
  o.gpu.queue = queue;
  o.gpu.finished_capacity = finished;
  return o;
}

void expect_rows_match_cpu(int atoms, std::size_t limit, std::size_t stride) {
  const auto duals = test::every_nth_isomer(atoms, limit, stride);
  StreamOptions cpu_options;
  cpu_options.threads = 16;
  const auto cpu = stream_rows(duals, cpu_options);
  const auto gpu = stream_rows(duals, gpu_options());
  ASSERT_EQ(gpu.size(), cpu.size());
  int converged = 0;
  double worst_energy = 0, worst_bond_rmsd = 0, worst_gap = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    ASSERT_EQ(gpu[i].index, cpu[i].index);
    EXPECT_EQ(gpu[i].spiral, cpu[i].spiral) << i;
    EXPECT_EQ(gpu[i].atoms, atoms);
    EXPECT_EQ(gpu[i].status, cpu[i].status) << "C" << atoms << " isomer " << i << " " << cpu[i].spiral;
    worst_gap = std::max(worst_gap, std::abs(gpu[i].properties.homo_lumo_gap - cpu[i].properties.homo_lumo_gap));
    if (gpu[i].status != IsomerStatus::converged || cpu[i].status != IsomerStatus::converged) continue;
    ++converged;
    const IsomerProperties &g = gpu[i].properties, &c = cpu[i].properties;
    worst_energy = std::max(worst_energy, std::abs(g.energy - c.energy) / std::abs(c.energy));
    worst_bond_rmsd = std::max(worst_bond_rmsd, std::abs(g.bond_rmsd - c.bond_rmsd));
  }
  std::printf("C%d, %zu isomers (%d converged on both): energies within %.3g relative, bond RMSD within %.3g A, "
              "HOMO-LUMO gaps within %.3g\n",
              atoms, cpu.size(), converged, worst_energy, worst_bond_rmsd, worst_gap);
  // The GPU's start geometries differ from the CPU's in the last bits (CUDA's sin, cos and atan2,
  // block sums in the Tutte solve), so the two CG runs end at different points of the region the
  // convergence test accepts (RMS gradient below 1e-2): measured on the H100, energies within
  // 8.4e-4 relative and bond RMSDs within 1.4e-4 A (C60, C100). From one start the runs agree
  // exactly (test_cuda_optimize.cpp). The bounds are the measured worst cases with a margin.
  EXPECT_LT(worst_energy, 3e-3);
  EXPECT_LT(worst_bond_rmsd, 5e-4);
  EXPECT_LT(worst_gap, 1e-10);
}

TEST(CudaIsomerspace, WholeC60SpaceMatchesCpu) {
  REQUIRE_GPU();
  expect_rows_match_cpu(60, 10000, 1);
}

TEST(CudaIsomerspace, C100SampleMatchesCpu) {
  REQUIRE_GPU();
  expect_rows_match_cpu(100, 3000, 30);
}

TEST(CudaIsomerspace, QueueConservesIsomersWhateverTheBatchShape) {
  REQUIRE_GPU();
  // A small batch, a small queue, short chunks and short rounds: every isomer in comes out
  // exactly once, in source order, and with the same result as with the default shape (each
  // isomer's arithmetic does not depend on its slot or on where its run was interrupted).
  const auto duals = test::first_isomers(60, 1000);
  const auto wide = stream_rows(duals, gpu_options());
  const auto narrow = stream_rows(duals, gpu_options(37, 5, 50, 300));
  ASSERT_EQ(wide.size(), duals.size());
  ASSERT_EQ(narrow.size(), duals.size());
  std::set<std::uint64_t> seen;
  for (std::size_t i = 0; i < duals.size(); ++i) {
    EXPECT_EQ(narrow[i].index, i);
    EXPECT_TRUE(seen.insert(narrow[i].index).second);
    EXPECT_EQ(narrow[i].status, wide[i].status) << i;
    EXPECT_EQ(narrow[i].iterations, wide[i].iterations) << i;
    EXPECT_EQ(narrow[i].properties.energy, wide[i].properties.energy) << i;
    EXPECT_EQ(narrow[i].spiral, wide[i].spiral) << i;
  }
  EXPECT_EQ(seen.size(), duals.size());
}

TEST(CudaIsomerspace, SecondRankRunsItsShareOnItsOwnGpu) {
  REQUIRE_GPU();
  // Under MPI rank r takes the isomers at positions r mod ranks and runs them on GPU r mod
  // devices: with two GPUs, rank 1 of 2 runs on the second while this thread's current device is
  // the first (its stream and events must all belong to its GPU: an event of device 0 recorded
  // on device 1's stream failed there). Its rows must be the single process's at its positions.
  const auto duals = test::first_isomers(60, 400);
  const auto whole = stream_rows(duals, gpu_options(37, 5));
  StreamOptions second = gpu_options(37, 5);
  second.partition = analysis::Partition{1, 2};
  const auto mine = stream_rows(duals, second);
  ASSERT_EQ(mine.size(), duals.size() / 2);
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const std::size_t i = 2 * k + 1;
    ASSERT_EQ(mine[k].index, i);
    EXPECT_EQ(mine[k].status, whole[i].status) << i;
    EXPECT_EQ(mine[k].iterations, whole[i].iterations) << i;
    EXPECT_EQ(std::memcmp(&mine[k].properties, &whole[i].properties, sizeof(IsomerProperties)), 0) << i;
  }
}

TEST(CudaIsomerspace, BatchedPropertiesWhateverTheFinishedBufferSize) {
  REQUIRE_GPU();
  // Finished isomers wait in a buffer of D positions (taken by atomics, so in an order that may
  // vary) for one properties launch. With 37 slots: D = 1 is raised to 37 (flushes after nearly
  // every round), D = 41 flushes every few rounds at odd fill levels, D = 5000 (more than a run of
  // 300 isomers) only when a run's last isomer has finished. Properties depend only on an
  // isomer's graph and final geometry: every isomer comes out exactly once, with the same row,
  // bit for bit, as with the default shape, and with a share of the properties stage's time.
  const auto duals = test::first_isomers(60, 1000);
  const auto wide = stream_rows(duals, gpu_options());
  ASSERT_EQ(wide.size(), duals.size());
  for (const int finished : {1, 41, 5000}) {
    const auto rows = stream_rows(duals, gpu_options(37, 5, 50, 300, finished));
    ASSERT_EQ(rows.size(), duals.size()) << "D = " << finished;
    std::set<std::uint64_t> seen;
    for (std::size_t i = 0; i < duals.size(); ++i) {
      EXPECT_EQ(rows[i].index, i) << "D = " << finished;
      EXPECT_TRUE(seen.insert(rows[i].index).second) << "D = " << finished << ", isomer " << i;
      EXPECT_EQ(rows[i].status, wide[i].status) << "D = " << finished << ", isomer " << i;
      EXPECT_EQ(rows[i].iterations, wide[i].iterations) << "D = " << finished << ", isomer " << i;
      EXPECT_EQ(std::memcmp(&rows[i].properties, &wide[i].properties, sizeof(IsomerProperties)), 0)
          << "D = " << finished << ", isomer " << i << ": energy " << rows[i].properties.energy << " vs "
          << wide[i].properties.energy << ", gap " << rows[i].properties.homo_lumo_gap << " vs "
          << wide[i].properties.homo_lumo_gap;
      EXPECT_EQ(rows[i].spiral, wide[i].spiral) << "D = " << finished << ", isomer " << i;
      EXPECT_GT(rows[i].seconds[5], 0.0) << "D = " << finished << ", isomer " << i;
    }
    EXPECT_EQ(seen.size(), duals.size()) << "D = " << finished;
  }
}

}  // namespace
}  // namespace molstep::fullerene
