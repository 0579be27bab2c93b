// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Reads a GROMACS .gro file: title, atom count, one fixed-column line per atom
/// (resid %5d, residue name %-5s, atom name %5s, atom number %5d, then x y z and optionally
/// vx vy vz in fields whose width is taken from the distance between the decimal points of the
/// first atom line, as GROMACS does: %8.3f by default), and a box line with 3 or 9 numbers
/// (v1x v2y v3z [v1y v1z v2x v2z v3x v3y]). Lengths are converted from nm to angstrom and
/// velocities from nm/ps to A/ps. A "t=" and "step=" in the title give the frame's time and
/// step. Elements are guessed from the atom names and masses from the elements
/// (core::guess_element, as MDAnalysis does for .gro files).
Structure read_gro(const std::filesystem::path& path);

}  // namespace molstep::io
