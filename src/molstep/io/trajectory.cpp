// SPDX-License-Identifier: MIT
#include "molstep/io/trajectory.hpp"

#include <algorithm>
#include <cctype>

#include "molstep/core/error.hpp"
#include "molstep/io/dcd.hpp"
#include "molstep/io/gro.hpp"
#include "molstep/io/lammps_data_structure.hpp"
#include "molstep/io/lammps_dump_reader.hpp"
#include "molstep/io/lammps_dump_writer.hpp"
#include "molstep/io/pdb.hpp"
#include "molstep/io/trr.hpp"
#include "molstep/io/xtc.hpp"
#include "molstep/io/xyz.hpp"

namespace molstep::io {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::optional<TrajectoryFormat> format_from_name(const std::string& name) {
  const std::string n = lower(name);
  if (n == "xtc") return TrajectoryFormat::xtc;
  if (n == "trr") return TrajectoryFormat::trr;
  if (n == "dcd") return TrajectoryFormat::dcd;
  if (n == "lammpstrj" || n == "dump" || n == "lammps_dump" || n == "lammpsdump") return TrajectoryFormat::lammps_dump;
  if (n == "xyz" || n == "extxyz") return TrajectoryFormat::xyz;
  return std::nullopt;
}

TrajectoryFormat format_from_path(const std::filesystem::path& path) {
  const std::string ext = lower(path.extension().string());
  if (ext.size() > 1) {
    if (const auto f = format_from_name(ext.substr(1)); f && ext != ".lammps_dump" && ext != ".lammpsdump") return *f;
  }
  throw Error(path.string() + ": cannot tell the trajectory format from the extension '" + path.extension().string() +
              "' (known: .xtc .trr .dcd .lammpstrj .dump .xyz .extxyz)");
}

std::unique_ptr<TrajectoryReader> open_trajectory(const std::filesystem::path& path,
                                                  std::optional<TrajectoryFormat> format) {
  switch (format ? *format : format_from_path(path)) {
    case TrajectoryFormat::xtc:
      return open_xtc(path);
    case TrajectoryFormat::trr:
      return open_trr(path);
    case TrajectoryFormat::dcd:
      return open_dcd(path);
    case TrajectoryFormat::lammps_dump:
      return open_lammps_dump(path);
    case TrajectoryFormat::xyz:
      return open_xyz(path);
  }
  throw Error(path.string() + ": unknown trajectory format");
}

std::unique_ptr<TrajectoryWriter> create_trajectory(const std::filesystem::path& path, TrajectoryFormat format,
                                                    std::size_t natoms, const core::Topology& topology) {
  switch (format) {
    case TrajectoryFormat::xtc:
      return create_xtc(path, natoms);
    case TrajectoryFormat::trr:
      return create_trr(path, natoms);
    case TrajectoryFormat::dcd:
      // The time step comes from the frames, so converted trajectories keep their times.
      return create_dcd(path, natoms, 0.0);
    case TrajectoryFormat::lammps_dump:
      return create_lammps_dump(path, natoms, topology);
    case TrajectoryFormat::xyz:
      return create_xyz(path, natoms, topology);
  }
  throw Error(path.string() + ": unknown trajectory format");
}

Structure read_structure(const std::filesystem::path& path) {
  const std::string ext = lower(path.extension().string());
  if (ext == ".gro") return read_gro(path);
  if (ext == ".pdb" || ext == ".ent") return read_pdb(path);
  return read_lammps_data_structure(path);
}

}  // namespace molstep::io
