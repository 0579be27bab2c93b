// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "molstep/core/frame.hpp"
#include "molstep/core/topology.hpp"
#include "molstep/md/system.hpp"

namespace molstep::md {

/// Atom indices ordered by id. Throws molstep::Error unless the ids are exactly 1..N (trajectory
/// formats and analyses address atoms by position in that order).
std::vector<std::size_t> id_order(const System& system);

/// The atoms as a trajectory frame, in id order: wrapped positions (and velocities when asked),
/// the box, step, and time in ps (real and metal units; LJ time stays in tau).
core::Frame snapshot(const System& system, long step, double dt, bool velocities);
/// The frame's step, time and box without per-atom data.
core::Frame snapshot_meta(const System& system, long step, double dt);

/// Types and masses of the atoms in id order, for selections and one-body queries.
core::Topology topology_of(const System& system);

}  // namespace molstep::md
