// SPDX-License-Identifier: MIT
#include "molstep/analysis/stream.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "molstep/core/progress.hpp"

namespace molstep::analysis {

namespace {

/// A bounded, closable queue of frames between the reader thread and the compute thread.
class FrameQueue {
 public:
  explicit FrameQueue(std::size_t depth) : depth_(depth) {}
  /// False when the consumer has gone.
  bool put(core::Frame frame) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return frames_.size() < depth_ || cancelled_; });
    if (cancelled_) return false;
    frames_.push_back(std::move(frame));
    not_empty_.notify_one();
    return true;
  }
  /// False at the end of the stream.
  bool take(core::Frame& frame) {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !frames_.empty() || closed_; });
    if (frames_.empty()) return false;
    frame = std::move(frames_.front());
    frames_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
  }
  void cancel() {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    not_full_.notify_all();
  }

 private:
  std::size_t depth_;
  std::deque<core::Frame> frames_;
  bool closed_ = false, cancelled_ = false;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
};

}  // namespace

StreamStats run_stream(io::TrajectoryReader& reader, core::Frame first, Network& network, std::size_t queue_depth,
                       long max_frames) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  FrameQueue queue(queue_depth);
  std::exception_ptr reader_error;
  double read_seconds = 0;
  std::thread producer([&] {
    try {
      long read = 1;
      core::Frame frame;
      while (max_frames < 0 || read < max_frames) {
        const auto t0 = clock::now();
        if (!reader.next(frame)) break;
        read_seconds += std::chrono::duration<double>(clock::now() - t0).count();
        ++read;
        if (!queue.put(std::move(frame))) return;
        frame = core::Frame{};
      }
    } catch (...) {
      reader_error = std::current_exception();
    }
    queue.close();
  });
  StreamStats stats;
  core::Progress progress("analyze " + reader.path().filename().string(), -1, "frames");
  try {
    network.push(std::move(first));
    stats.frames = 1;
    core::Frame frame;
    while (queue.take(frame)) {
      network.push(std::move(frame));
      frame = core::Frame{};
      progress.update(static_cast<long>(++stats.frames));
    }
  } catch (...) {
    queue.cancel();
    producer.join();
    throw;
  }
  producer.join();
  progress.finish();
  if (reader_error) std::rethrow_exception(reader_error);
  stats.seconds = std::chrono::duration<double>(clock::now() - start).count();
  stats.read_seconds = read_seconds;
  return stats;
}

}  // namespace molstep::analysis
