// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "molstep/analysis/partition.hpp"
#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/optimize.hpp"
#include "molstep/fullerene/properties.hpp"

namespace molstep::fullerene {

/// How an isomer's optimisation ended: converged; failed (the iteration budget ran out, or the
/// line search found no descent); invalid (the geometry or energy is not finite: NaN).
enum class IsomerStatus { converged, failed, invalid };
inline constexpr std::array<std::string_view, 3> kIsomerStatusNames{"converged", "failed", "invalid"};
[[nodiscard]] inline std::string_view status_name(IsomerStatus s) { return kIsomerStatusNames[static_cast<int>(s)]; }

/// The stages of the pipeline for one isomer, in order, as named in outputs.
inline constexpr std::array<std::string_view, 6> kStageNames{"spiral", "dualise",   "tutte",
                                                             "projection", "optimise", "properties"};
using StageSeconds = std::array<double, kStageNames.size()>;

/// One row of an isomer-space table.
struct IsomerResult {
  std::uint64_t index = 0;  ///< position in the source: the generator's order, or the input file's
  std::string spiral;       ///< canonical general spiral "N:p1,...,p12" (with jumps "N:j,l;p1,...,p12")
  int atoms = 0;
  IsomerStatus status = IsomerStatus::failed;
  int iterations = 0;
  IsomerProperties properties;
  StageSeconds seconds{};  ///< time in each stage

  [[nodiscard]] double total_seconds() const;
};

/// An isomer after the pipeline: its row, its cubic graph and its optimised coordinates (A).
struct OptimizedIsomer {
  IsomerResult result;
  CubicGraph graph;
  std::vector<std::array<double, 3>> positions;
};

/// The pipeline for one isomer: canonical spiral, dualisation, Tutte embedding, spherical
/// projection, force-field optimisation, properties. Throws molstep::Error (prefixed "isomer
/// INDEX: ") when a stage cannot run, e.g. the Tutte solver does not converge. Precondition:
/// fullerene::validate(dual) passes.
[[nodiscard]] OptimizedIsomer optimize_isomer(const Triangulation& dual, std::uint64_t index,
                                              const OptimizeOptions& options = {});

/// Hands isomers to optimize_stream: calls take(index, dual) once per isomer, in order.
using IsomerSource =
    std::function<void(const std::function<void(std::uint64_t index, const Triangulation& dual)>& take)>;

/// The lockstep GPU pipeline's settings (`--device cuda`); see docs/fullerene.md.
struct GpuOptions {
  bool enabled = false;  ///< run dualisation, embedding, optimisation and properties on the GPU
  bool single = false;   ///< float arithmetic in the optimiser (double by default)
  int slots = 0;         ///< isomers in the GPU batch at once; 0: 4 x as many as the device runs at once
  int chunk = 0;         ///< CG iterations between two refills of the batch; 0: N
  int queue = 0;         ///< capacity of the GPU's isomer queue; 0: 4 x slots
  /// Finished isomers the GPU holds for one batched properties launch; 0: 8 x slots; at least slots
  int finished_capacity = 0;
};

struct StreamOptions {
  int threads = 1;
  /// The isomers' atom count when known up front (0: not known): with a GPU, the pipeline (the
  /// CUDA context, its buffers) is then set up while the first round is generated.
  int atoms = 0;
  /// Isomers optimised between two calls of `done` on one process; 0 means 32 per thread.
  std::size_t batch = 0;
  OptimizeOptions optimize;
  /// Isomer k of the source (counted from 0) is optimised by rank k mod size.
  analysis::Partition partition;
  /// With gpu.enabled, each round runs on this rank's GPU (device rank mod devices) while the
  /// source already generates the next round; `threads` then compute the spirals.
  GpuOptions gpu;
};

/// Where a GPU pipeline's time went (StreamOptions::gpu), summed over its rounds.
struct GpuPipelineTimes {
  StageSeconds gpu{};             ///< GPU time of each stage (the spiral's entry is unused: CPU work)
  double wall = 0;                ///< wall seconds in the pipeline
  double busy_slot_rounds = 0;    ///< sum over refills of (occupied slots / slots)
  std::uint64_t rounds = 0;       ///< refill-optimise-drain rounds of the batch
  std::uint64_t cpu_retries = 0;  ///< isomers redone on the CPU (non-finite GPU result)
  int slots = 0;                  ///< batch slots
  int resident_blocks = 0;        ///< optimiser blocks the GPU runs at once
};

/// Time spent outside and inside the pipeline by optimize_stream's caller thread.
struct StreamTimes {
  double source = 0;    ///< in the source (generating or reading isomers), wall seconds
  /// in batches of optimize_isomer on `threads` threads, wall seconds; with a GPU, the time the
  /// caller waited for a round beyond what generating the next one took
  double pipeline = 0;
  double report = 0;  ///< in `done`, wall seconds
  double setup = 0;   ///< waiting for the GPU pipeline to be set up, wall seconds
  GpuPipelineTimes gpu;  ///< with StreamOptions::gpu enabled
};

/// Runs optimize_isomer on every isomer of `source` that belongs to this rank, `threads` at a
/// time, and calls done(batch) after each batch, on the calling thread, with the batch's isomers
/// in source order. So whatever the thread count, `done` sees the same isomers in the same order.
/// Each call covers a round of batch * size consecutive isomers of the source (the last round
/// may be shorter; with a GPU and batch 0, rounds of 4,096 isomers per rank at first, doubling
/// up to 16,384), of which rank k holds those numbered k mod size; every rank calls `done`
/// once per round, so `done` may run collective operations. The first error, in source order,
/// is rethrown after its batch.
StreamTimes optimize_stream(const IsomerSource& source, const StreamOptions& options,
                            const std::function<void(std::vector<OptimizedIsomer>& batch)>& done);

/// A uniformly random K-subset of [0, population), sorted: the sample of the reference's Alg. 1.
/// Robert Floyd's algorithm on std::mt19937_64(seed) with rejection sampling for bounded draws,
/// so the same seed gives the same sample with any compiler and standard library. All of
/// [0, population) when k >= population.
[[nodiscard]] std::vector<std::uint64_t> sample_indices(std::uint64_t population, std::uint64_t k,
                                                        std::uint64_t seed);

struct IsomerspaceOptions {
  int atoms = 60;
  bool ipr = false;
  std::uint64_t sample = 0;  ///< keep this many isomers drawn at random; 0 keeps all of them
  std::uint64_t seed = 42;
  /// only the first `limit` isomers in the generator's order, without counting the space; 0: all
  std::uint64_t limit = 0;
  /// leave out the first `skip` isomers in the generator's order (they are generated, not
  /// optimised): with `limit`, the isomers skip .. skip + limit - 1; excludes `sample`
  std::uint64_t skip = 0;
  int threads = 1;
  std::filesystem::path out;  ///< folder for results.csv, summary.json and the histograms
  OptimizeOptions optimize;
  analysis::Partition partition;  ///< the MPI ranks sharing the work; rank 0 writes
  GpuOptions gpu;
};

/// The isomer-space job: counts C_N's isomers, streams them from the generator (keeping only
/// the sample when one is asked for), optimises them and writes, on rank 0, `out`/results.csv
/// (one row per isomer, in index order), `out`/summary.json (counts by status, statistics of
/// every metric, time per stage, isomers per second; with `skip`, also the time spent walking past
/// the skipped isomers and the rate after it) and PNG histograms of the error metrics.
/// Shows progress on stderr. Returns the summary (on rank 0; an empty object elsewhere).
/// Throws molstep::Error for a bad N, sample or skip, or when `out` cannot be written.
nlohmann::json run_isomerspace(const IsomerspaceOptions& options);

/// The columns of results.csv, in order.
[[nodiscard]] const std::vector<std::string>& isomer_csv_columns();
/// One row of results.csv, without the newline; reals in shortest round-trip form.
[[nodiscard]] std::string isomer_csv_row(const IsomerResult& r);
/// The same row as a JSON object keyed by the column names (non-finite numbers as null), plus
/// "stage_seconds": the time in each stage, keyed by kStageNames.
[[nodiscard]] nlohmann::json isomer_json(const IsomerResult& r);

}  // namespace molstep::fullerene
