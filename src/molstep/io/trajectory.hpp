// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "molstep/core/frame.hpp"
#include "molstep/core/topology.hpp"

namespace molstep::io {

/// Reads frames one after another from a trajectory file. Errors (molstep::Error) name the file,
/// the frame (0-based) and the byte offset (or line for text formats) where the input went wrong,
/// and what was expected there.
class TrajectoryReader {
 public:
  virtual ~TrajectoryReader() = default;
  /// Reads the next frame into `frame` (reusing its storage); false at a clean end of file.
  virtual bool next(core::Frame& frame) = 0;
  /// Number of atoms per frame (known after opening for every supported format).
  [[nodiscard]] virtual std::size_t natoms() const = 0;
  /// What the file itself says about its atoms (names, types, ...); empty for most formats.
  [[nodiscard]] virtual core::Topology topology() const { return {}; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 protected:
  explicit TrajectoryReader(std::filesystem::path path) : path_(std::move(path)) {}

 private:
  std::filesystem::path path_;
};

/// Writes frames; the file appears under its name only after close() (core::AtomicFile), so a
/// failed run leaves no partial trajectory.
class TrajectoryWriter {
 public:
  virtual ~TrajectoryWriter() = default;
  virtual void write(const core::Frame& frame) = 0;
  virtual void close() = 0;
};

/// Trajectory formats molstep reads or writes.
enum class TrajectoryFormat { xtc, trr, dcd, lammps_dump, xyz };

/// The format named by `name` ("xtc", "trr", "dcd", "lammpstrj"/"dump", "xyz"/"extxyz"), or
/// std::nullopt.
std::optional<TrajectoryFormat> format_from_name(const std::string& name);
/// The format of `path` from its extension (.xtc .trr .dcd .lammpstrj .dump .xyz .extxyz);
/// throws molstep::Error naming the known extensions otherwise.
TrajectoryFormat format_from_path(const std::filesystem::path& path);

std::unique_ptr<TrajectoryReader> open_trajectory(const std::filesystem::path& path,
                                                  std::optional<TrajectoryFormat> format = {});
/// `natoms` and `topology` (element/name for XYZ) describe the frames to come.
std::unique_ptr<TrajectoryWriter> create_trajectory(const std::filesystem::path& path, TrajectoryFormat format,
                                                    std::size_t natoms, const core::Topology& topology = {});

/// A structure/topology file (GRO, PDB, LAMMPS data): its topology and, where the file has
/// coordinates, its first frame.
struct Structure {
  core::Topology topology;
  std::optional<core::Frame> frame;
};
/// Reads .gro, .pdb or a LAMMPS data file (.data, .lmp, or anything else with a LAMMPS header).
Structure read_structure(const std::filesystem::path& path);

}  // namespace molstep::io
