// SPDX-License-Identifier: MIT
#pragma once

// The XTC coordinate compression ("xdr3dfcoord"): coordinates are quantised to integers in
// units of 1/precision nm; the first atom of each group is stored in the bit width the frame's
// bounding box needs, and runs of following atoms that lie close to their predecessor are
// stored as small differences whose width adapts from group to group. Consecutive atoms of a
// water molecule are swapped (the first H goes first) because O-H distances are shorter than
// the distance from one molecule to the next, which keeps the runs long.
//
// The bit stream is the same as GROMACS writes, so files interoperate both ways and, for the
// same quantised input, the bytes are identical.

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace molstep::io::xtc {

/// Frames with at most this many atoms store plain XDR floats instead of the compressed block.
inline constexpr std::size_t kMaxUncompressedAtoms = 9;

/// Readable zero bytes decode() needs after the bit stream: it reads a whole group of atoms
/// without per-bit bounds checks and checks the position after each group instead.
inline constexpr std::size_t kDecodeSlack = 128;

/// The values that precede the bit stream in a compressed frame.
struct BlockHeader {
  float precision = 1000.0f;
  std::array<std::int32_t, 3> minint{};
  std::array<std::int32_t, 3> maxint{};
  std::int32_t smallidx = 0;
};

/// A fault in compressed data: `byte()` is its offset from the start of the bit stream (or of
/// the block header when the header itself is inconsistent, with at_header() true).
class CodecError : public std::runtime_error {
 public:
  CodecError(std::size_t byte, bool at_header, const std::string& what)
      : std::runtime_error(what), byte_(byte), at_header_(at_header) {}
  [[nodiscard]] std::size_t byte() const noexcept { return byte_; }
  [[nodiscard]] bool at_header() const noexcept { return at_header_; }

 private:
  std::size_t byte_;
  bool at_header_;
};

/// Decodes `out.size() / 3` atoms (x, y, z interleaved, quantised) from `nbytes` bytes at
/// `bits`, which must be followed by kDecodeSlack readable zero bytes. Throws CodecError for a
/// header that cannot be valid or a stream that runs past `nbytes` or leaves the header's
/// bounds; never reads or writes outside the given buffers.
void decode(const BlockHeader& header, const std::uint8_t* bits, std::size_t nbytes, std::span<std::int32_t> out);

/// Quantises coordinates in nm as GROMACS does (x * precision in float, rounded half away from
/// zero). Throws CodecError (byte = atom index) for a value that is not finite or does not fit.
void quantise(std::span<const float> xyz, float precision, std::span<std::int32_t> out);

/// Compresses quantised coordinates. Keeps its scratch buffers between frames.
class Encoder {
 public:
  /// Fills `header` (precision is left as set by the caller) and replaces `bits` with the
  /// stream (unpadded). At least kMaxUncompressedAtoms + 1 atoms; throws CodecError when the
  /// coordinates span more than the format can hold.
  void encode(std::span<const std::int32_t> q, BlockHeader& header, std::vector<std::uint8_t>& bits);

 private:
  std::vector<std::int32_t> coords_;
};

}  // namespace molstep::io::xtc
