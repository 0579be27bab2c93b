// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

#include "molstep/md/system.hpp"

namespace molstep::io {

/// Reads a LAMMPS data file of atom style atomic: header (atoms, atom types, xlo xhi, ylo yhi,
/// zlo zhi), then Masses, Atoms (id type x y z [ix iy iz]) and Velocities sections. Defines the box
/// and types of `system` and replaces its atoms. Errors name the file, the line and what was
/// expected; nothing in `system` changes unless the whole file is valid.
void read_lammps_data(const std::filesystem::path& path, md::System& system);

/// Writes `system` as a LAMMPS atomic data file (shortest round-trip numbers, atoms by id),
/// atomically (temporary file, then rename).
void write_lammps_data(const std::filesystem::path& path, const md::System& system, long step);

}  // namespace molstep::io
