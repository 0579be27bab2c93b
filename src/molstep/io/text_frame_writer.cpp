// SPDX-License-Identifier: MIT
#include "molstep/io/text_frame_writer.hpp"

#include <iterator>
#include <utility>

#include "molstep/core/error.hpp"

namespace molstep::io {

TextFrameWriter::TextFrameWriter(const std::filesystem::path& path, std::size_t natoms, std::string file_kind)
    : file_(path), natoms_(natoms), file_kind_(std::move(file_kind)) {}

void TextFrameWriter::write(const core::Frame& f) {
  if (closed_) throw Error(name() + ": write after close");
  if (f.natoms() != natoms_) {
    throw Error(fmt::format("{}: frame {} has {} atoms, but {} was opened for {}", name(), nframes_, f.natoms(),
                            file_kind_, natoms_));
  }
  fmt::memory_buffer out;
  format_frame(f, out);
  file_.stream().write(out.data(), static_cast<std::streamsize>(out.size()));
  ++nframes_;
}

void TextFrameWriter::close() {
  if (closed_) return;
  closed_ = true;
  file_.commit();
}

void TextFrameWriter::append_velocity_force(const core::Frame& f, std::size_t i, fmt::memory_buffer& out) {
  auto it = std::back_inserter(out);
  if (f.has_velocities()) fmt::format_to(it, " {} {} {}", f.vx[i], f.vy[i], f.vz[i]);
  if (f.has_forces()) fmt::format_to(it, " {} {} {}", f.fx[i], f.fy[i], f.fz[i]);
}

}  // namespace molstep::io
