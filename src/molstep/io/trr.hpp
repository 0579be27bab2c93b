// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Opens a GROMACS TRR trajectory (single or double precision, detected per frame).
/// Positions and box in angstrom, velocities in A/ps, forces in kJ/(mol A), time in ps, and
/// frame.scalars["lambda"]. A frame without positions (TRR lets x, v and f have different
/// output intervals) has x, y, z filled with NaN; velocities and forces are empty when absent.
std::unique_ptr<TrajectoryReader> open_trr(const std::filesystem::path& path);

/// Creates a single-precision TRR writer for frames of `natoms` atoms. Every frame stores the
/// box and positions (unless they are all NaN, the reader's mark for a frame without them),
/// plus velocities and forces when the frame has them; lambda comes from
/// frame.scalars["lambda"] (0 when absent).
std::unique_ptr<TrajectoryWriter> create_trr(const std::filesystem::path& path, std::size_t natoms);

}  // namespace molstep::io
