// SPDX-License-Identifier: MIT
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "molstep/core/atomic_file.hpp"
#include "molstep/core/frame.hpp"
#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Base of the text trajectory writers (LAMMPS dump, XYZ). It checks each frame against the
/// file, has the format lay the frame out in a memory buffer and writes that buffer whole, so
/// a frame the format rejects leaves nothing of itself in the file.
class TextFrameWriter : public TrajectoryWriter {
 public:
  void write(const core::Frame& f) final;
  void close() final;

 protected:
  /// `file_kind` names the file in messages: "... but the dump was opened for N".
  TextFrameWriter(const std::filesystem::path& path, std::size_t natoms, std::string file_kind);

  /// Appends `f`, which has natoms() atoms, to `out` as the format's text; throws
  /// molstep::Error for a frame the format cannot hold.
  virtual void format_frame(const core::Frame& f, fmt::memory_buffer& out) = 0;

  /// Appends atom `i`'s velocity and force columns (" vx vy vz", " fx fy fz"), each when the
  /// frame has them: both formats put them last on the atom's line.
  static void append_velocity_force(const core::Frame& f, std::size_t i, fmt::memory_buffer& out);

  [[nodiscard]] std::size_t natoms() const noexcept { return natoms_; }
  /// The file's name and the index of the frame being written, for messages.
  [[nodiscard]] std::string name() const { return file_.path().string(); }
  [[nodiscard]] std::int64_t frame_index() const noexcept { return nframes_; }

 private:
  core::AtomicFile file_;
  std::size_t natoms_;
  std::string file_kind_;
  std::int64_t nframes_ = 0;
  bool closed_ = false;
};

}  // namespace molstep::io
