// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Opens a GROMACS XTC trajectory. Positions and box are converted from nm to angstrom (in
/// double, from the file's float values); time is in ps; velocities and forces stay empty.
std::unique_ptr<TrajectoryReader> open_xtc(const std::filesystem::path& path);

/// Creates an XTC writer for frames of `natoms` atoms (angstrom in, nm in the file).
/// `precision` is the number of steps per nm coordinates are rounded to (GROMACS' default
/// 1000 keeps 0.001 nm). Frames with at most 9 atoms are stored uncompressed, as GROMACS does.
std::unique_ptr<TrajectoryWriter> create_xtc(const std::filesystem::path& path, std::size_t natoms,
                                             float precision = 1000.0f);

}  // namespace molstep::io
