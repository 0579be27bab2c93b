// SPDX-License-Identifier: MIT
#include "molstep/io/trr.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/io/xdr.hpp"
#include "molstep/io/xdr_frame_input.hpp"
#include "molstep/io/xdr_frame_output.hpp"

namespace molstep::io {

namespace {

constexpr std::int32_t kMagic = 1993;
constexpr std::string_view kVersion = "GMX_trn_file";
constexpr double kAngstromPerNm = 10.0;
// Longest version string accepted; anything longer is corruption, not a newer version.
constexpr std::int32_t kMaxVersionLength = 128;

// The frame header after the version string: 13 ints, then time and lambda in the frame's
// precision.
struct Header {
  std::int32_t ir_size = 0, e_size = 0, box_size = 0, vir_size = 0, pres_size = 0, top_size = 0, sym_size = 0;
  std::int32_t x_size = 0, v_size = 0, f_size = 0;
  std::int32_t natoms = 0, step = 0, nre = 0;
  std::size_t real_size = 4;  // 4 (float) or 8 (double), from the sizes above
  double time = 0, lambda = 0;
};
constexpr std::size_t kSizesBytes = 13 * 4;

// Unit conversions, all exact or correctly rounded in double: nm (and nm/ps) to angstrom, and
// forces from kJ/(mol nm) to kJ/(mol A). The writer inverts them with the opposite operation
// so that values read from a float file are written back as the same floats.
double nm_to_angstrom(double v) { return v * kAngstromPerNm; }
double per_nm_to_per_angstrom(double v) { return v / kAngstromPerNm; }
double angstrom_to_nm(double v) { return v / kAngstromPerNm; }
double per_angstrom_to_per_nm(double v) { return v * kAngstromPerNm; }

class TrrReader final : public TrajectoryReader {
 public:
  explicit TrrReader(const std::filesystem::path& path) : TrajectoryReader(path), in_(path) {
    Header h;
    if (!read_header(h)) in_.fail(0, fmt::format("empty file: expected a TRR frame (magic {})", kMagic));
    natoms_ = static_cast<std::size_t>(h.natoms);
    in_.seek(0);
  }

  [[nodiscard]] std::size_t natoms() const override { return natoms_; }

  bool next(core::Frame& frame) override {
    Header h;
    if (!read_header(h)) return false;
    // Everything after the header (box, virial, pressure, x, v, f) in one read.
    const std::uint64_t rs = h.real_size;
    const std::uint64_t total = std::uint64_t{0} + static_cast<std::uint32_t>(h.box_size) +
                                static_cast<std::uint32_t>(h.vir_size) + static_cast<std::uint32_t>(h.pres_size) +
                                static_cast<std::uint32_t>(h.x_size) + static_cast<std::uint32_t>(h.v_size) +
                                static_cast<std::uint32_t>(h.f_size);
    in_.read_block(block_, total, "box and coordinates");

    const std::uint8_t* p = block_.data();
    frame.step = h.step;
    frame.time = h.time;
    frame.scalars.clear();
    frame.scalars["lambda"] = h.lambda;
    frame.box = {};
    if (h.box_size != 0) {
      for (auto& row : frame.box) {
        for (auto& v : row) {
          v = nm_to_angstrom(load_real(p, rs));
          p += rs;
        }
      }
    }
    p += static_cast<std::uint32_t>(h.vir_size) + static_cast<std::uint32_t>(h.pres_size);  // not used
    frame.resize(natoms_);
    if (h.x_size != 0) {
      p = load_vectors(p, rs, nm_to_angstrom, frame.x, frame.y, frame.z);
    } else {
      // A frame written for v or f only: positions are unknown, and NaN says so loudly.
      const double nan = std::numeric_limits<double>::quiet_NaN();
      for (auto* a : {&frame.x, &frame.y, &frame.z}) a->assign(natoms_, nan);
    }
    frame.resize_velocities(h.v_size != 0 ? natoms_ : 0);
    if (h.v_size != 0) p = load_vectors(p, rs, nm_to_angstrom, frame.vx, frame.vy, frame.vz);
    frame.resize_forces(h.f_size != 0 ? natoms_ : 0);
    if (h.f_size != 0) load_vectors(p, rs, per_nm_to_per_angstrom, frame.fx, frame.fy, frame.fz);
    in_.end_frame();
    return true;
  }

 private:
  static double load_real(const std::uint8_t* p, std::size_t rs) {
    return rs == 8 ? std::bit_cast<double>(xdr::load_u64(p))
                   : static_cast<double>(std::bit_cast<float>(xdr::load_u32(p)));
  }

  // `convert` turns a GROMACS value into molstep units.
  template <typename Convert>
  const std::uint8_t* load_vectors(const std::uint8_t* p, std::size_t rs, Convert convert, std::vector<double>& x,
                                   std::vector<double>& y, std::vector<double>& z) const {
    for (std::size_t i = 0; i < natoms_; ++i, p += 3 * rs) {
      x[i] = convert(load_real(p, rs));
      y[i] = convert(load_real(p + rs, rs));
      z[i] = convert(load_real(p + 2 * rs, rs));
    }
    return p;
  }

  // Reads and checks one frame header; false at a clean end of file.
  bool read_header(Header& h) {
    const std::uint64_t start = in_.offset();
    std::uint8_t head[12];
    const auto got = in_.read(head, sizeof head);
    if (got == 0) return false;
    if (got < sizeof head) in_.truncated(start, sizeof head, "frame header");
    xdr::Reader r(head, sizeof head, start);
    const auto magic = r.read_int();
    if (magic != kMagic) in_.fail(start, fmt::format("expected magic {}, found {}", kMagic, magic));
    const auto slen = r.read_int();
    const auto len = r.read_int();
    if (len < 0 || len > kMaxVersionLength || slen != len + 1) {
      in_.fail(start + 4, fmt::format("expected the version string \"{}\" (lengths {} and {}), found lengths {} and {}",
                                      kVersion, kVersion.size() + 1, kVersion.size(), slen, len));
    }
    const std::uint64_t version_at = in_.offset();
    const auto version_bytes = static_cast<std::size_t>(xdr::padded(static_cast<std::uint64_t>(len)));
    std::array<std::uint8_t, xdr::padded(kMaxVersionLength)> version{};
    in_.read_exact(version.data(), version_bytes, "version string");
    const std::string_view version_text(reinterpret_cast<const char*>(version.data()), static_cast<std::size_t>(len));
    if (version_text != kVersion) {
      in_.fail(version_at, fmt::format("expected version string \"{}\", found \"{}\"", kVersion, version_text));
    }

    const std::uint64_t sizes_at = in_.offset();
    std::uint8_t sizes[kSizesBytes];
    in_.read_exact(sizes, kSizesBytes, "frame header");
    xdr::Reader s(sizes, kSizesBytes, sizes_at);
    for (auto* v : {&h.ir_size, &h.e_size, &h.box_size, &h.vir_size, &h.pres_size, &h.top_size, &h.sym_size,
                    &h.x_size, &h.v_size, &h.f_size, &h.natoms, &h.step, &h.nre}) {
      *v = s.read_int();
    }
    check_sizes(h, sizes_at);

    std::uint8_t reals[16];
    in_.read_exact(reals, 2 * h.real_size, "frame header");
    h.time = load_real(reals, h.real_size);
    h.lambda = load_real(reals + h.real_size, h.real_size);
    return true;
  }

  // The block sizes must describe this file's atoms in one precision: this is how the
  // precision is found, and it bounds every later read.
  void check_sizes(Header& h, std::uint64_t at) const {
    const auto field_at = [at](int index) { return at + 4 * static_cast<std::uint64_t>(index); };
    const std::pair<const char*, std::int32_t> legacy[] = {
        {"ir_size", h.ir_size}, {"e_size", h.e_size}, {"top_size", h.top_size}, {"sym_size", h.sym_size}};
    const int legacy_index[] = {0, 1, 5, 6};
    for (int k = 0; k < 4; ++k) {
      if (legacy[k].second != 0) {
        in_.fail(field_at(legacy_index[k]),
                 fmt::format("expected {} 0 (input-record, energy, topology and symmetry blocks are not supported), "
                             "found {}",
                             legacy[k].first, legacy[k].second));
      }
    }
    if (h.natoms < 0) in_.fail(field_at(10), fmt::format("expected a number of atoms >= 0, found {}", h.natoms));
    if (in_.frame() > 0 && static_cast<std::size_t>(h.natoms) != natoms_) {
      in_.fail(field_at(10), fmt::format("expected natoms {} (as in frame 0), found {}", natoms_, h.natoms));
    }
    const std::int64_t n3 = 3 * std::int64_t{h.natoms};
    std::int64_t real_size = 0;
    if (h.box_size != 0) {
      real_size = h.box_size / 9;
    } else if (n3 > 0 && h.x_size != 0) {
      real_size = h.x_size / n3;
    } else if (n3 > 0 && h.v_size != 0) {
      real_size = h.v_size / n3;
    } else if (n3 > 0 && h.f_size != 0) {
      real_size = h.f_size / n3;
    } else if (h.vir_size != 0) {
      real_size = h.vir_size / 9;
    } else if (h.pres_size != 0) {
      real_size = h.pres_size / 9;
    } else {
      real_size = 4;  // nothing but time and lambda: GROMACS writes such frames in float
    }
    if (real_size != 4 && real_size != 8) {
      in_.fail(field_at(2), fmt::format("the block sizes (box {}, x {}, v {}, f {} for {} atoms) match neither float "
                                        "nor double precision",
                                        h.box_size, h.x_size, h.v_size, h.f_size, h.natoms));
    }
    h.real_size = static_cast<std::size_t>(real_size);
    const char* precision = real_size == 8 ? "double" : "float";
    const std::tuple<const char*, std::int32_t, std::int64_t, int> blocks[] = {
        {"box_size", h.box_size, 9 * real_size, 2},   {"vir_size", h.vir_size, 9 * real_size, 3},
        {"pres_size", h.pres_size, 9 * real_size, 4}, {"x_size", h.x_size, n3 * real_size, 7},
        {"v_size", h.v_size, n3 * real_size, 8},      {"f_size", h.f_size, n3 * real_size, 9}};
    for (const auto& [name, size, expected, index] : blocks) {
      if (size != 0 && size != expected) {
        in_.fail(field_at(index), fmt::format("expected {} 0 or {} ({} atoms in {}), found {}", name, expected,
                                              h.natoms, precision, size));
      }
    }
  }

  xdr::FrameInput in_;
  std::size_t natoms_ = 0;
  std::vector<std::uint8_t> block_;
};

class TrrWriter final : public TrajectoryWriter {
 public:
  TrrWriter(const std::filesystem::path& path, std::size_t natoms) : file_(path, natoms, "TRR"), natoms_(natoms) {
    // 3 * natoms * 4 bytes must fit the header's 32-bit size fields.
    if (natoms > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() / 12)) {
      throw Error(fmt::format("{}: {} atoms are more than TRR can store", path.string(), natoms));
    }
  }

  void write(const core::Frame& frame) override {
    xdr::Writer& out = file_.begin_frame(frame);
    // NaN positions are how the reader marks a frame stored without them; keep it that way.
    const bool has_x = std::any_of(frame.x.begin(), frame.x.end(), [](double v) { return !std::isnan(v); });
    const bool has_v = frame.has_velocities();
    const bool has_f = frame.has_forces();
    if (has_v && (frame.vx.size() != natoms_ || frame.vy.size() != natoms_ || frame.vz.size() != natoms_)) {
      file_.fail(fmt::format("has {} velocities for {} atoms", frame.vx.size(), natoms_));
    }
    if (has_f && (frame.fx.size() != natoms_ || frame.fy.size() != natoms_ || frame.fz.size() != natoms_)) {
      file_.fail(fmt::format("has {} forces for {} atoms", frame.fx.size(), natoms_));
    }
    const auto vec_bytes = static_cast<std::int32_t>(12 * natoms_);
    out.write_int(kMagic);
    out.write_int(static_cast<std::int32_t>(kVersion.size() + 1));
    out.write_int(static_cast<std::int32_t>(kVersion.size()));
    out.write_opaque({reinterpret_cast<const std::uint8_t*>(kVersion.data()), kVersion.size()});
    for (const std::int32_t v : {0, 0, 9 * 4, 0, 0, 0, 0}) out.write_int(v);  // ir, e, box, vir, pres, top, sym
    out.write_int(has_x ? vec_bytes : 0);
    out.write_int(has_v ? vec_bytes : 0);
    out.write_int(has_f ? vec_bytes : 0);
    out.write_int(static_cast<std::int32_t>(natoms_));
    out.write_int(static_cast<std::int32_t>(frame.step));
    out.write_int(0);  // nre
    out.write_float(static_cast<float>(frame.time));
    const auto lambda = frame.scalars.find("lambda");
    out.write_float(lambda != frame.scalars.end() ? static_cast<float>(lambda->second) : 0.0f);
    for (const auto& row : frame.box) {
      for (const double v : row) out.write_float(static_cast<float>(angstrom_to_nm(v)));
    }
    if (has_x) write_vectors(out, frame.x, frame.y, frame.z, angstrom_to_nm);
    if (has_v) write_vectors(out, frame.vx, frame.vy, frame.vz, angstrom_to_nm);
    if (has_f) write_vectors(out, frame.fx, frame.fy, frame.fz, per_angstrom_to_per_nm);
    file_.end_frame();
  }

  void close() override { file_.close(); }

 private:
  template <typename Convert>
  void write_vectors(xdr::Writer& out, const std::vector<double>& x, const std::vector<double>& y,
                     const std::vector<double>& z, Convert convert) const {
    for (std::size_t i = 0; i < natoms_; ++i) {
      out.write_float(static_cast<float>(convert(x[i])));
      out.write_float(static_cast<float>(convert(y[i])));
      out.write_float(static_cast<float>(convert(z[i])));
    }
  }

  xdr::FrameOutput file_;
  std::size_t natoms_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> open_trr(const std::filesystem::path& path) {
  return std::make_unique<TrrReader>(path);
}

std::unique_ptr<TrajectoryWriter> create_trr(const std::filesystem::path& path, std::size_t natoms) {
  return std::make_unique<TrrWriter>(path, natoms);
}

}  // namespace molstep::io
