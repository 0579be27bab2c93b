// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Reads the first model of a PDB file: ATOM and HETATM records (fixed columns: name 13-16,
/// residue name 18-21, residue number 23-26, x y z 31-54, element 77-78, formal charge 79-80
/// such as "2+" or "1-"), and the box from CRYST1 (a b c alpha beta gamma; the placeholder
/// 1 1 1 90 90 90 that cryo-EM and modelling tools write means no box, as in MDAnalysis).
/// Reading stops at the first ENDMDL, at a second MODEL or at END. Atoms without an element
/// column get one guessed from their name (core::guess_element); masses are guessed from the
/// elements. Charges are filled only when some atom has a charge column.
Structure read_pdb(const std::filesystem::path& path);

}  // namespace molstep::io
