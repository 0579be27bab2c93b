// SPDX-License-Identifier: MIT
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ordered_generation.hpp"

namespace molstep::fullerene {
namespace {

struct Enough {};  // what a sink throws to stop generation, as a limit does

/// The first `limit` isomers (all when 0) of run(), as duals.
std::vector<Triangulation> serial_duals(const GeneratorOptions& options, std::size_t limit = 0) {
  std::vector<Triangulation> duals;
  try {
    Generator(options).run([&](const PlanarMap& m) {
      duals.push_back(as_triangulation(m));
      if (duals.size() == limit) throw Enough{};
    });
  } catch (const Enough&) {
  }
  return duals;
}

/// Runs `generate` with a sink that compares each dual with `expected` (same labelling, same
/// place) and stops after expected.size() of them when `stop` is set.
template <class Generate>
void expect_same_sequence(const std::vector<Triangulation>& expected, bool stop, const Generate& generate,
                          const std::string& what) {
  std::size_t k = 0;
  std::size_t mismatches = 0;
  std::uint64_t count = 0;
  try {
    count = generate([&](const Triangulation& t) {
      if (k >= expected.size() || t.adj != expected[k].adj || t.degree != expected[k].degree) ++mismatches;
      if (++k == expected.size() && stop) throw Enough{};
    });
  } catch (const Enough&) {
    count = k;
  }
  EXPECT_EQ(count, expected.size()) << what;
  EXPECT_EQ(k, expected.size()) << what;
  EXPECT_EQ(mismatches, 0U) << what;
}

/// An expander like generate_in_order's, handing out every node below a task's root: each node
/// of the search is then a task of its own, restarted from its map and nauto alone.
ExpandTask fork_everything(const GeneratorOptions& options) {
  auto generator = std::make_shared<Generator>(options);
  return [generator](const Generator::Subtree& task, const std::function<void(const PlanarMap&)>& isomer,
                     const Generator::Fork& fork) { generator->run_subtree(task, isomer, &fork, 0); };
}

// On several threads the isomers come out exactly as run() gives them: the same duals (same
// labelling) in the same order.
TEST(FullereneOrderedGeneration, SameDualsInTheSameOrderAsRun) {
  for (const auto& [n, ipr] :
       {std::pair{20, false}, std::pair{40, false}, std::pair{60, false}, std::pair{68, false}, std::pair{74, true}}) {
    const GeneratorOptions options{n, ipr, 0, 1};
    const std::vector<Triangulation> serial = serial_duals(options);
    for (const int threads : {2, 3, 8})
      expect_same_sequence(
          serial, false, [&](const auto& sink) { return generate_in_order(options, threads, sink); },
          fmt::format("C{}{} on {} threads", n, ipr ? " IPR" : "", threads));
  }
}

// The start of a large space, where the top of the search is most of the work, through the limit
// mechanism (a sink that throws).
TEST(FullereneOrderedGeneration, SameFirstIsomersOfC200AsRun) {
  const GeneratorOptions options{200, false, 0, 1};
  const std::vector<Triangulation> serial = serial_duals(options, 1000);
  for (const int threads : {2, 8})
    expect_same_sequence(
        serial, true, [&](const auto& sink) { return generate_in_order(options, threads, sink); },
        fmt::format("first 1000 of C200 on {} threads", threads));
}

// Every node a task of its own: restarting the search at any node continues run()'s sequence.
TEST(FullereneOrderedGeneration, EveryNodeATaskStillGivesRunsOrder) {
  for (const auto& [n, ipr] : {std::pair{56, false}, std::pair{70, true}}) {
    const GeneratorOptions options{n, ipr, 0, 1};
    for (const int threads : {1, 3})
      expect_same_sequence(
          serial_duals(options), false,
          [&](const auto& sink) {
            return expand_in_order(
                Generator(options).seeds(), threads, [&] { return fork_everything(options); }, sink);
          },
          fmt::format("C{}{} forked at every node on {} threads", n, ipr ? " IPR" : "", threads));
  }
}

TEST(FullereneOrderedGeneration, APartIsGeneratedAsRunGeneratesIt) {
  const GeneratorOptions options{60, false, 1, 3};
  expect_same_sequence(
      serial_duals(options), false, [&](const auto& sink) { return generate_in_order(options, 3, sink); },
      "part 2/3 of C60");
}

// A sink that throws stops generation; every thread is joined and the exception comes out.
TEST(FullereneOrderedGeneration, AThrowingSinkStopsGeneration) {
  for (const int threads : {2, 8}) {
    std::size_t seen = 0;
    EXPECT_THROW(generate_in_order(GeneratorOptions{80, false, 0, 1}, threads,
                                   [&](const Triangulation&) {
                                     if (++seen == 1000) throw Enough{};
                                   }),
                 Enough);
    EXPECT_EQ(seen, 1000U);
  }
}

// A worker's first error stops generation and comes out of the caller, whether it comes from
// making the worker's expander or from expanding a task.
TEST(FullereneOrderedGeneration, AWorkersErrorComesOut) {
  const GeneratorOptions options{70, false, 0, 1};
  const auto seeds = Generator(options).seeds();
  const auto ignore = [](const Triangulation&) {};
  EXPECT_THROW(expand_in_order(
                   seeds, 3, []() -> ExpandTask { throw std::runtime_error("no expander"); }, ignore),
               std::runtime_error);
  std::atomic<int> tasks{0};
  std::size_t seen = 0;
  const auto failing = [&]() -> ExpandTask {
    ExpandTask inner = fork_everything(options);
    return [&tasks, inner](const Generator::Subtree& task, const std::function<void(const PlanarMap&)>& isomer,
                           const Generator::Fork& fork) {
      if (++tasks == 500) throw std::runtime_error("task 500");
      inner(task, isomer, fork);
    };
  };
  EXPECT_THROW(expand_in_order(seeds, 3, failing, [&](const Triangulation&) { ++seen; }), std::runtime_error);
  EXPECT_LT(seen, serial_duals(options).size());
}

// While the caller is busy the workers run a bounded window of tasks ahead of it, not the whole
// search (forked at every node, C80 has tens of thousands of tasks).
TEST(FullereneOrderedGeneration, WorkersRunOnlyAWindowAhead) {
  const GeneratorOptions options{80, false, 0, 1};
  std::atomic<int> tasks{0};
  const auto counting = [&]() -> ExpandTask {
    ExpandTask inner = fork_everything(options);
    return [&tasks, inner](const Generator::Subtree& task, const std::function<void(const PlanarMap&)>& isomer,
                           const Generator::Fork& fork) {
      ++tasks;
      inner(task, isomer, fork);
    };
  };
  int started = 0;
  EXPECT_THROW(expand_in_order(Generator(options).seeds(), 2, counting,
                               [&](const Triangulation&) {
                                 std::this_thread::sleep_for(std::chrono::milliseconds(300));
                                 started = tasks;
                                 throw Enough{};
                               }),
               Enough);
  EXPECT_LT(started, 1000);
}

}  // namespace
}  // namespace molstep::fullerene
