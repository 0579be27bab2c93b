// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Writes frames as a LAMMPS text dump: ITEM: TIMESTEP (the frame's step), NUMBER OF ATOMS,
/// BOX BOUNDS with the box at the origin (`pp pp pp`, or `xy xz yz pp pp pp` for a triclinic
/// box, which must have a along x and b in the xy plane as every molstep reader gives it; a
/// frame without a box gets the atoms' bounding box as `ff ff ff`), then
/// ITEM: ATOMS id type xu yu zu [vx vy vz] [fx fy fz] with ids 1..N in frame order and types
/// from the topology (1 when it has none). Positions go to the unwrapped columns because
/// molstep frames hold unwrapped positions. Numbers in shortest round-trip form.
std::unique_ptr<TrajectoryWriter> create_lammps_dump(const std::filesystem::path& path, std::size_t natoms,
                                                     const core::Topology& topology = {});

}  // namespace molstep::io
