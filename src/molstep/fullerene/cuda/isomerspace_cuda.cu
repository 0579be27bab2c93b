// SPDX-License-Identifier: MIT
#include "molstep/fullerene/cuda/isomerspace_cuda.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/graph_stages.cuh"
#include "molstep/fullerene/cuda/isomer_batch.cuh"
#include "molstep/fullerene/cuda/isomer_queue.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/fullerene/cuda/optimize_cuda.cuh"
#include "molstep/fullerene/cuda/properties_cuda.cuh"
#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/pinned_buffer.cuh"

namespace molstep::fullerene::cuda {
namespace {

using Clock = std::chrono::steady_clock;

/// The properties' entry of StageSeconds.
constexpr std::size_t kPropertiesStage = 5;
/// Slots per resident optimiser block when GpuOptions::slots is 0.
constexpr int kDefaultWaves = 4;
static_assert(kStageNames[kPropertiesStage] == "properties");

/// Finished slots leave the batch (after stash_kernel copied them out, on the same stream).
__global__ void release_kernel(std::int32_t* status, int slots) {
  const int slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < slots && finished(status[slot])) status[slot] = kEmpty;
}

/// One block per slot (grid-stride), one thread per atom: every finished slot (kConverged,
/// kFailed, kInvalid) takes the next position of the finished buffer `to` (atomicAdd on *count)
/// and copies there what the properties stage and the host read: status, id, iterations, the
/// cubic graph and the coordinates. Positions follow the atomics' order, which may vary from run
/// to run; results are keyed by id. A slot whose position is past `to`'s capacity copies nothing
/// (the host never lets that happen, and checks *count).
__global__ void stash_kernel(BatchView from, BatchView to, std::int32_t* count) {
  __shared__ int position;
  const int tid = static_cast<int>(threadIdx.x);
  for (int slot = static_cast<int>(blockIdx.x); slot < from.capacity; slot += static_cast<int>(gridDim.x)) {
    if (!finished(from.status[slot])) continue;  // block-uniform: no thread writes it here
    if (tid == 0) position = atomicAdd(count, 1);
    __syncthreads();
    const int p = position;
    __syncthreads();  // every thread has read it before the next slot's atomicAdd
    if (p >= to.capacity) continue;
    const std::size_t n3 = 3 * static_cast<std::size_t>(from.atoms);
    const std::size_t src = static_cast<std::size_t>(slot) * n3, dst = static_cast<std::size_t>(p) * n3;
    for (std::size_t i = static_cast<std::size_t>(tid); i < n3; i += blockDim.x) {
      to.cubic[dst + i] = from.cubic[src + i];
      to.x[dst + i] = from.x[src + i];
    }
    if (tid == 0) {
      to.id[p] = from.id[slot];
      to.iterations[p] = from.iterations[slot];
      to.status[p] = from.status[slot];
    }
  }
}

/// A CUDA event pair per stage, read after the round's synchronisation. Created on `device`:
/// an event recorded on a stream must belong to the stream's device (with one rank per GPU under
/// MPI, ranks past the first would otherwise record device 0's events on their own streams).
class StageEvents {
 public:
  explicit StageEvents(int device) {
    MOLSTEP_CUDA_CHECK(cudaSetDevice(device));
    for (cudaEvent_t& e : events_) MOLSTEP_CUDA_CHECK(cudaEventCreate(&e));
  }
  ~StageEvents() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  StageEvents(const StageEvents&) = delete;
  StageEvents& operator=(const StageEvents&) = delete;
  /// Marks the start of mark k (k = 0 .. kMarks-1) on `stream`.
  void record(int k, cudaStream_t stream) { MOLSTEP_CUDA_CHECK(cudaEventRecord(events_[k], stream)); }
  /// Seconds between marks k and k + 1.
  [[nodiscard]] double seconds(int k) const {
    float ms = 0;
    MOLSTEP_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[k], events_[k + 1]));
    return 1e-3 * ms;
  }
  /// 0-6: a round (refill, dualise, Tutte, projection, optimise, stash); 7-8: a properties flush.
  static constexpr int kMarks = 9;

 private:
  std::array<cudaEvent_t, kMarks> events_{};
};

}  // namespace

int pipeline_devices() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

struct IsomerPipeline::Impl {
  int atoms;
  int device;
  int threads;
  OptimizeOptions optimize;
  OptimiseSettings settings;
  int slots;
  int finished_capacity;  ///< D: positions of the finished buffer, at least slots
  cudaStream_t stream = nullptr;
  cudaEvent_t done_event = nullptr;  ///< wait_for_gpu's
  std::unique_ptr<DeviceBatch> batch;
  std::unique_ptr<DeviceBatch> finished_buffer;  ///< finished isomers awaiting the properties stage
  gpu::DeviceArray<std::int32_t> stashed_count;   ///< [1]: positions of finished_buffer taken
  std::unique_ptr<IsomerQueue> queue;
  std::unique_ptr<PropertiesStage> properties;
  StageEvents events;
  int queue_capacity;
  // Pinned staging: pushes in (a run's isomers, position by position), results out.
  gpu::PinnedBuffer<std::int32_t> push_dual;
  gpu::PinnedBuffer<std::uint8_t> push_degree;
  gpu::PinnedBuffer<std::uint64_t> push_id;
  gpu::PinnedBuffer<std::int32_t> out_status;  // per slot, every round
  gpu::PinnedBuffer<std::uint64_t> out_id;
  gpu::PinnedBuffer<std::int32_t> out_stashed;  // [1]: stashed_count, every round
  gpu::PinnedBuffer<std::int32_t> fin_status, fin_iterations;  // per buffer position, at a flush
  gpu::PinnedBuffer<std::uint64_t> fin_id;
  gpu::PinnedBuffer<IsomerProperties> fin_properties;
  gpu::PinnedBuffer<QueueCounters> counters;
  PipelineTimes times;

  Impl(int n, const OptimizeOptions& opt, const GpuOptions& gpu, int t, int dev)
      : atoms(n), device(dev), threads(std::max(1, t)), optimize(opt), events(dev) {
    if (pipeline_devices() == 0) throw Error("--device cuda: no CUDA device is usable here (use --device cpu)");
    if (n > 1024 - 32) throw Error("--device cuda: C" + std::to_string(n) + " needs more threads per block than a GPU has");
    MOLSTEP_CUDA_CHECK(cudaSetDevice(device));
    MOLSTEP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    MOLSTEP_CUDA_CHECK(cudaEventCreateWithFlags(&done_event, cudaEventBlockingSync | cudaEventDisableTiming));
    settings = OptimiseSettings{opt.max_iterations, gpu.chunk,   opt.gradient_tolerance, opt.bond_tolerance,
                                opt.flatness,       gpu.single,  opt.line_search};
    times.resident_blocks = optimise_resident_blocks(n, settings);
    // Four waves of slots by default: each round (a host round trip) then runs four blocks' worth
    // of isomers per resident block. C200, first 200,000 on an H100 in double: one wave (264
    // slots) 772 rounds, 38,400-42,100 isomers/s; four waves 198 rounds, 41,700-45,600; eight
    // waves 100 rounds, 40,500 (bench/RESULTS.md, issue 7 run 14).
    slots = gpu.slots > 0 ? gpu.slots : kDefaultWaves * times.resident_blocks;
    times.slots = slots;
    queue_capacity = gpu.queue > 0 ? gpu.queue : 4 * slots;
    finished_capacity = gpu.finished_capacity > 0 ? std::max(gpu.finished_capacity, slots) : 8 * slots;
    batch = std::make_unique<DeviceBatch>(n, slots);
    queue = std::make_unique<IsomerQueue>(n, queue_capacity);
    finished_buffer = std::make_unique<DeviceBatch>(n, finished_capacity, false);
    stashed_count.resize(1);
    stashed_count.zero();
    properties = std::make_unique<PropertiesStage>(n, finished_capacity, opt.flatness);
    const auto s = static_cast<std::size_t>(slots);
    out_status.resize(s);
    out_id.resize(s);
    out_stashed.resize(1);
    const auto d = static_cast<std::size_t>(finished_capacity);
    fin_status.resize(d);
    fin_iterations.resize(d);
    fin_id.resize(d);
    fin_properties.resize(d);
    counters.resize(1);
    counters[0] = QueueCounters{};
  }
  ~Impl() {
    if (done_event) cudaEventDestroy(done_event);
    if (stream) cudaStreamDestroy(stream);
  }

  /// Waits for the stream's work so far, asleep rather than spinning: the CPU threads generating
  /// the next round need every core.
  void wait_for_gpu() {
    MOLSTEP_CUDA_CHECK(cudaEventRecord(done_event, stream));
    MOLSTEP_CUDA_CHECK(cudaEventSynchronize(done_event));
  }

  void run(const std::vector<std::pair<std::uint64_t, Triangulation>>& todo, std::vector<OptimizedIsomer>& results) {
    const auto start = Clock::now();
    MOLSTEP_CUDA_CHECK(cudaSetDevice(device));
    const std::size_t n = todo.size();
    results.assign(n, {});
    const BatchView& b = batch->view();
    const BatchView& fin = finished_buffer->view();
    const std::size_t faces = static_cast<std::size_t>(b.faces);
    const std::int64_t taken_before = counters[0].taken;
    std::size_t pushed = 0, finished_count = 0, emitted = 0;
    std::vector<std::size_t> redo;  // non-finite on the GPU: the CPU pipeline decides
    // Isomers in the batch (taken from the queue, not yet finished), each with its share of the
    // GPU time of the rounds it spent there, and of the properties flush that covered it.
    std::vector<StageSeconds> share(n, StageSeconds{});
    std::vector<char> done(n, 0);        // has left the batch (finished and stashed)
    std::vector<char> has_result(n, 0);  // has its result from a flush
    std::vector<std::size_t> inflight;
    std::size_t taken = 0;  // todo entries moved into the batch so far (FIFO: todo[0, taken))
    // The isomers' duals go to the pinned staging ahead of their push, while the GPU runs a
    // round: copied at the push itself, they kept the GPU idle for 0.21 s of a 3.7 s C200 run
    // (200,000 isomers, 198 rounds; bench/RESULTS.md, issue 7 run 15).
    static_assert(sizeof(int) == sizeof(std::int32_t));
    push_dual.resize(n * faces * 6);
    push_degree.resize(n * faces);
    push_id.resize(n);
    std::size_t staged = 0;  // todo[0, staged) are in the staging
    const auto stage = [&](std::size_t end) {
      for (; staged < std::min(end, n); ++staged) {
        const Triangulation& t = todo[staged].second;
        if (t.adj.size() != faces || t.degree.size() != faces)
          throw Error("GPU isomer pipeline: isomer " + std::to_string(todo[staged].first) + " has " +
                      std::to_string(t.adj.size()) + " faces, not " + std::to_string(faces));
        std::memcpy(push_dual.data() + staged * faces * 6, t.adj.data(), faces * 6 * sizeof(std::int32_t));
        std::memcpy(push_degree.data() + staged * faces, t.degree.data(), faces);
        push_id[staged] = staged;  // the position in todo
      }
    };
    // A batch's worth before the first round (the GPU waits for it), the rest while it works.
    const auto queue_room = static_cast<std::size_t>(queue_capacity);
    stage(static_cast<std::size_t>(slots));
    int stashed = 0;        // positions of the finished buffer taken: the device's stashed_count

    // The properties stage on the finished buffer, then the results of its `stashed` isomers
    // (what the per-slot reading did before batching); the stage's GPU time is shared by those
    // isomers. Leaves the buffer empty: positions [0, stashed) kEmpty again, the count 0.
    const auto flush = [&] {
      const auto c = static_cast<std::size_t>(stashed);
      events.record(7, stream);
      properties->launch(fin, stream);
      events.record(8, stream);
      MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(fin_status.data(), fin.status, c * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream));
      MOLSTEP_CUDA_CHECK(
          cudaMemcpyAsync(fin_iterations.data(), fin.iterations, c * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream));
      MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(fin_id.data(), fin.id, c * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
      MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(fin_properties.data(), fin.properties, c * sizeof(IsomerProperties),
                                         cudaMemcpyDeviceToHost, stream));
      MOLSTEP_CUDA_CHECK(cudaMemsetAsync(fin.status, 0, c * sizeof(std::int32_t), stream));  // kEmpty
      MOLSTEP_CUDA_CHECK(cudaMemsetAsync(stashed_count.data(), 0, sizeof(std::int32_t), stream));
      wait_for_gpu();

      const double seconds = events.seconds(7);
      times.gpu[kPropertiesStage] += seconds;
      for (std::size_t p = 0; p < c; ++p) {
        const std::int32_t status = fin_status[p];
        const std::size_t i = static_cast<std::size_t>(fin_id[p]);
        if (!finished(status) || i >= n || done[i] == 0 || has_result[i] != 0)
          throw Error("GPU isomer pipeline: the finished buffer's position " + std::to_string(p) +
                      " does not hold a finished isomer not yet read");
        has_result[i] = 1;
        ++emitted;
        share[i][kPropertiesStage] += seconds / static_cast<double>(c);
        if (status == kInvalid) {
          redo.push_back(i);
          continue;
        }
        IsomerResult& r = results[i].result;
        r.index = todo[i].first;
        r.atoms = atoms;
        r.status = status == kConverged ? IsomerStatus::converged : IsomerStatus::failed;
        r.iterations = fin_iterations[p];
        r.properties = fin_properties[p];
      }
      stashed = 0;
    };

    while (finished_count < n) {
      // Push what the queue has room for.
      const std::int64_t waiting = queue->pushed() - counters[0].taken;
      const std::size_t room = static_cast<std::size_t>(queue->capacity() - waiting);
      if (staged == pushed) stage(pushed + static_cast<std::size_t>(slots));  // normally staged during the last wait
      const std::size_t count = std::min(room, staged - pushed);
      if (count > 0)
        queue->push(push_dual.data() + pushed * faces * 6, push_degree.data() + pushed * faces, push_id.data() + pushed,
                    static_cast<int>(count), stream);
      pushed += count;

      events.record(0, stream);
      queue->refill(b, stream);
      events.record(1, stream);
      launch_dualize(b, stream);
      events.record(2, stream);
      launch_tutte(b, stream);
      events.record(3, stream);
      launch_projection(b, stream);
      events.record(4, stream);
      launch_optimise(b, settings, stream);
      events.record(5, stream);
      // Every slot finished in this round moves to the finished buffer (which has room for a
      // whole batch: stashed + slots <= finished_capacity here), then leaves the batch.
      const int threads = b.threads_per_block();
      stash_kernel<<<gpu::resident_grid(stash_kernel, threads, 0, static_cast<std::size_t>(b.capacity)), threads, 0,
                     stream>>>(b, fin, stashed_count.data());
      MOLSTEP_CUDA_CHECK(cudaGetLastError());
      events.record(6, stream);
      const auto s = static_cast<std::size_t>(b.capacity);
      MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(out_status.data(), b.status, s * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream));
      MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(out_id.data(), b.id, s * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
      MOLSTEP_CUDA_CHECK(
          cudaMemcpyAsync(out_stashed.data(), stashed_count.data(), sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream));
      release_kernel<<<(b.capacity + 127) / 128, 128, 0, stream>>>(b.status, b.capacity);
      MOLSTEP_CUDA_CHECK(cudaGetLastError());
      queue->read_counters(counters.data(), stream);
      // The next push takes at most the queue's capacity: staged while the GPU works.
      stage(pushed + queue_room);
      wait_for_gpu();

      // Time per stage this round, shared by the isomers in the batch during it: those taken
      // from the queue before or in this round and not finished before it. The properties entry
      // is the stash's here; a flush adds the properties stage's own time to its isomers.
      const std::size_t now_taken = static_cast<std::size_t>(counters[0].taken - taken_before);
      for (; taken < now_taken; ++taken) inflight.push_back(taken);
      StageSeconds round{};
      round[1] = events.seconds(1) + events.seconds(0);  // dualise (incl. the refill from the queue)
      round[2] = events.seconds(2);
      round[3] = events.seconds(3);
      round[4] = events.seconds(4);
      round[5] = events.seconds(5);  // the stash into the finished buffer
      for (int k = 1; k < 6; ++k) times.gpu[static_cast<std::size_t>(k)] += round[static_cast<std::size_t>(k)];
      times.busy_slot_rounds += static_cast<double>(inflight.size()) / slots;
      ++times.rounds;
      for (const std::size_t i : inflight)
        for (int k = 1; k < 6; ++k)
          share[i][static_cast<std::size_t>(k)] += round[static_cast<std::size_t>(k)] / static_cast<double>(inflight.size());

      int finished_now = 0;
      for (std::size_t slot = 0; slot < s; ++slot) {
        if (!finished(out_status[slot])) continue;
        const std::size_t i = static_cast<std::size_t>(out_id[slot]);
        if (i >= n || done[i] != 0)
          throw Error("GPU isomer pipeline: slot " + std::to_string(slot) + " finished an isomer twice");
        done[i] = 1;
        ++finished_count;
        ++finished_now;
      }
      if (out_stashed[0] != stashed + finished_now || out_stashed[0] > finished_capacity)
        throw Error("GPU isomer pipeline: " + std::to_string(out_stashed[0]) + " isomers in the finished buffer, " +
                    std::to_string(stashed + finished_now) + " expected");
      stashed = out_stashed[0];
      std::erase_if(inflight, [&](std::size_t i) { return done[i] != 0; });

      // Properties in batches: when the buffer could not take another round's finished isomers,
      // or when the last isomer has finished.
      if (stashed > 0 && (stashed + slots > finished_capacity || finished_count == n)) flush();
    }
    if (emitted != n)
      throw Error("GPU isomer pipeline: " + std::to_string(emitted) + " results for " + std::to_string(n) + " isomers");
    for (std::size_t i = 0; i < n; ++i) results[i].result.seconds = share[i];
    std::sort(redo.begin(), redo.end());  // flushes list isomers in the atomics' order
    for (const std::size_t i : redo) results[i] = optimize_isomer(todo[i].second, todo[i].first, optimize);
    times.cpu_retries += redo.size();
    times.wall += std::chrono::duration<double>(Clock::now() - start).count();
  }
};

IsomerPipeline::IsomerPipeline(int atoms, const OptimizeOptions& optimize, const GpuOptions& gpu, int threads,
                               int device)
    : impl_(std::make_unique<Impl>(atoms, optimize, gpu, threads, device)) {}
IsomerPipeline::~IsomerPipeline() = default;

void IsomerPipeline::run(const std::vector<std::pair<std::uint64_t, Triangulation>>& todo,
                         std::vector<OptimizedIsomer>& results) {
  impl_->run(todo, results);
}

const PipelineTimes& IsomerPipeline::times() const { return impl_->times; }

}  // namespace molstep::fullerene::cuda
