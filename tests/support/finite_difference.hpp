// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <initializer_list>

#include "molstep/md/potentials/pair.hpp"
#include "molstep/md/system.hpp"

namespace molstep::test {

/// Checks F = -dE/dx for the atoms `ids` of `system` by central differences of step h: every
/// force component must match to `rel` times the largest force component in the system.
void expect_forces_match_finite_differences(const md::System& system, md::potentials::PairStyle& pair, double skin,
                                            std::initializer_list<std::int64_t> ids, double h = 1e-5,
                                            double rel = 1e-6);

}  // namespace molstep::test
