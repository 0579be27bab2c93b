// SPDX-License-Identifier: MIT
#pragma once

// The input side shared by the XDR trajectory readers (TRR, XTC). Both read a frame as a few
// blocks, and every error must name the file, the frame and the byte where the input went
// wrong in the same words, so the two formats report problems alike.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "molstep/io/xdr.hpp"

namespace molstep::io::xdr {

/// An InputFile that knows which frame is being read. Errors are molstep::Error located at the
/// file: "frame F at byte B: ..." and "truncated: frame F needs N bytes of WHAT at byte B, file
/// ends at S".
class FrameInput : public InputFile {
 public:
  using InputFile::InputFile;

  /// 0-based index of the frame being read.
  [[nodiscard]] std::int64_t frame() const noexcept { return frame_; }
  /// Moves on to the next frame, once the current one has been read whole.
  void end_frame() noexcept { ++frame_; }

  /// Reads exactly `n` bytes into `dst`; `what` names them when the file ends first.
  void read_exact(std::uint8_t* dst, std::size_t n, std::string_view what);
  /// Reads the next `n` bytes into `block`, resized to `n + slack` with the slack zeroed (for
  /// decoders that load past the end). The file's size is checked first, so that a corrupt
  /// size field fails as truncation before anything is allocated for it. Returns the file
  /// offset of the block's first byte.
  std::uint64_t read_block(std::vector<std::uint8_t>& block, std::uint64_t n, std::string_view what,
                           std::size_t slack = 0);

  [[noreturn]] void fail(std::uint64_t at, const std::string& what) const;
  [[noreturn]] void truncated(std::uint64_t at, std::uint64_t need, std::string_view what) const;

 private:
  std::int64_t frame_ = 0;
};

}  // namespace molstep::io::xdr
