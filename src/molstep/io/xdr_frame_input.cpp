// SPDX-License-Identifier: MIT
#include "molstep/io/xdr_frame_input.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "molstep/core/error.hpp"

namespace molstep::io::xdr {

void FrameInput::read_exact(std::uint8_t* dst, std::size_t n, std::string_view what) {
  const std::uint64_t at = offset();
  if (read(dst, n) < n) truncated(at, n, what);
}

std::uint64_t FrameInput::read_block(std::vector<std::uint8_t>& block, std::uint64_t n, std::string_view what,
                                     std::size_t slack) {
  const std::uint64_t at = offset();
  // A pipe has no size (0) until read; then the short read below catches the truncation.
  if (size() > at && at + n > size()) truncated(at, n, what);
  const auto bytes = static_cast<std::size_t>(n);
  block.resize(bytes + slack);
  read_exact(block.data(), bytes, what);
  std::fill(block.begin() + static_cast<std::ptrdiff_t>(bytes), block.end(), std::uint8_t{0});
  return at;
}

void FrameInput::fail(std::uint64_t at, const std::string& what) const {
  throw Error(SourceLoc{name(), 0}, fmt::format("frame {} at byte {}: {}", frame_, at, what));
}

void FrameInput::truncated(std::uint64_t at, std::uint64_t need, std::string_view what) const {
  throw Error(SourceLoc{name(), 0}, fmt::format("truncated: frame {} needs {} bytes of {} at byte {}, file ends at {}",
                                                frame_, need, what, at, size()));
}

}  // namespace molstep::io::xdr
