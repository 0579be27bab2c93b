// SPDX-License-Identifier: MIT
#include "molstep/io/xtc.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<Frame> read_all(const fs::path& path) {
  auto reader = molstep::io::open_xtc(path);
  auto frames = molstep::test::read_all(*reader);
  Frame f;
  EXPECT_FALSE(reader->next(f)) << "a reader at its end stays there";
  return frames;
}

// Our reading of `file` must give exactly the float values MDAnalysis gives.
void expect_matches_reference(const fs::path& file, const fs::path& reference) {
  const auto ref = read_float_reference(reference);
  auto reader = molstep::io::open_xtc(file);
  ASSERT_EQ(reader->natoms(), ref.natoms);
  Frame f;
  for (std::size_t n = 0; n < ref.frames.size(); ++n) {
    const FloatRefFrame& r = ref.frames[n];
    ASSERT_TRUE(reader->next(f)) << "frame " << n;
    ASSERT_EQ(f.natoms(), ref.natoms);
    EXPECT_EQ(f.step, r.step);
    EXPECT_EQ(static_cast<float>(f.time), static_cast<float>(r.time));
    ASSERT_EQ(r.box.size(), 9U);
    for (int k = 0; k < 9; ++k) EXPECT_EQ(static_cast<float>(f.box[k / 3][k % 3]), r.box[k]) << "box " << k;
    const auto lengths_angles = molstep::core::box_lengths_angles(f.box);
    for (int k = 0; k < 6; ++k) EXPECT_NEAR(lengths_angles[k], r.dims[k], 1e-4 * std::abs(r.dims[k]) + 1e-4);
    EXPECT_FALSE(f.has_velocities());
    EXPECT_FALSE(f.has_forces());
    std::size_t off = 0;
    for (std::size_t i = 0; i < ref.natoms; ++i) {
      const float ours[3] = {static_cast<float>(f.x[i]), static_cast<float>(f.y[i]), static_cast<float>(f.z[i])};
      for (int k = 0; k < 3; ++k) {
        if (ours[k] != r.x[3 * i + k] && ++off <= 5) {
          ADD_FAILURE() << "frame " << n << " atom " << i << " coordinate " << k << ": " << ours[k]
                        << " vs MDAnalysis " << r.x[3 * i + k];
        }
      }
    }
    EXPECT_EQ(off, 0U) << "frame " << n;
  }
  EXPECT_FALSE(reader->next(f));
}

// --- Synthetic frames, the same on every platform (integer hashing and basic arithmetic) ---

// Water-like triplets (O then two H about 1 A away) in a triclinic box, drifting frame to
// frame; atoms past the last full molecule are scattered ions.
std::vector<Frame> synthetic_frames(std::size_t natoms, std::size_t nframes, std::uint64_t seed) {
  SplitMix rng{seed};
  std::vector<Frame> frames(nframes);
  Frame f;
  f.resize(natoms);
  f.box = {{{31.0, 0.0, 0.0}, {10.0, 29.0, 0.0}, {-5.0, 7.0, 27.5}}};
  for (std::size_t i = 0; i < natoms; ++i) {
    const bool hydrogen = i % 3 != 0 && i - i % 3 + 2 < natoms;
    if (hydrogen) {
      const std::size_t o = i - i % 3;
      f.x[i] = f.x[o] + rng.uniform() * 1.6 - 0.8;
      f.y[i] = f.y[o] + rng.uniform() * 1.6 - 0.8;
      f.z[i] = f.z[o] + rng.uniform() * 1.6 - 0.8;
    } else {
      f.x[i] = rng.uniform() * 40.0 - 5.0;
      f.y[i] = rng.uniform() * 35.0 - 3.0;
      f.z[i] = rng.uniform() * 30.0;
    }
  }
  for (std::size_t n = 0; n < nframes; ++n) {
    f.step = static_cast<std::int64_t>(n) * 500 - 1000;
    f.time = 0.25 * static_cast<double>(n) + 3.0;
    for (std::size_t i = 0; i < natoms; ++i) {
      f.x[i] += rng.uniform() * 0.2 - 0.1;
      f.y[i] += rng.uniform() * 0.2 - 0.1;
      f.z[i] += rng.uniform() * 0.2 - 0.1;
    }
    f.box[0][0] += 0.01;
    frames[n] = f;
  }
  return frames;
}

// The frames behind tests/data/traj/xtc_molstep.xtc: 61 atoms, 4 frames; in frame 2 one atom
// is 20 um away, so that frame spans more than 2^24 steps of 1/precision nm and needs the wide
// encoding (one bit field per coordinate).
std::vector<Frame> molstep_reference_frames() {
  auto frames = synthetic_frames(61, 4, 2024);
  frames[2].x[60] = -200000.0;
  frames[2].y[60] = 201000.25;
  return frames;
}

void write_xtc(const fs::path& path, const std::vector<Frame>& frames, float precision = 1000.0f) {
  auto w = molstep::io::create_xtc(path, frames.front().natoms(), precision);
  for (const auto& f : frames) w->write(f);
  w->close();
}

// Reading back what we wrote gives the input rounded to 1/precision nm.
void expect_round_trip(const std::vector<Frame>& in, const std::vector<Frame>& out, float precision) {
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t n = 0; n < in.size(); ++n) {
    EXPECT_EQ(out[n].step, in[n].step);
    EXPECT_EQ(out[n].time, static_cast<double>(static_cast<float>(in[n].time)));
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) EXPECT_FLOAT_EQ(out[n].box[a][b], in[n].box[a][b]);
    }
    ASSERT_EQ(out[n].natoms(), in[n].natoms());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < in[n].natoms(); ++i) {
      const double pairs[3][2] = {{in[n].x[i], out[n].x[i]}, {in[n].y[i], out[n].y[i]}, {in[n].z[i], out[n].z[i]}};
      for (const auto& p : pairs) {
        // Half a quantisation step (in A), plus float rounding of the nm value.
        const double tol = 0.5 * 10.0 / precision * (1 + 1e-5) + std::abs(p[0]) * 2e-7;
        if (!(std::abs(p[1] - p[0]) <= tol) && ++bad <= 5) {
          ADD_FAILURE() << "frame " << n << " atom " << i << ": " << p[1] << " vs " << p[0] << " (tol " << tol << ")";
        }
      }
    }
    EXPECT_EQ(bad, 0U) << "frame " << n;
  }
}

// Start offsets of the frames of an XTC file with more than 9 atoms.
std::vector<std::size_t> frame_offsets(const std::vector<char>& bytes) {
  const auto u32 = [&](std::size_t at) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  };
  std::vector<std::size_t> offsets;
  for (std::size_t at = 0; at < bytes.size();) {
    offsets.push_back(at);
    at += 92 + ((u32(at + 88) + 3) & ~3U);
  }
  return offsets;
}

class XtcFiles : public ScratchDirTest {
 protected:
  XtcFiles() : ScratchDirTest("xtc-") {}
};

class XtcErrors : public XtcFiles {
 protected:
  void SetUp() override {
    XtcFiles::SetUp();
    bytes_ = read_bytes(traj_data("xtc_water.xtc"));
    offsets_ = frame_offsets(bytes_);
    ASSERT_EQ(offsets_.size(), 11U);
  }

  // Reads `bytes` as an XTC file to the end and returns the error it must raise.
  Error read_error(const std::vector<char>& bytes) {
    return reading_error(dir_ / "traj.xtc", bytes, molstep::io::open_xtc);
  }

  void expect_error(const std::vector<char>& bytes, const std::string& message) {
    expect_reading_error(dir_ / "traj.xtc", bytes, molstep::io::open_xtc, message);
  }

  std::vector<char> bytes_;
  std::vector<std::size_t> offsets_;
};

}  // namespace

TEST(XtcReader, MatchesMdanalysisOnGromacsFile) {
  expect_matches_reference(traj_data("xtc_water.xtc"), traj_data("xtc_water.mda.txt"));
  const auto frames = read_all(traj_data("xtc_water.xtc"));
  ASSERT_EQ(frames.size(), 11U);
  EXPECT_EQ(frames.back().step, 50);
  EXPECT_NEAR(frames.back().time, 0.1, 1e-7);
  EXPECT_FALSE(frames[0].orthorhombic());  // a rhombic dodecahedron
  EXPECT_EQ(frames[0].box[2][0], static_cast<double>(0.9f) * 10);
}

TEST(XtcReader, MatchesMdanalysisOnUncompressedFrames) {
  // At most 9 atoms: GROMACS stores plain floats.
  expect_matches_reference(traj_data("xtc_tiny.xtc"), traj_data("xtc_tiny.mda.txt"));
  const auto frames = read_all(traj_data("xtc_tiny.xtc"));
  ASSERT_EQ(frames.size(), 2U);
  EXPECT_EQ(frames[1].time, 2.5);
  EXPECT_EQ(frames[1].x[0], static_cast<double>(-0.126f) * 10);
  EXPECT_EQ(frames[1].z[3], static_cast<double>(12.134f) * 10);
}

TEST_F(XtcFiles, RewritesGromacsFilesByteForByte) {
  // Reading gives the file's floats times 10 exactly, and writing divides by 10, so our
  // writer sees the same quantised integers as GROMACS did: the bytes must agree.
  for (const char* name : {"xtc_water.xtc", "xtc_tiny.xtc"}) {
    const auto frames = read_all(traj_data(name));
    const auto out = dir_ / name;
    write_xtc(out, frames);
    EXPECT_EQ(read_bytes(out), read_bytes(traj_data(name))) << name;
  }
}

TEST_F(XtcFiles, RoundTripIsWithinPrecision) {
  for (const float precision : {1000.0f, 100.0f, 12345.0f, 3.0f}) {
    for (const std::size_t natoms : {1U, 2U, 9U, 10U, 11U, 333U, 2000U}) {
      const auto in = synthetic_frames(natoms, 3, natoms * 7 + static_cast<std::uint64_t>(precision));
      const auto path = dir_ / "rt.xtc";
      write_xtc(path, in, precision);
      SCOPED_TRACE("precision " + std::to_string(precision) + ", " + std::to_string(natoms) + " atoms");
      if (natoms <= 9) {
        // Uncompressed: exactly the nm floats.
        const auto out = read_all(path);
        ASSERT_EQ(out.size(), in.size());
        for (std::size_t i = 0; i < natoms; ++i) {
          EXPECT_EQ(out[1].x[i], static_cast<double>(static_cast<float>(in[1].x[i] / 10)) * 10);
        }
      } else {
        expect_round_trip(in, read_all(path), precision);
      }
    }
  }
}

TEST_F(XtcFiles, RoundTripsFarApartAtomsAndLargeSystems) {
  // Atoms 20 um apart need a field per coordinate (sizes over 2^24); identical atoms and long
  // runs of close atoms exercise the small-difference widths at both ends.
  const auto frames = molstep_reference_frames();
  write_xtc(dir_ / "far.xtc", frames);
  expect_round_trip(frames, read_all(dir_ / "far.xtc"), 1000.0f);

  auto big = synthetic_frames(100000, 2, 99);
  for (std::size_t i = 50000; i < 50100; ++i) {
    big[1].x[i] = big[1].x[50000];
    big[1].y[i] = big[1].y[50000];
    big[1].z[i] = big[1].z[50000];
  }
  for (std::size_t i = 60000; i < 61000; ++i) big[1].x[i] = 1.0 + 0.01 * static_cast<double>(i - 60000);
  write_xtc(dir_ / "big.xtc", big);
  expect_round_trip(big, read_all(dir_ / "big.xtc"), 1000.0f);
}

TEST_F(XtcFiles, MdanalysisReadsOurFileAsWeDo) {
  // tests/data/traj/xtc_molstep.xtc was written by this writer from these frames, and
  // xtc_molstep.mda.txt is what MDAnalysis read from it (make_mdanalysis.py). The writer
  // must still produce those bytes, and our reader must agree with MDAnalysis on them.
  const auto frames = molstep_reference_frames();
  const auto out = dir_ / "xtc_molstep.xtc";
  write_xtc(out, frames);
  if (const char* update = std::getenv("MOLSTEP_UPDATE_TRAJ_DATA")) {
    fs::copy_file(out, fs::path(update) / "xtc_molstep.xtc", fs::copy_options::overwrite_existing);
  }
  EXPECT_EQ(read_bytes(out), read_bytes(traj_data("xtc_molstep.xtc")));
  expect_matches_reference(out, traj_data("xtc_molstep.mda.txt"));
  expect_round_trip(frames, read_all(out), 1000.0f);
}

TEST_F(XtcFiles, WriterCommitsOnlyOnClose) {
  const auto frames = synthetic_frames(20, 2, 5);
  const auto path = dir_ / "atomic.xtc";
  {
    auto w = molstep::io::create_xtc(path, 20);
    w->write(frames[0]);
    EXPECT_FALSE(fs::exists(path));
  }  // dropped without close(): nothing appears
  EXPECT_TRUE(fs::is_empty(dir_));
  write_xtc(path, frames);
  EXPECT_EQ(read_all(path).size(), 2U);
}

TEST_F(XtcFiles, WriterRejectsBadFrames) {
  auto frames = synthetic_frames(20, 1, 5);
  auto w = molstep::io::create_xtc(dir_ / "bad.xtc", 21);
  try {
    w->write(frames[0]);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("frame 0: has 20 atoms, the file was created for 21"), std::string::npos) << e.what();
  }
  auto w2 = molstep::io::create_xtc(dir_ / "bad2.xtc", 20);
  frames[0].y[7] = 1e30;
  try {
    w2->write(frames[0]);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("coordinate y of atom 7"), std::string::npos) << e.what();
  }
  frames[0].y[7] = std::nan("");
  EXPECT_THROW(w2->write(frames[0]), Error);
  EXPECT_THROW(molstep::io::create_xtc(dir_ / "bad3.xtc", 5, 0.0f), Error);
}

TEST_F(XtcErrors, WrongMagic) {
  put_u32(bytes_, offsets_[3], 7);
  expect_error(bytes_, "frame 3 at byte " + std::to_string(offsets_[3]) + ": expected magic 1995, found 7");
  EXPECT_THROW(molstep::io::open_xtc(traj_data("trr_water.trr")), Error);
}

TEST_F(XtcErrors, TruncatedInFrameHeader) {
  bytes_.resize(offsets_[2] + 20);
  expect_error(bytes_, "truncated: frame 2 needs 56 bytes of frame header at byte " + std::to_string(offsets_[2]) +
                           ", file ends at " + std::to_string(bytes_.size()));
}

TEST_F(XtcErrors, TruncatedInBlockHeader) {
  bytes_.resize(offsets_[2] + 70);
  expect_error(bytes_, "truncated: frame 2 needs 36 bytes of compressed block header at byte " +
                           std::to_string(offsets_[2] + 56) + ", file ends at " + std::to_string(bytes_.size()));
}

TEST_F(XtcErrors, TruncatedInCoordinates) {
  const std::size_t stored = offsets_[3] - offsets_[2] - 92;
  bytes_.resize(offsets_[2] + 92 + 100);
  expect_error(bytes_, "truncated: frame 2 needs " + std::to_string(stored) +
                           " bytes of compressed coordinates at byte " + std::to_string(offsets_[2] + 92) +
                           ", file ends at " + std::to_string(bytes_.size()));
}

TEST_F(XtcErrors, CleanEndAtFrameBoundary) {
  bytes_.resize(offsets_[5]);
  write_bytes(dir_ / "five.xtc", bytes_);
  EXPECT_EQ(read_all(dir_ / "five.xtc").size(), 5U);
}

TEST_F(XtcErrors, EmptyFile) {
  const Error e = read_error({});
  EXPECT_EQ(e.message(), "frame 0 at byte 0: empty file: expected an XTC frame (magic 1995)");
}

TEST_F(XtcErrors, NatomsChangesMidFile) {
  put_u32(bytes_, offsets_[4] + 4, 377);
  expect_error(bytes_, "frame 4 at byte " + std::to_string(offsets_[4] + 4) +
                           ": expected natoms 378 (as in frame 0), found 377");
  bytes_ = read_bytes(traj_data("xtc_water.xtc"));
  put_u32(bytes_, offsets_[4] + 52, 379);
  expect_error(bytes_, "frame 4 at byte " + std::to_string(offsets_[4] + 52) +
                           ": expected natoms 378 repeated before the coordinates (as in frame 0), found 379");
}

TEST_F(XtcErrors, BadBlockHeader) {
  auto bytes = bytes_;
  put_u32(bytes, offsets_[1] + 84, 100);  // smallidx
  expect_error(bytes, "frame 1 at byte " + std::to_string(offsets_[1] + 84) + ": expected smallidx in 9..72, found 100");
  bytes = bytes_;
  put_u32(bytes, offsets_[1] + 88, 0x7fffffff);  // byte count
  expect_error(bytes, "frame 1 at byte " + std::to_string(offsets_[1] + 88) +
                          ": expected a compressed size of at most 6112 bytes for 378 atoms, found 2147483647");
  bytes = bytes_;
  put_u32(bytes, offsets_[1] + 60, 5000);  // minint x above maxint x
  const Error e = read_error(bytes);
  EXPECT_EQ(e.message().rfind("frame 1 at byte " + std::to_string(offsets_[1] + 60) + ": expected minint[0] <= maxint[0]", 0), 0U)
      << e.message();
  bytes = bytes_;
  put_u32(bytes, offsets_[1] + 56, 0);  // precision 0
  EXPECT_NE(read_error(bytes).message().find("expected a positive precision, found 0"), std::string::npos);
}

TEST_F(XtcErrors, GarbageInCompressedBits) {
  const std::size_t begin = offsets_[1] + 92;
  const std::size_t end = offsets_[2];
  // All ones: the first atom already lies outside the bounding box.
  auto bytes = bytes_;
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(begin), bytes.begin() + static_cast<std::ptrdiff_t>(end),
            static_cast<char>(0xff));
  expect_error(bytes, "frame 1 at byte " + std::to_string(begin) +
                          ": atom 0 lies outside the frame's bounding box (corrupt compressed data)");
  // All zeros: every atom takes the full width and no runs, so the data ends too early.
  bytes = bytes_;
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(begin), bytes.begin() + static_cast<std::ptrdiff_t>(end), 0);
  Error e = read_error(bytes);
  EXPECT_NE(e.message().find("frame 1 at byte "), std::string::npos);
  EXPECT_NE(e.message().find("the compressed data ends inside atom"), std::string::npos) << e.message();

  // Random bytes and single flipped bits must give an error or a frame, never a crash or a
  // read out of bounds (run this test under -fsanitize=address to see the latter).
  SplitMix rng{17};
  int errors = 0, decoded = 0;
  for (int trial = 0; trial < 100; ++trial) {
    bytes = bytes_;
    if (trial < 40) {
      for (std::size_t k = begin; k < end; ++k) bytes[k] = static_cast<char>(rng.next());
    } else {
      const std::size_t bit = rng.next() % ((end - begin) * 8);
      bytes[begin + bit / 8] = static_cast<char>(bytes[begin + bit / 8] ^ (1 << (bit % 8)));
    }
    const auto path = dir_ / "fuzz.xtc";
    write_bytes(path, bytes);
    try {
      auto r = molstep::io::open_xtc(path);
      Frame f;
      while (r->next(f)) {
      }
      ++decoded;
    } catch (const Error& err) {
      ++errors;
      EXPECT_NE(std::string(err.what()).find("frame 1 at byte "), std::string::npos) << err.what();
    }
  }
  EXPECT_EQ(errors + decoded, 100);
  EXPECT_GT(errors, 40);  // every random block is caught; most flipped bits too
}
