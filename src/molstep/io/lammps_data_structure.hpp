// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Reads a LAMMPS data file (as written by write_data) as a Structure, for analysis: types,
/// masses (from the Masses section, per atom), charges (atom styles charge and full), molecule
/// ids as residue numbers (full, molecular, bond, angle), the box (orthogonal or triclinic
/// `xy xz yz`) and the positions (and Velocities) as a frame, atoms sorted by id.
///
/// The atom style comes from the comment after "Atoms" ("Atoms # full"); without one it is
/// inferred from the number of columns (image flags add 3): 5 atomic, 7 full, and 6 either
/// charge (id type q x y z) or, when the header declares bonds, angles, dihedrals or impropers,
/// molecular (id mol type x y z). Positions are taken as written (image flags are not applied)
/// and, as for LAMMPS dumps, shifted so that the box starts at the origin; the box origin is
/// kept in frame.scalars "xlo", "ylo", "zlo". Sections other than Masses, Atoms and Velocities
/// (coefficients, Bonds, ...) are skipped. Errors name the file and line.
Structure read_lammps_data_structure(const std::filesystem::path& path);

}  // namespace molstep::io
