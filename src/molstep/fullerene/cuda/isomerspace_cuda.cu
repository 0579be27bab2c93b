// SPDX-License-Identifier: MIT
#include "molstep/fullerene/cuda/isomerspace_cuda.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
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
  // Pinned staging: pushes in (a ring indexed by sequence number, see drive_round), results out.
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

  /// A submitted round: its isomers have the consecutive sequence numbers [first, first + n)
  /// (what the queue and the batch carry as ids), in submission order.
  struct Round {
    const Todo* todo = nullptr;
    std::vector<OptimizedIsomer>* results = nullptr;
    std::uint64_t ticket = 0;  // submit()'s count of rounds: unique even for empty rounds
    std::uint64_t first = 0;
    std::size_t n = 0;
    std::vector<StageSeconds> share;  // each isomer's share of the GPU time of its rounds and flush
    std::vector<char> done;           // has left the batch (finished and stashed)
    std::vector<char> has_result;     // has its result from a flush
    std::vector<std::size_t> redo;    // non-finite on the GPU: the CPU pipeline decides
    std::size_t finished = 0, emitted = 0;
  };
  std::mutex submit_mutex;  // guards rounds and submitted
  std::deque<std::unique_ptr<Round>> rounds;  // submitted, not yet returned by drive()
  std::uint64_t submitted = 0;                // sequence numbers handed out
  std::uint64_t tickets = 0;                  // rounds submitted
  std::mutex drive_mutex;                     // one drive() at a time
  bool failed = false;                        // a drive() threw: the state is not trusted
  // The driving state, kept between drive() calls (under drive_mutex).
  std::uint64_t staged = 0, pushed = 0;  // sequence numbers [0, staged) staged, [0, pushed) pushed
  std::uint64_t taken = 0;               // moved from the queue into the batch (FIFO)
  std::vector<std::uint64_t> inflight;   // in the batch: taken, not finished
  int stashed = 0;                       // positions of the finished buffer taken: the device's stashed_count
  std::size_t ring = 0;                  // staging positions: sequence number s sits at s % ring

  std::uint64_t submit(const Todo& todo, std::vector<OptimizedIsomer>& results) {
    auto r = std::make_unique<Round>();
    r->todo = &todo;
    r->results = &results;
    r->n = todo.size();
    results.assign(r->n, {});
    r->share.assign(r->n, StageSeconds{});
    r->done.assign(r->n, 0);
    r->has_result.assign(r->n, 0);
    const std::lock_guard lock(submit_mutex);
    r->first = submitted;
    submitted += r->n;
    r->ticket = tickets++;
    const std::uint64_t ticket = r->ticket;
    rounds.push_back(std::move(r));
    return ticket;
  }

  /// The submitted round holding sequence number s (nullptr: none), under submit_mutex.
  Round* round_of(std::uint64_t s) {
    const std::lock_guard lock(submit_mutex);
    for (auto& r : rounds)
      if (s >= r->first && s < r->first + r->n) return r.get();
    return nullptr;
  }
  /// The round holding sequence number s: `hint` when it does (lookups mostly run in order), else
  /// round_of(s). A round stays in place until drive_round() removes it, after its lookups.
  Round* holding(std::uint64_t s, Round* hint) {
    return hint != nullptr && s >= hint->first && s < hint->first + hint->n ? hint : round_of(s);
  }
  Round* round_at(std::uint64_t ticket) {
    const std::lock_guard lock(submit_mutex);
    for (auto& r : rounds)
      if (r->ticket == ticket) return r.get();
    return nullptr;
  }

  void drive(std::uint64_t ticket) {
    const std::lock_guard drive_lock(drive_mutex);
    if (failed) throw Error("GPU isomer pipeline: an earlier round failed");
    try {
      drive_round(ticket);
    } catch (...) {
      failed = true;
      throw;
    }
  }

  /// Runs rounds of the batch, taking in every submitted isomer as room allows (so the rounds
  /// after `ticket` join the batch while its last isomers finish), until the round `ticket` has
  /// all its results; then its CPU retries, and it leaves the list.
  void drive_round(std::uint64_t ticket) {
    const auto start = Clock::now();
    MOLSTEP_CUDA_CHECK(cudaSetDevice(device));
    Round* const mine = round_at(ticket);
    if (mine == nullptr) throw Error("GPU isomer pipeline: no round " + std::to_string(ticket) + " to drive");
    const BatchView& b = batch->view();
    const BatchView& fin = finished_buffer->view();
    const std::size_t faces = static_cast<std::size_t>(b.faces);
    const auto queue_room = static_cast<std::size_t>(queue_capacity);
    // The isomers' duals go to the pinned staging ahead of their push, while the GPU runs a
    // round: copied at the push itself, they kept the GPU idle for 0.21 s of a 3.7 s C200 run
    // (200,000 isomers, 198 rounds; bench/RESULTS.md, issue 7 run 15). The staging is a ring
    // with room for the pushes in flight and the next ones.
    static_assert(sizeof(int) == sizeof(std::int32_t));
    if (ring == 0) {
      ring = 2 * queue_room + static_cast<std::size_t>(slots);
      push_dual.resize(ring * faces * 6);
      push_degree.resize(ring * faces);
      push_id.resize(ring);
    }
    const auto stage = [&](std::uint64_t end) {
      std::uint64_t limit = 0;
      {
        const std::lock_guard lock(submit_mutex);
        limit = submitted;
      }
      end = std::min(end, limit);
      Round* r = nullptr;
      for (; staged < end; ++staged) {
        r = holding(staged, r);
        if (r == nullptr) throw Error("GPU isomer pipeline: no submitted round holds isomer " + std::to_string(staged));
        const auto& [index, t] = (*r->todo)[static_cast<std::size_t>(staged - r->first)];
        if (t.adj.size() != faces || t.degree.size() != faces)
          throw Error("GPU isomer pipeline: isomer " + std::to_string(index) + " has " + std::to_string(t.adj.size()) +
                      " faces, not " + std::to_string(faces));
        const std::size_t at = static_cast<std::size_t>(staged % ring);
        std::memcpy(push_dual.data() + at * faces * 6, t.adj.data(), faces * 6 * sizeof(std::int32_t));
        std::memcpy(push_degree.data() + at * faces, t.degree.data(), faces);
        push_id[at] = staged;
      }
    };

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
      Round* r = nullptr;
      for (std::size_t p = 0; p < c; ++p) {
        const std::int32_t status = fin_status[p];
        r = holding(fin_id[p], r);
        const std::size_t i = r == nullptr ? 0 : static_cast<std::size_t>(fin_id[p] - r->first);
        if (!finished(status) || r == nullptr || r->done[i] == 0 || r->has_result[i] != 0)
          throw Error("GPU isomer pipeline: the finished buffer's position " + std::to_string(p) +
                      " does not hold a finished isomer not yet read");
        r->has_result[i] = 1;
        ++r->emitted;
        r->share[i][kPropertiesStage] += seconds / static_cast<double>(c);
        if (status == kInvalid) {
          r->redo.push_back(i);
          continue;
        }
        IsomerResult& result = (*r->results)[i].result;
        result.index = (*r->todo)[i].first;
        result.atoms = atoms;
        result.status = status == kConverged ? IsomerStatus::converged : IsomerStatus::failed;
        result.iterations = fin_iterations[p];
        result.properties = fin_properties[p];
      }
      stashed = 0;
    };

    stage(pushed + static_cast<std::size_t>(slots));  // a batch's worth before the first push
    while (mine->emitted < mine->n) {
      // The round's last isomers have finished: their properties, not another round.
      if (mine->finished == mine->n) {
        if (stashed == 0)
          throw Error("GPU isomer pipeline: " + std::to_string(mine->n - mine->emitted) +
                      " finished isomers are not in the finished buffer");
        flush();
        continue;
      }
      // Push what the queue has room for.
      const std::int64_t waiting = queue->pushed() - counters[0].taken;
      const std::size_t room = static_cast<std::size_t>(queue->capacity() - waiting);
      if (staged == pushed) stage(pushed + static_cast<std::size_t>(slots));  // normally staged during the last wait
      std::size_t count = std::min<std::size_t>(room, static_cast<std::size_t>(staged - pushed));
      while (count > 0) {  // contiguous pieces of the ring
        const std::size_t at = static_cast<std::size_t>(pushed % ring);
        const std::size_t piece = std::min(count, ring - at);
        queue->push(push_dual.data() + at * faces * 6, push_degree.data() + at * faces, push_id.data() + at,
                    static_cast<int>(piece), stream);
        pushed += piece;
        count -= piece;
      }

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
      for (; taken < static_cast<std::uint64_t>(counters[0].taken); ++taken) inflight.push_back(taken);
      StageSeconds round{};
      round[1] = events.seconds(1) + events.seconds(0);  // dualise (incl. the refill from the queue)
      round[2] = events.seconds(2);
      round[3] = events.seconds(3);
      round[4] = events.seconds(4);
      round[5] = events.seconds(5);  // the stash into the finished buffer
      for (int k = 1; k < 6; ++k) times.gpu[static_cast<std::size_t>(k)] += round[static_cast<std::size_t>(k)];
      times.busy_slot_rounds += static_cast<double>(inflight.size()) / slots;
      ++times.rounds;
      {
        Round* r = nullptr;
        for (const std::uint64_t id : inflight) {
          r = holding(id, r);
          const auto i = static_cast<std::size_t>(id - r->first);
          for (int k = 1; k < 6; ++k)
            r->share[i][static_cast<std::size_t>(k)] += round[static_cast<std::size_t>(k)] / static_cast<double>(inflight.size());
        }
      }

      int finished_now = 0;
      Round* last = nullptr;
      for (std::size_t slot = 0; slot < s; ++slot) {
        if (!finished(out_status[slot])) continue;
        Round* const r = last = holding(out_id[slot], last);
        const std::size_t i = r == nullptr ? 0 : static_cast<std::size_t>(out_id[slot] - r->first);
        if (r == nullptr || r->done[i] != 0)
          throw Error("GPU isomer pipeline: slot " + std::to_string(slot) + " finished an isomer twice");
        r->done[i] = 1;
        ++r->finished;
        ++finished_now;
      }
      if (out_stashed[0] != stashed + finished_now || out_stashed[0] > finished_capacity)
        throw Error("GPU isomer pipeline: " + std::to_string(out_stashed[0]) + " isomers in the finished buffer, " +
                    std::to_string(stashed + finished_now) + " expected");
      stashed = out_stashed[0];
      std::erase_if(inflight, [&](std::uint64_t id) {
        last = holding(id, last);
        return last->done[static_cast<std::size_t>(id - last->first)] != 0;
      });

      // Properties in batches: when the buffer could not take another round's finished
      // isomers (or, at the loop's top, when this round's last isomer has finished).
      if (stashed > 0 && stashed + slots > finished_capacity) flush();
    }
    std::vector<OptimizedIsomer>& results = *mine->results;
    for (std::size_t i = 0; i < mine->n; ++i) results[i].result.seconds = mine->share[i];
    std::sort(mine->redo.begin(), mine->redo.end());  // flushes list isomers in the atomics' order
    for (const std::size_t i : mine->redo) results[i] = optimize_isomer((*mine->todo)[i].second, (*mine->todo)[i].first, optimize);
    times.cpu_retries += mine->redo.size();
    {
      const std::lock_guard lock(submit_mutex);
      std::erase_if(rounds, [mine](const std::unique_ptr<Round>& r) { return r.get() == mine; });
    }
    times.wall += std::chrono::duration<double>(Clock::now() - start).count();
  }
};

IsomerPipeline::IsomerPipeline(int atoms, const OptimizeOptions& optimize, const GpuOptions& gpu, int threads,
                               int device)
    : impl_(std::make_unique<Impl>(atoms, optimize, gpu, threads, device)) {}
IsomerPipeline::~IsomerPipeline() = default;

void IsomerPipeline::run(const Todo& todo, std::vector<OptimizedIsomer>& results) {
  impl_->drive(impl_->submit(todo, results));
}

std::uint64_t IsomerPipeline::submit(const Todo& todo, std::vector<OptimizedIsomer>& results) {
  return impl_->submit(todo, results);
}

void IsomerPipeline::drive(std::uint64_t ticket) { impl_->drive(ticket); }

const PipelineTimes& IsomerPipeline::times() const { return impl_->times; }

}  // namespace molstep::fullerene::cuda
