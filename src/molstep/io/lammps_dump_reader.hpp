// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Reads a LAMMPS text dump (`dump atom`, `dump custom`): per frame ITEM: TIMESTEP, NUMBER OF
/// ATOMS, BOX BOUNDS (orthogonal, triclinic `xy xz yz`, or general `abc origin`) and ATOMS with
/// its columns in any order (optional ITEM: UNITS and ITEM: TIME before TIMESTEP).
///
/// Positions come from xu yu zu when present, else xsu ysu zsu, else x y z, else xs ys zs
/// (scaled columns are converted with the box). When the chosen positions are wrapped (x or xs)
/// and the frame has image flags ix iy iz, the flags are applied, so positions are always
/// unwrapped: r = x + ix a + iy b + iz c. As MDAnalysis 2.4 does, positions are then shifted
/// so that the box starts at the origin (r - (xlo, ylo, zlo)); the box origin is kept in
/// frame.scalars "xlo", "ylo", "zlo". Velocities from vx vy vz, forces from fx fy fz. Atoms are
/// sorted by id when the file has an id column (LAMMPS writes them unsorted in parallel runs).
/// time = ITEM: TIME when the file has it, else step * dt.
///
/// topology() holds, from the first frame, the types (`type`), masses (`mass`), charges (`q`),
/// residue (molecule) numbers (`mol`) and elements (`element`) the file has.
std::unique_ptr<TrajectoryReader> open_lammps_dump(const std::filesystem::path& path, double dt = 1.0);

}  // namespace molstep::io
