// SPDX-License-Identifier: MIT
#include "molstep/fullerene/ordered_generation.hpp"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

namespace {

struct Stopped {};  // unwinds the walker's search once the consumer has stopped

// The state the walker, the workers and the consumer share, under `mu`.
struct Shared {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::pair<std::uint64_t, Generator::Subtree>> jobs;  // (place in the walk, subtree)
  std::map<std::uint64_t, std::vector<Triangulation>> ready;     // generated, not yet emitted
  std::uint64_t handed = 0;  // subtrees the walker has handed out
  std::uint64_t next = 0;    // the next subtree to emit
  bool walked = false;       // the walker has met every subtree
  bool stop = false;         // finished, or an error: everyone leaves
  std::exception_ptr error;  // the first error of the walker or a worker

  void fail(std::exception_ptr e) {
    std::lock_guard lock(mu);
    if (!error) error = std::move(e);
    stop = true;
    cv.notify_all();
  }
};

}  // namespace

std::uint64_t generate_in_order(const GeneratorOptions& options, int threads,
                                const std::function<void(const Triangulation&)>& sink) {
  std::uint64_t emitted = 0;
  if (threads <= 1) {
    Generator(options).run([&](const PlanarMap& map) {
      sink(as_triangulation(map));
      ++emitted;
    });
    return emitted;
  }
  const auto window = 4 * static_cast<std::uint64_t>(threads);
  Shared s;
  std::thread walker([&] {
    try {
      Generator(options).for_each_subtree([&](const Generator::Subtree& subtree) {
        std::unique_lock lock(s.mu);
        s.cv.wait(lock, [&] { return s.stop || s.handed - s.next < window; });
        if (s.stop) throw Stopped{};
        s.jobs.emplace_back(s.handed++, subtree);
        s.cv.notify_all();
      });
    } catch (const Stopped&) {
    } catch (...) {
      s.fail(std::current_exception());
    }
    std::lock_guard lock(s.mu);
    s.walked = true;
    s.cv.notify_all();
  });
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w)
    workers.emplace_back([&] {
      Generator generator(options);
      for (;;) {
        std::pair<std::uint64_t, Generator::Subtree> job;
        {
          std::unique_lock lock(s.mu);
          s.cv.wait(lock, [&] { return s.stop || !s.jobs.empty() || s.walked; });
          if (s.stop || s.jobs.empty()) return;
          job = std::move(s.jobs.front());
          s.jobs.pop_front();
        }
        std::vector<Triangulation> duals;
        try {
          generator.run_subtree(job.second, [&](const PlanarMap& map) { duals.push_back(as_triangulation(map)); });
        } catch (...) {
          s.fail(std::current_exception());
          return;
        }
        std::lock_guard lock(s.mu);
        s.ready.emplace(job.first, std::move(duals));
        s.cv.notify_all();
      }
    });
  std::exception_ptr sink_error;
  for (;;) {
    std::vector<Triangulation> duals;
    {
      std::unique_lock lock(s.mu);
      s.cv.wait(lock, [&] { return s.stop || s.ready.contains(s.next) || (s.walked && s.next == s.handed); });
      const auto it = s.ready.find(s.next);
      if (s.stop || it == s.ready.end()) break;
      duals = std::move(it->second);
      s.ready.erase(it);
      ++s.next;
      s.cv.notify_all();
    }
    try {
      for (const Triangulation& dual : duals) {
        sink(dual);
        ++emitted;
      }
    } catch (...) {
      sink_error = std::current_exception();
      break;
    }
  }
  {
    std::lock_guard lock(s.mu);
    s.stop = true;
    s.cv.notify_all();
  }
  walker.join();
  for (std::thread& w : workers) w.join();
  if (sink_error) std::rethrow_exception(sink_error);
  if (s.error) std::rethrow_exception(s.error);
  return emitted;
}

}  // namespace molstep::fullerene
