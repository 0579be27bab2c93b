// SPDX-License-Identifier: MIT
#pragma once

// The output side shared by the XDR trajectory writers (TRR, XTC): the checks every frame must
// pass before either format can store it, the buffer a frame is encoded in, and the atomic
// file the encoded frames go to.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "molstep/core/atomic_file.hpp"
#include "molstep/core/frame.hpp"
#include "molstep/io/xdr.hpp"

namespace molstep::io::xdr {

/// Frames of `natoms` atoms, encoded one at a time and written whole. Errors are
/// molstep::Error located at the file: "frame F: ...".
class FrameOutput {
 public:
  /// `format` ("TRR", "XTC") names the format in messages.
  FrameOutput(const std::filesystem::path& path, std::size_t natoms, std::string_view format);

  /// Checks that the output is still open, that `frame` has the file's atoms and that its
  /// step fits the formats' 32-bit field; returns the encoder, emptied, for the frame's bytes.
  Writer& begin_frame(const core::Frame& frame);
  /// Writes what begin_frame's encoder holds as the next frame.
  void end_frame();
  /// Commits the file under its name; later calls do nothing.
  void close();

  [[nodiscard]] const std::filesystem::path& path() const { return file_.path(); }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  core::AtomicFile file_;
  std::size_t natoms_;
  std::string format_;
  std::int64_t frame_ = 0;
  bool closed_ = false;
  Writer out_;
};

}  // namespace molstep::io::xdr
