// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Reads plain XYZ and extended XYZ (ASE's dialect): per frame an atom count line, a comment
/// line, and one line per atom. In the comment line `Lattice="ax ay az bx by bz cx cy cz"` gives
/// the box rows, `Properties=species:S:1:pos:R:3:...` the columns (default: species and pos),
/// `step=` and `time=` the step and time, and every other key with one number as its value goes
/// into frame.scalars (energy=-1.5). Known columns: species, pos, vel/velo/velocities and
/// forces/force (R:3), Z (I:1), masses/mass and charges/charge (R:1, topology only); others
/// are skipped. topology() holds the first frame's species as names, their elements, numeric
/// species as types (LAMMPS `dump xyz`), and masses and charges when the file has them.
std::unique_ptr<TrajectoryReader> open_xyz(const std::filesystem::path& path);

/// Writes extended XYZ that ASE reads: species from the topology (element, else name, else
/// type number, else "X"); `Lattice="..."` and `pbc="T T T"` when the frame has a box;
/// Properties species:S:1:pos:R:3, plus vel:R:3 and forces:R:3 when the frame has them;
/// step=, time= and the frame's scalars as key=value. Numbers in shortest round-trip form.
std::unique_ptr<TrajectoryWriter> create_xyz(const std::filesystem::path& path, std::size_t natoms,
                                             const core::Topology& topology = {});

/// Splits an extended XYZ comment line into key/value pairs the way ASE 3.22's
/// key_val_str_to_dict does: quotes ("", '') and brackets ({}, []) group a value, a backslash
/// escapes the next character, a key without '=' gets the value "T".
std::vector<std::pair<std::string, std::string>> parse_extxyz_comment(std::string_view line);

}  // namespace molstep::io
