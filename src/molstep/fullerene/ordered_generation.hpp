// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>

#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

/// Every isomer of `options`, in the order Generator::run() gives them, generated on `threads`
/// threads: one walks the top of the search (Generator::for_each_subtree) and hands its subtrees
/// out, the others generate them and turn each isomer into its dual triangulation, and
/// sink(dual) runs on the calling thread, subtree after subtree in the walk's order (the order
/// of run(): every isomer lies below exactly one subtree root, and the walk meets the roots in
/// run()'s depth-first order). At most 4 subtrees per thread are out at a time. When sink
/// throws (a limit reached), generation stops, every thread is joined and the exception goes on
/// to the caller; so does the first error of a worker. With threads <= 1: Generator::run on the
/// calling thread. Returns the number of isomers handed to sink.
std::uint64_t generate_in_order(const GeneratorOptions& options, int threads,
                                const std::function<void(const Triangulation&)>& sink);

}  // namespace molstep::fullerene
