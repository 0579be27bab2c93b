// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace molstep::core {

/// Below this many atoms a per-atom loop runs on one thread: starting a parallel region costs
/// microseconds, more than such a loop's work. Results never depend on it (see determinism).
inline constexpr std::size_t kParallelMinAtoms = 8192;

}  // namespace molstep::core
