// SPDX-License-Identifier: MIT
#include "molstep/fullerene/ordered_generation.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

namespace {

// Tasks per worker that may be started before the caller reaches them: the workers run ahead of
// the caller by this much, and no more is held in memory.
constexpr std::size_t kTasksAheadPerWorker = 64;

struct Task;
/// A task's output, in order: isomers, and the nodes its expansion handed out, tasks of their own.
using Item = std::variant<Triangulation, std::unique_ptr<Task>>;

struct Task {
  Generator::Subtree node;
  std::vector<std::size_t> place;  // item numbers from the top: depth-first order is their order
  std::vector<Item> items;         // written by the worker that runs the task, read once done
  bool done = false;
};

/// The earliest task in depth-first order comes first.
struct Later {
  bool operator()(const Task* a, const Task* b) const { return a->place > b->place; }
};

// The state the workers and the consumer share, under `mu`.
struct Shared {
  std::mutex mu;
  std::condition_variable work;      // workers wait here
  std::condition_variable progress;  // the consumer waits here
  std::priority_queue<Task*, std::vector<Task*>, Later> pending;
  std::size_t ahead = 0;          // tasks started that the consumer has not reached
  const Task* awaited = nullptr;  // the task the consumer waits for: it may start whatever `ahead`
  bool stop = false;              // finished, or an error: everyone leaves
  std::exception_ptr error;       // the first error of a worker

  void fail(std::exception_ptr e) {
    std::lock_guard lock(mu);
    if (!error) error = std::move(e);
    stop = true;
    work.notify_all();
    progress.notify_all();
  }
};

std::unique_ptr<Task> make_task(const PlanarMap& root, int nauto, std::vector<std::size_t> place) {
  auto task = std::make_unique<Task>();
  task->node.root.copy_from(root);
  task->node.nauto = nauto;
  task->place = std::move(place);
  return task;
}

/// A worker: takes the earliest pending task the window allows, expands it, and publishes its
/// items and its subtasks at once.
void run_worker(Shared& s, const std::function<ExpandTask()>& make_expander, std::size_t window) {
  try {
    const ExpandTask expand = make_expander();
    std::unique_lock lock(s.mu);
    for (;;) {
      s.work.wait(lock,
                  [&] { return s.stop || (!s.pending.empty() && (s.ahead < window || s.pending.top() == s.awaited)); });
      if (s.stop) return;
      Task* task = s.pending.top();
      s.pending.pop();
      ++s.ahead;
      lock.unlock();
      std::vector<Item> items;
      expand(
          task->node, [&items](const PlanarMap& map) { items.emplace_back(as_triangulation(map)); },
          [&items, task](const PlanarMap& root, int nauto) {
            std::vector<std::size_t> place = task->place;
            place.push_back(items.size());
            items.emplace_back(make_task(root, nauto, std::move(place)));
          });
      lock.lock();
      const std::size_t had = s.pending.size();
      for (Item& item : items)
        if (auto* child = std::get_if<std::unique_ptr<Task>>(&item)) s.pending.push(child->get());
      task->items = std::move(items);
      task->done = true;
      // Wake-ups cost more than most tasks' bookkeeping: only those who can act now are woken.
      if (task == s.awaited) s.progress.notify_one();
      if (s.pending.size() > had) s.work.notify_all();
    }
  } catch (...) {
    s.fail(std::current_exception());
  }
}

}  // namespace

std::uint64_t expand_in_order(const std::vector<Generator::Subtree>& roots, int threads,
                              const std::function<ExpandTask()>& make_expander,
                              const std::function<void(const Triangulation&)>& sink) {
  Shared s;
  // The top of the task tree: done from the start, its items the roots.
  Task top;
  top.done = true;
  for (const Generator::Subtree& root : roots) {
    top.items.emplace_back(make_task(root.root, root.nauto, {top.items.size()}));
    s.pending.push(std::get<std::unique_ptr<Task>>(top.items.back()).get());
  }
  const std::size_t window = kTasksAheadPerWorker * static_cast<std::size_t>(std::max(1, threads));
  std::vector<std::thread> workers;
  for (int w = 0; w < std::max(1, threads); ++w)
    workers.emplace_back(run_worker, std::ref(s), std::cref(make_expander), window);
  std::uint64_t emitted = 0;
  std::exception_ptr sink_error;
  try {
    // Depth first through the task tree: each task on the path, with its next item.
    std::vector<std::pair<Task*, std::size_t>> path{{&top, 0}};
    while (!path.empty()) {
      auto& [task, next] = path.back();
      if (next == task->items.size()) {
        path.pop_back();
        if (!path.empty())  // the finished task goes
          std::get<std::unique_ptr<Task>>(path.back().first->items[path.back().second - 1]).reset();
        continue;
      }
      Item& item = task->items[next++];
      if (const auto* dual = std::get_if<Triangulation>(&item)) {
        sink(*dual);
        ++emitted;
        continue;
      }
      Task* child = std::get<std::unique_ptr<Task>>(item).get();
      {
        std::unique_lock lock(s.mu);
        if (s.stop) break;
        if (!child->done) {
          // Pending, it is the earliest pending task (everything before it has been emitted).
          s.awaited = child;
          s.work.notify_one();
          s.progress.wait(lock, [&] { return s.stop || child->done; });
          s.awaited = nullptr;
          if (s.stop) break;
        }
        if (s.ahead-- == window) s.work.notify_one();
      }
      path.emplace_back(child, 0);
    }
  } catch (...) {
    sink_error = std::current_exception();
  }
  {
    std::lock_guard lock(s.mu);
    s.stop = true;
    s.work.notify_all();
  }
  for (std::thread& w : workers) w.join();
  if (sink_error) std::rethrow_exception(sink_error);
  if (s.error) std::rethrow_exception(s.error);
  return emitted;
}

std::uint64_t generate_in_order(const GeneratorOptions& options, int threads,
                                const std::function<void(const Triangulation&)>& sink) {
  std::uint64_t emitted = 0;
  if (threads <= 1 || options.parts > 1) {
    Generator(options).run([&](const PlanarMap& map) {
      sink(as_triangulation(map));
      ++emitted;
    });
    return emitted;
  }
  const auto make_expander = [&options]() -> ExpandTask {
    auto generator = std::make_shared<Generator>(options);
    return [generator](const Generator::Subtree& task, const std::function<void(const PlanarMap&)>& isomer,
                       const Generator::Fork& fork) {
      generator->run_subtree(task, isomer, &fork, Generator::kTaskBudget);
    };
  };
  return expand_in_order(Generator(options).seeds(), threads, make_expander, sink);
}

}  // namespace molstep::fullerene
