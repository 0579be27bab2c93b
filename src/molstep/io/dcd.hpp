// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// What a DCD header says.
struct DcdHeader {
  std::int64_t nframes = 0;  ///< NSET as written (0 when the writer never patched it); not trusted
  std::int64_t istart = 0;   ///< step of the first frame
  std::int64_t nsavc = 1;    ///< steps between frames
  double delta = 0;          ///< DELTA as stored: AKMA time units (LAMMPS: its own time unit)
  int charmm_version = 0;    ///< ICNTRL(20); 0 for X-PLOR files
  bool has_unit_cell = false;
  bool has_4d = false;       ///< CHARMM 4th-dimension records (skipped)
  std::size_t natoms = 0;
  std::vector<std::int32_t> free_atoms;  ///< 1-based indices of the free atoms; empty: none fixed
  std::string title;         ///< the title records, joined by '\n', trailing blanks removed
  bool big_endian = false;
  int marker_bytes = 4;      ///< 4, or 8 for old 64-bit Fortran record markers
  bool lammps = false;       ///< title says "Created by LAMMPS": DELTA is in LAMMPS time units
  std::int64_t header_bytes = 0;
};

/// Reads CHARMM, NAMD, X-PLOR and LAMMPS DCD files: Fortran unformatted records with 4- or
/// 8-byte markers in either byte order. Positions in angstrom; step = ISTART + frame * NSAVC;
/// time = step * DELTA converted from AKMA to ps (for LAMMPS files, step * DELTA in LAMMPS's
/// time unit). The unit cell is read as MDAnalysis 2.4 reads it (see docs/file-formats.md).
class DcdReader final : public TrajectoryReader {
 public:
  explicit DcdReader(const std::filesystem::path& path);
  DcdReader(const DcdReader&) = delete;
  DcdReader& operator=(const DcdReader&) = delete;
  ~DcdReader() override;

  bool next(core::Frame& frame) override;
  [[nodiscard]] std::size_t natoms() const override { return header_.natoms; }
  [[nodiscard]] const DcdHeader& header() const { return header_; }

 private:
  void read_header();
  [[noreturn]] void fail(std::int64_t at, const std::string& what) const;
  std::size_t read_some(void* p, std::size_t n);
  void read_exact(void* p, std::size_t n, std::int64_t record_start, const char* what);
  std::uint64_t read_marker(std::int64_t record_start, const char* what);
  void read_record_end(std::uint64_t marker, const char* what);
  void skip(std::uint64_t n, std::int64_t record_start, const char* what);
  void read_coordinates(std::vector<float>& into, std::size_t count, const char* what);

  std::FILE* in_ = nullptr;
  DcdHeader header_;
  std::int64_t file_size_ = 0;
  std::int64_t offset_ = 0;
  std::int64_t frame_ = 0;  // index of the frame being read
  bool in_header_ = true;
  std::vector<float> buf_;
  std::vector<float> fixed_[3];  // all coordinates of the first frame, for fixed atoms
};

std::unique_ptr<TrajectoryReader> open_dcd(const std::filesystem::path& path);

/// Writes a CHARMM-style little-endian DCD (CHARMM version 24 flag, 4-byte markers, a unit
/// cell record in every frame as NAMD and LAMMPS write it: A, cos(gamma), B, cos(beta),
/// cos(alpha), C; all zero for frames without a box), readable by MDAnalysis, VMD and
/// CHARMM. Positions are stored as 32-bit floats. The header (frame count, ISTART, NSAVC,
/// DELTA) is written at close(): ISTART and NSAVC come from the frames' steps when these are
/// evenly spaced and increasing (else ISTART = 0, NSAVC = 1: frames numbered 0, 1, ...); DELTA is
/// `timestep_ps` (the MD time step) converted to AKMA units, or, when `timestep_ps` is 0,
/// derived from the first two frames' times and steps (1 ps when they do not tell). So a reader
/// gets back the steps, and times step * DELTA.
std::unique_ptr<TrajectoryWriter> create_dcd(const std::filesystem::path& path, std::size_t natoms,
                                             double timestep_ps = 1.0);

}  // namespace molstep::io
