// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/graph.hpp"
#include "molstep/fullerene/planar_map.hpp"

namespace molstep::fullerene {

/// Every isomer of `options`, in the order Generator::run() gives them, generated on `threads`
/// worker threads, while sink(dual) runs on the calling thread. The search is cut into tasks,
/// each a node of the search: a worker expands a task a bounded number of nodes deep
/// (Generator::run_subtree with a fork) and hands every node it did not reach out as a new task,
/// in its place among the task's isomers. The tasks form a tree whose depth-first order is
/// run()'s order, so the whole search, its top included, runs on the workers, and the caller
/// emits each task's isomers and subtasks in that order (expand_in_order). With parts > 1 (the
/// parts are numbered by one walk of the search) or threads <= 1: Generator::run on the calling
/// thread. Returns the number of isomers handed to sink.
std::uint64_t generate_in_order(const GeneratorOptions& options, int threads,
                                const std::function<void(const Triangulation&)>& sink);

/// How a worker expands one task: isomer(map) for each isomer below `task` and fork(root, nauto)
/// for each node it leaves to a new task, all in run()'s order.
using ExpandTask = std::function<void(
    const Generator::Subtree& task, const std::function<void(const PlanarMap&)>& isomer, const Generator::Fork& fork)>;

/// The scheduler behind generate_in_order, open to tests. Expands `roots` and every node their
/// expansions hand out on `threads` worker threads, each with its own ExpandTask from
/// make_expander() (called on that thread), and calls sink(dual) on the calling thread for each
/// isomer in depth-first order of the task tree. Workers take the earliest pending task first and
/// run at most 64 tasks per worker that the caller has not reached yet (the one it waits for always
/// runs), so memory stays bounded however large the search. When sink throws (a limit reached),
/// everything stops, every thread is joined and the exception goes on to the caller; so does the
/// first error of a worker. Returns the number of isomers handed to sink.
std::uint64_t expand_in_order(const std::vector<Generator::Subtree>& roots, int threads,
                              const std::function<ExpandTask()>& make_expander,
                              const std::function<void(const Triangulation&)>& sink);

}  // namespace molstep::fullerene
