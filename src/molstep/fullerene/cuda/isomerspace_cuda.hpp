// SPDX-License-Identifier: MIT
#pragma once

// The lockstep GPU isomer pipeline seen from plain C++ (no CUDA headers): what
// fullerene::optimize_stream runs each round on when StreamOptions::gpu is enabled.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "molstep/fullerene/isomerspace.hpp"

namespace molstep::fullerene::cuda {

/// Number of usable CUDA devices (0 in a build without CUDA).
[[nodiscard]] int pipeline_devices();

using PipelineTimes = GpuPipelineTimes;
/// Isomers for the pipeline: (index in the source, dual triangulation).
using Todo = std::vector<std::pair<std::uint64_t, Triangulation>>;

/// The pipeline on one GPU for isomers of one size: a batch of slots in lockstep (one block per
/// isomer, one thread per atom) kept full from an on-GPU queue. Each round the queue refills
/// the empty slots, the graph stages run on the new isomers, every isomer gets `chunk` more CG
/// iterations, finished isomers leave for a buffer whose properties are computed in batches
/// (GpuOptions::finished_capacity). An isomer whose GPU result is not finite is redone by the
/// CPU pipeline (optimize_isomer, which retries other Tutte outer faces), so results equal the
/// CPU path's.
class IsomerPipeline {
 public:
  /// Uses device `device` (see pipeline_devices()). Throws molstep::Error without a GPU, for a
  /// size the kernels cannot take, or on a CUDA failure.
  IsomerPipeline(int atoms, const OptimizeOptions& optimize, const GpuOptions& gpu, int threads, int device);
  ~IsomerPipeline();
  IsomerPipeline(const IsomerPipeline&) = delete;
  IsomerPipeline& operator=(const IsomerPipeline&) = delete;

  /// results[i] = the pipeline's result for todo[i] (index, dual); only `result` is filled
  /// (graph and positions stay empty), and its spiral only for isomers redone on the CPU (the
  /// caller computes the others' meanwhile). Stage seconds are each isomer's share of the GPU
  /// time of the rounds it spent in the batch. Throws as optimize_isomer does.
  void run(const Todo& todo, std::vector<OptimizedIsomer>& results);

  /// run() in two steps, so that rounds overlap: submit() hands a round over (any thread; todo
  /// and results must stay alive and untouched until its drive() returns) and returns its
  /// ticket; drive(ticket) runs the batch until that round has all its results, taking in the
  /// isomers of every round submitted so far as room allows, so the next round fills the slots
  /// that this one's last isomers leave instead of the batch draining between rounds. Drives
  /// run one at a time (a second waits for the first); rounds are driven in submission order.
  /// After a drive throws, every later one throws.
  std::uint64_t submit(const Todo& todo, std::vector<OptimizedIsomer>& results);
  void drive(std::uint64_t ticket);

  [[nodiscard]] const PipelineTimes& times() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace molstep::fullerene::cuda
