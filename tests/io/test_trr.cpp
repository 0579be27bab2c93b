// SPDX-License-Identifier: MIT
#include "molstep/io/trr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "io/file_bytes.hpp"
#include "io/mda_float_reference.hpp"
#include "io/reader_error.hpp"
#include "io/scratch_dir_test.hpp"
#include "io/split_mix.hpp"
#include "io/traj_reference.hpp"
#include "molstep/core/error.hpp"
#include "molstep/core/frame.hpp"

namespace fs = std::filesystem;
using molstep::Error;
using molstep::core::Frame;
using namespace molstep::test;

namespace {

std::int64_t ulps(float a, float b) {
  return std::llabs(std::int64_t{std::bit_cast<std::int32_t>(a)} - std::bit_cast<std::int32_t>(b));
}

// Compares one array of our frame with MDAnalysis': how many components differ, and the
// largest difference in float ulps.
struct Diff {
  std::size_t differ = 0;
  std::int64_t max_ulps = 0;
};
Diff compare(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z,
             const std::vector<float>& ref) {
  Diff d;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float ours[3] = {static_cast<float>(x[i]), static_cast<float>(y[i]), static_cast<float>(z[i])};
    for (int k = 0; k < 3; ++k) {
      const auto u = ulps(ours[k], ref[3 * i + static_cast<std::size_t>(k)]);
      d.differ += u != 0;
      d.max_ulps = std::max(d.max_ulps, u);
    }
  }
  return d;
}

std::vector<Frame> read_all(const fs::path& path) {
  auto reader = molstep::io::open_trr(path);
  auto frames = molstep::test::read_all(*reader);
  Frame f;
  EXPECT_FALSE(reader->next(f));
  return frames;
}

void write_trr(const fs::path& path, const std::vector<Frame>& frames) {
  auto w = molstep::io::create_trr(path, frames.front().natoms());
  for (const auto& f : frames) w->write(f);
  w->close();
}

// Our reading of `file` against MDAnalysis'. Positions and velocities (nm times 10) must be
// the same floats when the file is single precision. Forces may differ by one float ulp:
// MDAnalysis multiplies by float32(0.1), molstep divides by 10 in double, which is exact to
// the last bit. In a double-precision file MDAnalysis first rounds to float32, so there
// everything may differ by one ulp.
void expect_matches_reference(const fs::path& file, const fs::path& reference, bool double_precision) {
  const auto ref = read_float_reference(reference);
  const auto frames = read_all(file);
  ASSERT_EQ(frames.size(), ref.frames.size());
  const std::int64_t exact = double_precision ? 1 : 0;
  for (std::size_t n = 0; n < frames.size(); ++n) {
    SCOPED_TRACE("frame " + std::to_string(n));
    const Frame& f = frames[n];
    const FloatRefFrame& r = ref.frames[n];
    ASSERT_EQ(f.natoms(), ref.natoms);
    EXPECT_EQ(f.step, r.step);
    EXPECT_EQ(static_cast<float>(f.time), static_cast<float>(r.time));
    EXPECT_EQ(f.scalars.at("lambda"), r.lambda);
    for (int k = 0; k < 9; ++k) EXPECT_LE(ulps(static_cast<float>(f.box[k / 3][k % 3]), r.box[k]), exact);
    const auto has = [&](const char* name) { return std::find(r.arrays.begin(), r.arrays.end(), name) != r.arrays.end(); };
    if (has("x")) {
      const Diff d = compare(f.x, f.y, f.z, r.x);
      EXPECT_LE(d.max_ulps, exact) << d.differ << " position components differ";
    } else {
      for (std::size_t i = 0; i < f.natoms(); ++i) ASSERT_TRUE(std::isnan(f.x[i]) && std::isnan(f.z[i]));
    }
    ASSERT_EQ(f.has_velocities(), has("v"));
    if (has("v")) {
      const Diff d = compare(f.vx, f.vy, f.vz, r.v);
      EXPECT_LE(d.max_ulps, exact) << d.differ << " velocity components differ";
    }
    ASSERT_EQ(f.has_forces(), has("f"));
    if (has("f")) {
      const Diff d = compare(f.fx, f.fy, f.fz, r.f);
      EXPECT_LE(d.max_ulps, 1) << d.differ << " force components differ";
    }
  }
}

// Fills x, y, z atom by atom with values uniform in [lo, hi) (this order of draws made the
// stored file).
void fill_uniform(SplitMix& rng, std::vector<double>& x, std::vector<double>& y, std::vector<double>& z, double lo,
                  double hi) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = rng.uniform(lo, hi);
    y[i] = rng.uniform(lo, hi);
    z[i] = rng.uniform(lo, hi);
  }
}

// The frames behind tests/data/traj/trr_molstep.trr: 12 atoms; frame 0 has x, v and f,
// frame 1 x only, frame 2 x and f, frame 3 velocities only (positions NaN, as the reader
// gives them for such frames).
std::vector<Frame> molstep_reference_frames() {
  SplitMix rng{77};
  std::vector<Frame> frames(4);
  for (std::size_t n = 0; n < frames.size(); ++n) {
    Frame& f = frames[n];
    f.step = 100 * static_cast<std::int64_t>(n);
    f.time = 0.2 * static_cast<double>(n);
    f.box = {{{25.0, 0.0, 0.0}, {3.0, 24.0, 0.0}, {-2.0, 4.0, 23.0}}};
    f.scalars["lambda"] = 0.125 * static_cast<double>(n);
    f.resize(12);
    fill_uniform(rng, f.x, f.y, f.z, -5, 30);
    if (n == 0 || n == 3) {
      f.resize_velocities(12);
      fill_uniform(rng, f.vx, f.vy, f.vz, -10, 10);
    }
    if (n == 0 || n == 2) {
      f.resize_forces(12);
      fill_uniform(rng, f.fx, f.fy, f.fz, -300, 300);
    }
    if (n == 3) {
      for (auto* a : {&f.x, &f.y, &f.z}) a->assign(12, std::nan(""));
    }
  }
  return frames;
}

// What a single-precision file holds for `v` after the writer's conversion, read back.
double via_float_nm(double v) { return static_cast<double>(static_cast<float>(v / 10)) * 10; }
double via_float_per_nm(double v) { return static_cast<double>(static_cast<float>(v * 10)) / 10; }

void expect_round_trip(const std::vector<Frame>& in, const std::vector<Frame>& out) {
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t n = 0; n < in.size(); ++n) {
    SCOPED_TRACE("frame " + std::to_string(n));
    const Frame& a = in[n];
    const Frame& b = out[n];
    EXPECT_EQ(b.step, a.step);
    EXPECT_EQ(b.time, static_cast<double>(static_cast<float>(a.time)));
    const auto lambda = a.scalars.find("lambda");
    EXPECT_EQ(b.scalars.at("lambda"), lambda == a.scalars.end() ? 0.0 : static_cast<float>(lambda->second));
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) EXPECT_EQ(b.box[r][c], via_float_nm(a.box[r][c]));
    }
    ASSERT_EQ(b.natoms(), a.natoms());
    ASSERT_EQ(b.has_velocities(), a.has_velocities());
    ASSERT_EQ(b.has_forces(), a.has_forces());
    for (std::size_t i = 0; i < a.natoms(); ++i) {
      if (std::isnan(a.x[i])) {
        EXPECT_TRUE(std::isnan(b.x[i]));
      } else {
        ASSERT_EQ(b.x[i], via_float_nm(a.x[i]));
        ASSERT_EQ(b.z[i], via_float_nm(a.z[i]));
      }
      if (a.has_velocities()) {
        ASSERT_EQ(b.vy[i], via_float_nm(a.vy[i]));
      }
      if (a.has_forces()) {
        ASSERT_EQ(b.fx[i], via_float_per_nm(a.fx[i]));
      }
    }
  }
}

class TrrFiles : public ScratchDirTest {
 protected:
  TrrFiles() : ScratchDirTest("trr-") {}
};

// trr_water.trr: 3 frames of 378 atoms with box, x, v and f in single precision.
constexpr std::size_t kFrameBytes = 84 + 36 + 3 * 378 * 12;

class TrrErrors : public TrrFiles {
 protected:
  void SetUp() override {
    TrrFiles::SetUp();
    bytes_ = read_bytes(traj_data("trr_water.trr"));
    ASSERT_EQ(bytes_.size(), 3 * kFrameBytes);
  }

  void expect_error(const std::vector<char>& bytes, const std::string& message) {
    expect_reading_error(dir_ / "traj.trr", bytes, molstep::io::open_trr, message);
  }

  std::vector<char> bytes_;
};

}  // namespace

TEST(TrrReader, MatchesMdanalysisOnGromacsFile) {
  expect_matches_reference(traj_data("trr_water.trr"), traj_data("trr_water.mda.txt"), false);
  const auto frames = read_all(traj_data("trr_water.trr"));
  ASSERT_EQ(frames.size(), 3U);
  EXPECT_EQ(frames[2].step, 50);
  EXPECT_EQ(frames[0].box[2][1], static_cast<double>(0.9f) * 10);
}

TEST(TrrReader, MatchesMdanalysisOnDoublePrecisionFile) {
  // gmx_d with x every 20 steps and v every 10: frame 1 has velocities only.
  expect_matches_reference(traj_data("trr_water_double.trr"), traj_data("trr_water_double.mda.txt"), true);
  const auto frames = read_all(traj_data("trr_water_double.trr"));
  ASSERT_EQ(frames.size(), 3U);
  EXPECT_EQ(frames[1].time, 0.02);  // the double itself (MDAnalysis gives float32's 0.0199999996)
  EXPECT_EQ(frames[0].box[2][0], 9.0);
  EXPECT_TRUE(std::isnan(frames[1].x[0]));
  EXPECT_FALSE(std::isnan(frames[2].x[0]));
}

TEST_F(TrrFiles, RewritesGromacsFileByteForByte) {
  write_trr(dir_ / "w.trr", read_all(traj_data("trr_water.trr")));
  EXPECT_EQ(read_bytes(dir_ / "w.trr"), read_bytes(traj_data("trr_water.trr")));
}

TEST_F(TrrFiles, RoundTripsThroughSinglePrecision) {
  const auto frames = molstep_reference_frames();
  write_trr(dir_ / "rt.trr", frames);
  expect_round_trip(frames, read_all(dir_ / "rt.trr"));
  // A double-precision file written back in single precision.
  const auto doubles = read_all(traj_data("trr_water_double.trr"));
  write_trr(dir_ / "d.trr", doubles);
  expect_round_trip(doubles, read_all(dir_ / "d.trr"));
  EXPECT_EQ(fs::file_size(dir_ / "d.trr"), 3 * (84 + 36) + 5 * 378 * 12);  // x absent in frame 1
}

TEST_F(TrrFiles, MdanalysisReadsOurFileAsWeDo) {
  // tests/data/traj/trr_molstep.trr was written by this writer from these frames, and
  // trr_molstep.mda.txt is what MDAnalysis read from it (make_mdanalysis.py).
  const auto out = dir_ / "trr_molstep.trr";
  write_trr(out, molstep_reference_frames());
  if (const char* update = std::getenv("MOLSTEP_UPDATE_TRAJ_DATA")) {
    fs::copy_file(out, fs::path(update) / "trr_molstep.trr", fs::copy_options::overwrite_existing);
  }
  EXPECT_EQ(read_bytes(out), read_bytes(traj_data("trr_molstep.trr")));
  expect_matches_reference(out, traj_data("trr_molstep.mda.txt"), false);
}

TEST_F(TrrFiles, WriterCommitsOnlyOnCloseAndChecksFrames) {
  auto frames = molstep_reference_frames();
  {
    auto w = molstep::io::create_trr(dir_ / "a.trr", 12);
    w->write(frames[0]);
  }
  EXPECT_TRUE(fs::is_empty(dir_));
  auto w = molstep::io::create_trr(dir_ / "b.trr", 12);
  frames[1].resize_velocities(5);
  try {
    w->write(frames[1]);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "frame 0: has 5 velocities for 12 atoms");
  }
  frames[0].step = std::int64_t{1} << 40;
  EXPECT_THROW(w->write(frames[0]), Error);
}

TEST_F(TrrErrors, WrongMagic) {
  put_u32(bytes_, kFrameBytes, 1995);
  expect_error(bytes_, "frame 1 at byte " + std::to_string(kFrameBytes) + ": expected magic 1993, found 1995");
}

TEST_F(TrrErrors, WrongVersionString) {
  bytes_[kFrameBytes + 12] = 'X';
  expect_error(bytes_, "frame 1 at byte " + std::to_string(kFrameBytes + 12) +
                           ": expected version string \"GMX_trn_file\", found \"XMX_trn_file\"");
  bytes_ = read_bytes(traj_data("trr_water.trr"));
  put_u32(bytes_, 8, 1000000);
  expect_error(bytes_, "frame 0 at byte 4: expected the version string \"GMX_trn_file\" (lengths 13 and 12), found "
                       "lengths 13 and 1000000");
}

TEST_F(TrrErrors, TruncatedInHeader) {
  bytes_.resize(2 * kFrameBytes + 30);
  expect_error(bytes_, "truncated: frame 2 needs 52 bytes of frame header at byte " +
                           std::to_string(2 * kFrameBytes + 24) + ", file ends at " + std::to_string(bytes_.size()));
  bytes_.resize(2 * kFrameBytes + 6);
  expect_error(bytes_, "truncated: frame 2 needs 12 bytes of frame header at byte " +
                           std::to_string(2 * kFrameBytes) + ", file ends at " + std::to_string(bytes_.size()));
}

TEST_F(TrrErrors, TruncatedInCoordinates) {
  bytes_.resize(2 * kFrameBytes + 5000);
  expect_error(bytes_, "truncated: frame 2 needs " + std::to_string(kFrameBytes - 84) +
                           " bytes of box and coordinates at byte " + std::to_string(2 * kFrameBytes + 84) +
                           ", file ends at " + std::to_string(bytes_.size()));
}

TEST_F(TrrErrors, CleanEndAtFrameBoundary) {
  bytes_.resize(2 * kFrameBytes);
  write_bytes(dir_ / "two.trr", bytes_);
  EXPECT_EQ(read_all(dir_ / "two.trr").size(), 2U);
}

TEST_F(TrrErrors, NatomsChangesMidFile) {
  put_u32(bytes_, kFrameBytes + 64, 377);
  expect_error(bytes_, "frame 1 at byte " + std::to_string(kFrameBytes + 64) +
                           ": expected natoms 378 (as in frame 0), found 377");
}

TEST_F(TrrErrors, InconsistentBlockSizes) {
  put_u32(bytes_, kFrameBytes + 56, 4536 + 4);  // v_size
  expect_error(bytes_, "frame 1 at byte " + std::to_string(kFrameBytes + 56) +
                           ": expected v_size 0 or 4536 (378 atoms in float), found 4540");
  bytes_ = read_bytes(traj_data("trr_water.trr"));
  put_u32(bytes_, kFrameBytes + 32, 45);  // box_size: 9 values of 5 bytes
  expect_error(bytes_, "frame 1 at byte " + std::to_string(kFrameBytes + 32) +
                           ": the block sizes (box 45, x 4536, v 4536, f 4536 for 378 atoms) match neither float "
                           "nor double precision");
  bytes_ = read_bytes(traj_data("trr_water.trr"));
  put_u32(bytes_, kFrameBytes + 32, 72);  // a double box with float coordinates
  expect_error(bytes_, "frame 1 at byte " + std::to_string(kFrameBytes + 52) +
                           ": expected x_size 0 or 9072 (378 atoms in double), found 4536");
  bytes_ = read_bytes(traj_data("trr_water.trr"));
  put_u32(bytes_, 24, 12);  // ir_size
  expect_error(bytes_, "frame 0 at byte 24: expected ir_size 0 (input-record, energy, topology and symmetry blocks "
                       "are not supported), found 12");
}

TEST_F(TrrErrors, EmptyFileAndWrongFormat) {
  expect_error({}, "frame 0 at byte 0: empty file: expected a TRR frame (magic 1993)");
  expect_error(read_bytes(traj_data("xtc_water.xtc")), "frame 0 at byte 0: expected magic 1993, found 1995");
}
