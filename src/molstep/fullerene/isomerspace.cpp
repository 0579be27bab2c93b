// SPDX-License-Identifier: MIT
#include "molstep/fullerene/isomerspace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <type_traits>
#include <unordered_set>

#include "molstep/analysis/csv.hpp"
#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"
#include "molstep/core/plot_png.hpp"
#include "molstep/core/progress.hpp"
#include "molstep/fullerene/cuda/isomerspace_cuda.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/embed.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ordered_generation.hpp"
#include "molstep/fullerene/spiral.hpp"

namespace molstep::fullerene {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point& mark) {
  const auto now = Clock::now();
  const double s = std::chrono::duration<double>(now - mark).count();
  mark = now;
  return s;
}

/// A number per isomer: a column of results.csv, a key of summary.json's "metrics".
struct Metric {
  std::string_view name;
  double (*value)(const IsomerResult&);
};

constexpr std::array kMetrics{
    Metric{"iterations", [](const IsomerResult& r) { return static_cast<double>(r.iterations); }},
    Metric{"energy", [](const IsomerResult& r) { return r.properties.energy; }},
    Metric{"bond_rmsd", [](const IsomerResult& r) { return r.properties.bond_rmsd; }},
    Metric{"angle_rmsd", [](const IsomerResult& r) { return r.properties.angle_rmsd; }},
    Metric{"dihedral_rmsd", [](const IsomerResult& r) { return r.properties.dihedral_rmsd; }},
    Metric{"bond_rrmse", [](const IsomerResult& r) { return r.properties.bond_rrmse; }},
    Metric{"angle_rrmse", [](const IsomerResult& r) { return r.properties.angle_rrmse; }},
    Metric{"dihedral_rrmse", [](const IsomerResult& r) { return r.properties.dihedral_rrmse; }},
    Metric{"volume", [](const IsomerResult& r) { return r.properties.volume; }},
    Metric{"sphericity", [](const IsomerResult& r) { return r.properties.sphericity; }},
    Metric{"circumradius", [](const IsomerResult& r) { return r.properties.circumradius; }},
    Metric{"homo_lumo_gap", [](const IsomerResult& r) { return r.properties.homo_lumo_gap; }},
    Metric{"seconds", [](const IsomerResult& r) { return r.total_seconds(); }},
};

std::size_t metric_index(std::string_view name) {
  for (std::size_t m = 0; m < kMetrics.size(); ++m)
    if (kMetrics[m].name == name) return m;
  throw Error(fmt::format("no isomer metric '{}'", name));
}

/// A histogram PNG of summary.json: the named metrics, on a log10 axis.
struct Histogram {
  std::string_view file, title, xlabel;
  std::vector<std::string_view> metrics;
};

const std::vector<Histogram>& histograms() {
  static const std::vector<Histogram> plots{
      {"hist_bond_rmsd.png", "bond length RMS deviation", "log10(bond RMSD / A)", {"bond_rmsd"}},
      {"hist_angle_rmsd.png", "corner angle RMS deviation", "log10(angle RMSD / degree)", {"angle_rmsd"}},
      {"hist_dihedral_rmsd.png", "dihedral RMS deviation", "log10(dihedral RMSD / degree)", {"dihedral_rmsd"}},
      {"hist_rrmse.png", "relative RMS errors", "log10(RRMSE)", {"bond_rrmse", "angle_rrmse", "dihedral_rrmse"}},
  };
  return plots;
}

// --- rows travel between ranks as bytes: a fixed record, then the spiral ---

struct PackedRow {
  std::uint64_t index;
  std::int32_t atoms, status, iterations, spiral_length;
  IsomerProperties properties;
  StageSeconds seconds;
};
static_assert(std::is_trivially_copyable_v<PackedRow>);

void pack(const IsomerResult& r, std::string& out) {
  const PackedRow row{r.index,          r.atoms, static_cast<std::int32_t>(r.status), r.iterations,
                      static_cast<std::int32_t>(r.spiral.size()), r.properties, r.seconds};
  out.append(reinterpret_cast<const char*>(&row), sizeof row);
  out += r.spiral;
}

std::vector<IsomerResult> unpack(std::string_view bytes) {
  std::vector<IsomerResult> rows;
  while (!bytes.empty()) {
    PackedRow row;
    std::memcpy(&row, bytes.data(), sizeof row);
    bytes.remove_prefix(sizeof row);
    IsomerResult& r = rows.emplace_back();
    r.index = row.index;
    r.atoms = row.atoms;
    r.status = static_cast<IsomerStatus>(row.status);
    r.iterations = row.iterations;
    r.properties = row.properties;
    r.seconds = row.seconds;
    r.spiral = std::string(bytes.substr(0, static_cast<std::size_t>(row.spiral_length)));
    bytes.remove_prefix(static_cast<std::size_t>(row.spiral_length));
  }
  return rows;
}

/// On rank 0: the round's rows of every rank, in source order (rank k holds isomers k mod size).
/// Other ranks get none.
std::vector<IsomerResult> gather_rows(const analysis::Partition& part, const std::vector<OptimizedIsomer>& batch) {
  std::string bytes;
  for (const OptimizedIsomer& isomer : batch) pack(isomer.result, bytes);
  std::vector<std::vector<IsomerResult>> by_rank;
  for (const std::string& text : analysis::gather_text(part, bytes)) by_rank.push_back(unpack(text));
  std::vector<IsomerResult> rows;
  if (by_rank.empty()) return rows;
  for (std::size_t j = 0;; ++j) {
    auto& from = by_rank[j % by_rank.size()];
    if (j / by_rank.size() >= from.size()) break;
    rows.push_back(std::move(from[j / by_rank.size()]));
  }
  return rows;
}

// --- summary statistics ---

/// Linear interpolation between order statistics (numpy's default); `sorted` is not empty.
double percentile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

nlohmann::json statistics(const std::vector<double>& values) {
  std::vector<double> finite;
  for (double v : values)
    if (std::isfinite(v)) finite.push_back(v);
  nlohmann::json s{{"count", finite.size()}, {"non_finite", values.size() - finite.size()}};
  if (finite.empty()) return s;
  std::sort(finite.begin(), finite.end());
  double sum = 0;
  for (double v : finite) sum += v;
  s["mean"] = sum / static_cast<double>(finite.size());
  s["min"] = finite.front();
  s["p25"] = percentile(finite, 0.25);
  s["median"] = percentile(finite, 0.5);
  s["p75"] = percentile(finite, 0.75);
  s["p90"] = percentile(finite, 0.9);
  s["p99"] = percentile(finite, 0.99);
  s["max"] = finite.back();
  return s;
}

/// Writes plot.file under `dir` unless no value is positive and finite; whether it did.
bool write_histogram(const std::filesystem::path& dir, const Histogram& plot, const std::string& title_prefix,
                     const std::vector<std::vector<double>>& values) {
  constexpr int kBins = 40;
  std::vector<std::vector<double>> logs;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::string_view name : plot.metrics) {
    auto& l = logs.emplace_back();
    for (double v : values[metric_index(name)])
      if (std::isfinite(v) && v > 0) l.push_back(std::log10(v));
    for (double x : l) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  if (!(lo <= hi)) return false;
  if (hi - lo < 1e-9) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double width = (hi - lo) / kBins;
  core::PlotSpec spec;
  spec.title = title_prefix + std::string(plot.title);
  spec.xlabel = std::string(plot.xlabel);
  spec.ylabel = "isomers";
  spec.bars = true;
  for (std::size_t s = 0; s < logs.size(); ++s) {
    core::PlotSeries series;
    series.label = plot.metrics.size() > 1 ? std::string(plot.metrics[s]) : "";
    series.y.assign(kBins, 0.0);
    for (int b = 0; b < kBins; ++b) series.x.push_back(lo + (b + 0.5) * width);
    for (double x : logs[s]) series.y[std::min(kBins - 1, static_cast<int>((x - lo) / width))] += 1;
    spec.series.push_back(std::move(series));
  }
  core::write_plot_png(dir / plot.file, spec);
  return true;
}

/// Rank 0's share of run_isomerspace: the CSV as rows arrive, then the summary and the plots.
/// The rows are written on a thread of the report's own, so the thread that generates isomers
/// (and waits on the GPU) only hands them over: writing 200,000 C200 rows took 0.9 s of a 4.4 s
/// run on the GPU machine's generating thread. End to end that gained nothing measurable there,
/// its 16 cores being saturated (bench/RESULTS.md, issue 7 run 14), but a round's rows no longer
/// hold up the thread that feeds the GPU.
class Report {
 public:
  Report(const IsomerspaceOptions& options, std::uint64_t total, const std::string& space)
      : options_(options),
        csv_(options.out / "results.csv"),
        progress_("C" + std::to_string(options.atoms) + " isomerspace", static_cast<long>(total), "isomers"),
        values_(kMetrics.size()) {
    std::string header;
    for (const std::string& c : isomer_csv_columns()) header += (header.empty() ? "" : ",") + c;
    csv_.stream() << "# molstep fullerene isomerspace: " << space << '\n' << header << '\n';
    writer_ = std::thread([this] { write_loop(); });
  }
  Report(const Report&) = delete;
  Report& operator=(const Report&) = delete;
  ~Report() { stop_writer(); }

  /// Queues the rows for the writer; rethrows the writer's error, if it had one.
  void add(std::vector<IsomerResult> rows) {
    {
      const std::lock_guard lock(mutex_);
      if (error_) std::rethrow_exception(error_);
      pending_.push_back(std::move(rows));
    }
    wake_.notify_one();
  }

  /// Waits until every queued row is written; rethrows the writer's error, if it had one.
  void drain() {
    stop_writer();
    if (error_) std::rethrow_exception(error_);
  }

  /// After drain(): the summary and the plots.
  /// skip_seconds < 0: nothing was skipped.
  nlohmann::json finish(nlohmann::json summary, const StreamTimes& times, double count_seconds, double skip_seconds,
                        double wall) {
    drain();
    progress_.finish();
    csv_.commit();
    nlohmann::json status;
    for (std::size_t s = 0; s < kIsomerStatusNames.size(); ++s) status[std::string(kIsomerStatusNames[s])] = status_counts_[s];
    nlohmann::json metrics, stages;
    for (std::size_t m = 0; m < kMetrics.size(); ++m) metrics[std::string(kMetrics[m].name)] = statistics(values_[m]);
    for (std::size_t s = 0; s < kStageNames.size(); ++s) stages[std::string(kStageNames[s])] = stage_seconds_[s];
    summary["isomers"] = rows_;
    summary["status"] = status;
    summary["metrics"] = metrics;
    summary["seconds"] = {{"count", count_seconds},
                          {"generate", times.source},
                          {"pipeline", times.pipeline},
                          {"report", times.report},
                          {"setup", times.setup},
                          {"skip", skip_seconds < 0 ? nlohmann::json(nullptr) : nlohmann::json(skip_seconds)},
                          {"wall", wall},
                          {"stages", stages}};
    summary["isomers_per_second"] = wall > 0 ? static_cast<double>(rows_) / wall : 0.0;
    // The rate of the isomers kept, once the walk past the skipped ones (and the count) is over.
    const double after = wall - count_seconds - std::max(0.0, skip_seconds);
    summary["isomers_per_second_after_skip"] =
        skip_seconds < 0 ? nlohmann::json(nullptr) : nlohmann::json(after > 0 ? static_cast<double>(rows_) / after : 0.0);
    summary["line_search"] = options_.optimize.line_search == LineSearch::golden ? "golden" : "wolfe";
    if (options_.gpu.enabled) {
      const GpuPipelineTimes& g = times.gpu;
      nlohmann::json gpu_stages;
      for (std::size_t s = 1; s < kStageNames.size(); ++s) gpu_stages[std::string(kStageNames[s])] = g.gpu[s];
      summary["gpu"] = {{"precision", options_.gpu.single ? "single" : "double"},
                        {"slots", g.slots},
                        {"resident_blocks", g.resident_blocks},
                        {"rounds", g.rounds},
                        {"occupancy", g.rounds > 0 ? g.busy_slot_rounds / static_cast<double>(g.rounds) : 0.0},
                        {"stage_seconds", gpu_stages},
                        {"pipeline_wall", g.wall},
                        {"cpu_retries", g.cpu_retries}};
    }
    std::vector<std::string> files{"results.csv", "summary.json"};
    const std::string prefix = fmt::format("C{}{}: ", options_.atoms, options_.ipr ? " IPR" : "");
    for (const Histogram& plot : histograms())
      if (write_histogram(options_.out, plot, prefix, values_)) files.emplace_back(plot.file);
    summary["files"] = files;
    core::AtomicFile json(options_.out / "summary.json");
    json.stream() << summary.dump(2) << '\n';
    json.commit();
    return summary;
  }

 private:
  void write(const std::vector<IsomerResult>& rows) {
    for (const IsomerResult& r : rows) {
      csv_.stream() << isomer_csv_row(r) << '\n';
      ++status_counts_[static_cast<int>(r.status)];
      for (std::size_t m = 0; m < kMetrics.size(); ++m) values_[m].push_back(kMetrics[m].value(r));
      for (std::size_t s = 0; s < stage_seconds_.size(); ++s) stage_seconds_[s] += r.seconds[s];
    }
    rows_ += rows.size();
    progress_.update(static_cast<long>(rows_));
  }

  /// The writer: the queued rounds in order, until stop_writer() and the queue is empty (or the
  /// first error, which add() and finish() rethrow).
  void write_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return !pending_.empty() || closing_; });
      if (pending_.empty()) return;
      std::vector<IsomerResult> rows = std::move(pending_.front());
      pending_.pop_front();
      lock.unlock();
      try {
        write(rows);
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        pending_.clear();
        return;
      }
      lock.lock();
    }
  }

  void stop_writer() {
    if (!writer_.joinable()) return;
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_one();
    writer_.join();
  }

  const IsomerspaceOptions& options_;
  core::AtomicFile csv_;
  core::Progress progress_;
  std::vector<std::vector<double>> values_;
  std::array<std::uint64_t, kIsomerStatusNames.size()> status_counts_{};
  StageSeconds stage_seconds_{};
  std::uint64_t rows_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::vector<IsomerResult>> pending_;
  bool closing_ = false;
  std::exception_ptr error_;
  std::thread writer_;  ///< last: started once everything it uses is made
};

bool finite(const OptimizedIsomer& isomer) {
  if (!std::isfinite(isomer.result.properties.energy)) return false;
  for (const auto& p : isomer.positions)
    for (double c : p)
      if (!std::isfinite(c)) return false;
  return true;
}

/// g with atom k renamed (k - shift) mod N: the same fullerene, whose Tutte embedding then pins
/// another face (the face of atom `shift`'s first arc) as the outer one.
CubicGraph rotated(const CubicGraph& g, int shift) {
  const int n = g.size();
  CubicGraph r;
  r.adj.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < 3; ++j) r.adj[(k - shift + n) % n][j] = (g.adj[k][j] - shift + n) % n;
  return r;
}

}  // namespace

double IsomerResult::total_seconds() const {
  double s = 0;
  for (double t : seconds) s += t;
  return s;
}

OptimizedIsomer optimize_isomer(const Triangulation& dual, std::uint64_t index, const OptimizeOptions& options) {
  OptimizedIsomer out;
  IsomerResult& r = out.result;
  r.index = index;
  r.atoms = dual.atoms();
  auto mark = Clock::now();
  int stage = 0;
  const auto lap = [&] { r.seconds[stage++] = seconds_since(mark); };
  try {
    r.spiral = format_spiral(canonical_general_spiral(dual));
    lap();
    out.graph = dualize(dual);
    lap();
    // A start whose energy is not finite (atoms projected onto each other) is retried with
    // another outer face for the Tutte embedding: the atom numbering, not the isomer, chose the
    // first one. Converged and failed runs are never retried.
    OptimizeResult opt{};
    const int n = out.graph.size();
    for (const int shift : {0, n / 2, n / 4}) {
      const auto add_lap = [&](int s) { r.seconds[static_cast<std::size_t>(s)] += seconds_since(mark); };
      const CubicGraph g = shift == 0 ? out.graph : rotated(out.graph, shift);
      const auto layout = tutte_layout(g);
      add_lap(2);
      std::vector<std::array<double, 3>> x = spherical_projection(g, layout);
      add_lap(3);
      opt = optimize(g, x, options);
      out.positions.resize(x.size());
      for (int k = 0; k < n; ++k)
        out.positions[static_cast<std::size_t>(k)] = x[static_cast<std::size_t>((k - shift + n) % n)];
      add_lap(4);
      if (std::isfinite(opt.energy)) break;
    }
    r.iterations = opt.iterations;
    stage = 5;
    r.properties = isomer_properties(ForceField(out.graph, {.flatness = options.flatness}), out.positions);
    lap();
    r.status = !finite(out)                              ? IsomerStatus::invalid
               : opt.status == OptimizeStatus::converged ? IsomerStatus::converged
                                                         : IsomerStatus::failed;
  } catch (const Error& e) {
    throw Error(e.loc(), "isomer " + std::to_string(index) + ": " + e.message());
  }
  return out;
}

namespace {

using cuda::Todo;  // (index in the source, dual): what a round holds, on the CPU or the GPU

/// Isomers per rank and round on a GPU (StreamOptions::batch 0): the first round kFirstGpuRound,
/// each next one twice the last, up to kGpuRound. The GPU cannot start before the source has
/// generated a round, so a short first round starts it early, and the last one runs after the
/// source has ended, so rounds are not longer than needed. C200, first 200,000 on an H100,
/// three runs each, when rounds still drained the batch between them: rounds up to 2^16 gave
/// 34,000-35,000 isomers/s in double and 37,900-39,000 in single, up to 2^14 38,300-38,900 and
/// 40,700-42,100 (bench/RESULTS.md, issue 7 run 13).
constexpr std::size_t kFirstGpuRound = 1 << 12;
constexpr std::size_t kGpuRound = 1 << 14;

/// The CPU pipeline on `threads` threads: results[i] for todo[i].
void run_on_cpu(const Todo& todo, std::vector<OptimizedIsomer>& results, int threads, const OptimizeOptions& options) {
  const auto n = static_cast<long>(todo.size());
  results.assign(todo.size(), {});
  std::vector<std::exception_ptr> errors(todo.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (long i = 0; i < n; ++i) {
    try {
      results[i] = optimize_isomer(todo[i].second, todo[i].first, options);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

/// A round on the GPU: handed to the pipeline when made, driven there on a thread of its own
/// and, meanwhile, its canonical spirals on `threads` CPU threads. The next round is submitted
/// before this one is waited for, so its isomers fill the slots this one's last isomers leave;
/// and only the report needs the spirals, so the GPU does not wait for them. (Run one after the
/// other, the 14 rounds of a 4.3 s C200 job, 200,000 isomers, kept the GPU idle about 0.55 s:
/// 0.34 s between rounds, which included each run waiting for its spirals (not timed apart),
/// and 0.21 s staging each round's first isomers; bench/RESULTS.md, issue 7 run 15.) Held by
/// pointer: the threads use its members.
struct GpuRound {
  Todo todo;
  std::vector<OptimizedIsomer> results;
  std::vector<std::string> spirals;
  std::vector<double> spiral_seconds;
  std::future<void> run;  // the futures last: destroyed (waited for) before what they use
  std::future<void> cpu;

  GpuRound(Todo isomers, cuda::IsomerPipeline* pipeline, int threads)
      : todo(std::move(isomers)), spirals(todo.size()), spiral_seconds(todo.size()) {
    if (todo.empty()) return;
    const std::uint64_t ticket = pipeline->submit(todo, results);
    run = std::async(std::launch::async, [pipeline, ticket] { pipeline->drive(ticket); });
    cpu = std::async(std::launch::async, [this, threads] {
      const auto n = static_cast<long>(todo.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
      for (long i = 0; i < n; ++i) {
        auto mark = Clock::now();
        spirals[i] = format_spiral(canonical_general_spiral(todo[i].second));
        spiral_seconds[i] = seconds_since(mark);
      }
    });
  }
  /// Waits for the pipeline's run (rethrowing its error).
  void wait_run() {
    if (run.valid()) run.get();
  }
  /// After wait_run: waits for the spirals and returns the results with them.
  std::vector<OptimizedIsomer> finish() {
    if (cpu.valid()) cpu.get();
    for (std::size_t i = 0; i < results.size(); ++i)
      if (results[i].result.spiral.empty()) {  // not redone on the CPU
        results[i].result.spiral = std::move(spirals[i]);
        results[i].result.seconds[0] = spiral_seconds[i];
      }
    return std::move(results);
  }
};

}  // namespace

StreamTimes optimize_stream(const IsomerSource& source, const StreamOptions& options,
                            const std::function<void(std::vector<OptimizedIsomer>& batch)>& done) {
  const int threads = std::max(1, options.threads);
  const analysis::Partition& part = options.partition;
  std::unique_ptr<cuda::IsomerPipeline> gpu;  // needs the isomers' size: made at the first round,
  const int devices = options.gpu.enabled ? cuda::pipeline_devices() : 0;
  if (options.gpu.enabled && devices == 0)
    throw Error("--device cuda: no CUDA device is usable here (use --device cpu)");
  // or, when the size is known, on a thread of its own while the first round is generated (the
  // CUDA context and buffers take some 0.3 s).
  const auto make_pipeline = [&](int atoms) {
    return std::make_unique<cuda::IsomerPipeline>(atoms, options.optimize, options.gpu, threads, part.rank % devices);
  };
  std::future<std::unique_ptr<cuda::IsomerPipeline>> early;
  if (options.gpu.enabled && options.atoms > 0) early = std::async(std::launch::async, make_pipeline, options.atoms);
  // On a GPU, rounds of kFirstGpuRound growing to kGpuRound isomers per rank.
  const std::size_t batch = options.batch > 0      ? options.batch
                            : options.gpu.enabled ? kGpuRound
                                                  : 32 * static_cast<std::size_t>(threads);
  const bool growing = options.gpu.enabled && options.batch == 0;
  std::uint64_t round = (growing ? kFirstGpuRound : batch) * static_cast<std::uint64_t>(part.size);
  std::uint64_t round_end = round;  // the source position that ends the current round
  Todo todo;
  StreamTimes times;
  std::uint64_t position = 0;
  auto mark = Clock::now();
  // With a GPU, a round runs in the background while the source generates the next one.
  std::unique_ptr<GpuRound> running;  // declared last: destroyed (waited for) first
  // Waits for a round's run on the GPU (the wait counts as the pipeline's time).
  const auto wait_run = [&](GpuRound& r) {
    const auto wait = Clock::now();
    r.wait_run();
    times.pipeline += std::chrono::duration<double>(Clock::now() - wait).count();
  };
  const auto report = [&](std::vector<OptimizedIsomer>& results) {
    auto start = Clock::now();
    done(results);
    times.report += seconds_since(start);
  };
  // The round's spirals, then its rows (the wait for the spirals counts as the report's time).
  const auto report_round = [&](std::unique_ptr<GpuRound> r) {
    auto start = Clock::now();
    std::vector<OptimizedIsomer> results = r->finish();
    r.reset();
    times.report += seconds_since(start);
    report(results);
  };
  const auto finish_running = [&] {
    if (!running) return;
    wait_run(*running);
    report_round(std::move(running));
    mark = Clock::now();
  };
  const auto run_round = [&] {
    times.source += seconds_since(mark);
    if (options.gpu.enabled) {
      if (!gpu && (early.valid() || !todo.empty())) {
        auto start = Clock::now();
        gpu = early.valid() ? early.get() : make_pipeline(todo.front().second.atoms());
        times.setup += seconds_since(start);
      }
      // The previous round's results are handed to `done` (on this thread, which may talk MPI)
      // only once the GPU has the next round: it does not idle while they are written.
      std::unique_ptr<GpuRound> previous = std::move(running);
      running = std::make_unique<GpuRound>(std::move(todo), gpu.get(), threads);
      todo = Todo{};
      if (previous) {
        wait_run(*previous);
        report_round(std::move(previous));
      }
      mark = Clock::now();
      return;
    }
    std::vector<OptimizedIsomer> results;
    run_on_cpu(todo, results, threads, options.optimize);
    todo.clear();
    times.pipeline += seconds_since(mark);
    report(results);
    mark = Clock::now();
  };
  source([&](std::uint64_t index, const Triangulation& dual) {
    if (part.mine(position)) todo.emplace_back(index, dual);
    if (++position == round_end) {
      run_round();
      if (growing) round = std::min<std::uint64_t>(2 * round, batch * static_cast<std::uint64_t>(part.size));
      round_end += round;
    }
  });
  if (position != round_end - round) run_round();
  times.source += seconds_since(mark);
  finish_running();
  times.source += seconds_since(mark);
  if (gpu) times.gpu = gpu->times();
  return times;
}

std::vector<std::uint64_t> sample_indices(std::uint64_t population, std::uint64_t k, std::uint64_t seed) {
  std::vector<std::uint64_t> out;
  if (k >= population) {
    out.resize(population);
    for (std::uint64_t i = 0; i < population; ++i) out[i] = i;
    return out;
  }
  std::mt19937_64 rng(seed);
  // Uniform in [0, n) by rejection: drop the 2^64 mod n lowest outputs, then reduce mod n.
  const auto below = [&rng](std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    for (;;)
      if (const std::uint64_t r = rng(); r >= threshold) return r % n;
  };
  // Floyd: after the step for j, `chosen` is a uniform (j - (population - k) + 1)-subset of [0, j].
  std::unordered_set<std::uint64_t> chosen;
  chosen.reserve(static_cast<std::size_t>(k));
  for (std::uint64_t j = population - k; j < population; ++j)
    if (!chosen.insert(below(j + 1)).second) chosen.insert(j);
  out.assign(chosen.begin(), chosen.end());
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::string>& isomer_csv_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c{"index", "spiral", "atoms", "status"};
    for (const Metric& m : kMetrics) c.emplace_back(m.name);
    return c;
  }();
  return columns;
}

std::string isomer_csv_row(const IsomerResult& r) {
  // A spiral holds commas: quoted.
  std::string row = fmt::format("{},\"{}\",{},{}", r.index, r.spiral, r.atoms, status_name(r.status));
  for (const Metric& m : kMetrics) {
    row += ',';
    row += analysis::format_double(m.value(r));
  }
  return row;
}

nlohmann::json isomer_json(const IsomerResult& r) {
  nlohmann::json j{{"index", r.index}, {"spiral", r.spiral}, {"atoms", r.atoms}, {"status", status_name(r.status)}};
  for (const Metric& m : kMetrics) {
    const double v = m.value(r);
    j[std::string(m.name)] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  }
  for (std::size_t s = 0; s < kStageNames.size(); ++s) j["stage_seconds"][std::string(kStageNames[s])] = r.seconds[s];
  return j;
}

nlohmann::json run_isomerspace(const IsomerspaceOptions& options) {
  check_atom_count(options.atoms);
  const analysis::Partition& part = options.partition;
  auto start = Clock::now();
  // With a limit the space is not counted (that would generate all of it): the first `limit`
  // isomers of the generator's order are the work.
  const bool limited = options.limit > 0;
  const std::uint64_t skip = options.skip;
  if (limited && options.sample > 0) throw Error("isomerspace: --limit and --sample exclude each other");
  if (skip > 0 && options.sample > 0) throw Error("isomerspace: --skip and --sample exclude each other");
  const std::uint64_t population =
      limited ? 0 : count_isomers(options.atoms, options.ipr, std::max(1, options.threads));
  const double count_seconds = seconds_since(start);
  const bool sampling = options.sample > 0;
  const std::vector<std::uint64_t> sample =
      sampling ? sample_indices(population, options.sample, options.seed) : std::vector<std::uint64_t>{};
  const std::uint64_t total = limited    ? options.limit
                              : sampling ? sample.size()
                                         : population - std::min(skip, population);

  const std::string kind = options.ipr ? "IPR isomers" : "isomers";
  std::string space = limited && skip > 0 ? fmt::format("C{}, {} numbered {} to {}", options.atoms, kind, skip,
                                                        skip + total - 1)
                      : limited           ? fmt::format("C{}, first {} {}", options.atoms, total, kind)
                                          : fmt::format("C{}, {} {}", options.atoms, population, kind);
  if (!limited && skip > 0) space += fmt::format(", the first {} skipped", skip);
  if (sampling) space += fmt::format(", random sample of {} (seed {})", total, options.seed);
  nlohmann::json summary{{"atoms", options.atoms},
                         {"ipr", options.ipr},
                         {"isomers_in_space", limited ? nlohmann::json(nullptr) : nlohmann::json(population)},
                         {"limit", limited ? nlohmann::json(options.limit) : nlohmann::json(nullptr)},
                         {"skip", skip},
                         {"threads", std::max(1, options.threads)},
                         {"mpi_ranks", part.size}};
  summary["sample"] = sampling ? nlohmann::json{{"requested", options.sample}, {"seed", options.seed}, {"size", total}}
                               : nlohmann::json(nullptr);

  std::unique_ptr<Report> report;
  if (part.rank == 0) {
    std::error_code ec;
    std::filesystem::create_directories(options.out, ec);
    if (ec) throw Error(fmt::format("cannot create output folder '{}': {}", options.out.string(), ec.message()));
    report = std::make_unique<Report>(options, total, space);
  }
  // The walk past the skipped isomers: from the start of the stream to the first isomer kept.
  double skip_seconds = 0.0;
  const IsomerSource source = [&](const auto& take) {
    struct Enough {};  // the generator has no stop: a limit leaves its walk by unwinding
    std::uint64_t index = 0;
    auto next = sample.begin();
    const auto stream_start = Clock::now();
    const auto skipping = [&stream_start] { return std::chrono::duration<double>(Clock::now() - stream_start).count(); };
    try {
      // Generation on the run's threads, isomers in the generator's order (generate_in_order).
      generate_in_order(GeneratorOptions{options.atoms, options.ipr, 0, 1}, std::max(1, options.threads),
                        [&](const Triangulation& dual) {
                          const std::uint64_t i = index++;
                          if (i < skip) return;
                          if (i == skip && skip > 0) skip_seconds = skipping();
                          if (sampling) {
                            if (next == sample.end() || *next != i) return;
                            ++next;
                          }
                          take(i, dual);
                          if (limited && index == skip + options.limit) throw Enough{};
                        });
    } catch (const Enough&) {
    }
    if (skip > 0 && index <= skip) skip_seconds = skipping();  // nothing past the skip
  };
  const StreamTimes times = optimize_stream(
      source,
      StreamOptions{.threads = options.threads,
                    .atoms = options.atoms,
                    .optimize = options.optimize,
                    .partition = part,
                    .gpu = options.gpu},
      [&](std::vector<OptimizedIsomer>& batch) {
        std::vector<IsomerResult> rows = gather_rows(part, batch);
        if (report) report->add(std::move(rows));
      });
  if (!report) return nlohmann::json::object();
  report->drain();  // the rows still queued count in the wall time
  const double wall = count_seconds + seconds_since(start);
  return report->finish(std::move(summary), times, count_seconds, skip > 0 ? skip_seconds : -1.0, wall);
}

}  // namespace molstep::fullerene
