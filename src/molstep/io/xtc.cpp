// SPDX-License-Identifier: MIT
#include "molstep/io/xtc.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/io/xdr.hpp"
#include "molstep/io/xdr_frame_input.hpp"
#include "molstep/io/xdr_frame_output.hpp"
#include "molstep/io/xtc_codec.hpp"

namespace molstep::io {

namespace {

constexpr std::int32_t kMagic = 1995;
// magic, natoms, step, time, box (9 floats), natoms again (the coordinate block's own count).
constexpr std::size_t kFrameHeaderBytes = 4 * 4 + 9 * 4 + 4;
// precision, minint[3], maxint[3], smallidx, byte count of the bit stream.
constexpr std::size_t kBlockHeaderBytes = 9 * 4;
constexpr double kAngstromPerNm = 10.0;

// No valid stream needs more than 13 bytes per atom (three 32-bit fields and 6 flag bits);
// a larger count is corruption, caught before allocating for it.
std::uint64_t max_compressed_bytes(std::size_t natoms) { return std::uint64_t{natoms} * 16 + 64; }

class XtcReader final : public TrajectoryReader {
 public:
  explicit XtcReader(const std::filesystem::path& path) : TrajectoryReader(path), in_(path) {
    std::uint8_t head[8];
    const auto got = in_.read(head, sizeof head);
    if (got == 0) in_.fail(0, fmt::format("empty file: expected an XTC frame (magic {})", kMagic));
    if (got < sizeof head) in_.truncated(0, kFrameHeaderBytes, "frame header");
    xdr::Reader r(head, sizeof head);
    check_magic(r.read_int(), 0);
    const auto n = r.read_int();
    if (n < 0) in_.fail(4, fmt::format("expected a number of atoms >= 0, found {}", n));
    natoms_ = static_cast<std::size_t>(n);
    in_.seek(0);
  }

  [[nodiscard]] std::size_t natoms() const override { return natoms_; }

  bool next(core::Frame& frame) override {
    const std::uint64_t start = in_.offset();
    std::uint8_t head[kFrameHeaderBytes];
    const auto got = in_.read(head, kFrameHeaderBytes);
    if (got == 0) return false;  // a clean end at a frame boundary
    if (got < kFrameHeaderBytes) in_.truncated(start, kFrameHeaderBytes, "frame header");

    xdr::Reader r(head, kFrameHeaderBytes, start);
    check_magic(r.read_int(), start);
    check_natoms(r.read_int(), start + 4, "");
    frame.step = r.read_int();
    frame.time = r.read_float();
    for (auto& row : frame.box) {
      for (auto& v : row) v = static_cast<double>(r.read_float()) * kAngstromPerNm;
    }
    check_natoms(r.read_int(), start + 52, " repeated before the coordinates");

    frame.resize(natoms_);
    frame.resize_velocities(0);
    frame.resize_forces(0);
    frame.scalars.clear();
    if (natoms_ <= xtc::kMaxUncompressedAtoms) {
      read_plain(frame);
    } else {
      read_compressed(frame);
    }
    in_.end_frame();
    return true;
  }

 private:
  void read_plain(core::Frame& frame) {
    const std::size_t n = 12 * natoms_;
    const std::uint64_t at = in_.read_block(block_, n, "coordinates");
    xdr::Reader r(block_.data(), n, at);
    for (std::size_t i = 0; i < natoms_; ++i) {
      frame.x[i] = static_cast<double>(r.read_float()) * kAngstromPerNm;
      frame.y[i] = static_cast<double>(r.read_float()) * kAngstromPerNm;
      frame.z[i] = static_cast<double>(r.read_float()) * kAngstromPerNm;
    }
  }

  void read_compressed(core::Frame& frame) {
    const std::uint64_t header_at = in_.offset();
    std::uint8_t head[kBlockHeaderBytes];
    in_.read_exact(head, kBlockHeaderBytes, "compressed block header");
    xdr::Reader r(head, kBlockHeaderBytes, header_at);
    xtc::BlockHeader h;
    h.precision = r.read_float();
    for (auto& v : h.minint) v = r.read_int();
    for (auto& v : h.maxint) v = r.read_int();
    h.smallidx = r.read_int();
    const std::int64_t nbytes = r.read_int();
    if (nbytes < 0 || static_cast<std::uint64_t>(nbytes) > max_compressed_bytes(natoms_)) {
      in_.fail(header_at + 32, fmt::format("expected a compressed size of at most {} bytes for {} atoms, found {}",
                                           max_compressed_bytes(natoms_), natoms_, nbytes));
    }
    // The whole stream in one read, then decoding from memory.
    const std::uint64_t stored = xdr::padded(static_cast<std::uint64_t>(nbytes));
    const std::uint64_t bits_at = in_.read_block(block_, stored, "compressed coordinates", xtc::kDecodeSlack);

    ints_.resize(3 * natoms_);
    try {
      xtc::decode(h, block_.data(), static_cast<std::size_t>(nbytes), ints_);
    } catch (const xtc::CodecError& e) {
      in_.fail((e.at_header() ? header_at : bits_at) + e.byte(), e.what());
    }
    // Same arithmetic as GROMACS and MDAnalysis (int times float reciprocal, in float), then
    // nm to angstrom in double, which is exact.
    const auto inv = static_cast<float>(1.0 / static_cast<double>(h.precision));
    const std::int32_t* q = ints_.data();
    for (std::size_t i = 0; i < natoms_; ++i, q += 3) {
      frame.x[i] = static_cast<double>(static_cast<float>(q[0]) * inv) * kAngstromPerNm;
      frame.y[i] = static_cast<double>(static_cast<float>(q[1]) * inv) * kAngstromPerNm;
      frame.z[i] = static_cast<double>(static_cast<float>(q[2]) * inv) * kAngstromPerNm;
    }
  }

  void check_magic(std::int32_t magic, std::uint64_t at) const {
    if (magic != kMagic) in_.fail(at, fmt::format("expected magic {}, found {}", kMagic, magic));
  }

  void check_natoms(std::int32_t n, std::uint64_t at, std::string_view where) const {
    if (n < 0 || static_cast<std::size_t>(n) != natoms_) {
      in_.fail(at, fmt::format("expected natoms {}{} (as in frame 0), found {}", natoms_, where, n));
    }
  }

  xdr::FrameInput in_;
  std::size_t natoms_ = 0;
  std::vector<std::uint8_t> block_;
  std::vector<std::int32_t> ints_;
};

class XtcWriter final : public TrajectoryWriter {
 public:
  XtcWriter(const std::filesystem::path& path, std::size_t natoms, float precision)
      : file_(path, natoms, "XTC"), natoms_(natoms), precision_(precision) {
    if (!(precision > 0.0f) || !std::isfinite(precision)) {
      throw Error(fmt::format("{}: XTC precision must be positive, got {}", path.string(), precision));
    }
    if (natoms > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
      throw Error(fmt::format("{}: {} atoms are more than XTC can store", path.string(), natoms));
    }
  }

  void write(const core::Frame& frame) override {
    xdr::Writer& out = file_.begin_frame(frame);
    const auto n = static_cast<std::int32_t>(natoms_);
    out.write_int(kMagic);
    out.write_int(n);
    out.write_int(static_cast<std::int32_t>(frame.step));
    out.write_float(static_cast<float>(frame.time));
    for (const auto& row : frame.box) {
      for (const double v : row) out.write_float(static_cast<float>(v / kAngstromPerNm));
    }
    out.write_int(n);

    // Dividing (not multiplying by 0.1) makes a value read from an XTC file convert back to
    // exactly the float it came from, so rewriting a file reproduces its bytes.
    nm_.resize(3 * natoms_);
    for (std::size_t i = 0; i < natoms_; ++i) {
      nm_[3 * i] = static_cast<float>(frame.x[i] / kAngstromPerNm);
      nm_[3 * i + 1] = static_cast<float>(frame.y[i] / kAngstromPerNm);
      nm_[3 * i + 2] = static_cast<float>(frame.z[i] / kAngstromPerNm);
    }
    if (natoms_ <= xtc::kMaxUncompressedAtoms) {
      for (const float v : nm_) out.write_float(v);
    } else {
      write_compressed(out);
    }
    file_.end_frame();
  }

  void close() override { file_.close(); }

 private:
  void write_compressed(xdr::Writer& out) {
    q_.resize(nm_.size());
    xtc::BlockHeader h;
    h.precision = precision_;
    try {
      xtc::quantise(nm_, precision_, q_);
      encoder_.encode(q_, h, bits_);
    } catch (const xtc::CodecError& e) {
      file_.fail(e.what());
    }
    out.write_float(h.precision);
    for (const auto v : h.minint) out.write_int(v);
    for (const auto v : h.maxint) out.write_int(v);
    out.write_int(h.smallidx);
    out.write_int(static_cast<std::int32_t>(bits_.size()));
    out.write_opaque(bits_);
  }

  xdr::FrameOutput file_;
  std::size_t natoms_;
  float precision_;
  std::vector<float> nm_;
  std::vector<std::int32_t> q_;
  std::vector<std::uint8_t> bits_;
  xtc::Encoder encoder_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> open_xtc(const std::filesystem::path& path) {
  return std::make_unique<XtcReader>(path);
}

std::unique_ptr<TrajectoryWriter> create_xtc(const std::filesystem::path& path, std::size_t natoms,
                                             float precision) {
  return std::make_unique<XtcWriter>(path, natoms, precision);
}

}  // namespace molstep::io
