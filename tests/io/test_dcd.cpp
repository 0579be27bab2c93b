// SPDX-License-Identifier: MIT
#include "molstep/io/dcd.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/traj_reference.hpp"
#include "molstep/core/error.hpp"
#include "molstep/io/lammps_dump_reader.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::core::Frame;
using molstep::io::DcdReader;
using namespace molstep::test;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void put_i32(std::string& bytes, std::size_t at, std::int32_t v) { std::memcpy(bytes.data() + at, &v, 4); }

// Reads a DCD file and compares it, frame by frame, with what MDAnalysis read from it.
void expect_matches_reference(const std::string& dcd, const std::string& reference, bool times = true) {
  const Reference ref = read_reference(reference);
  DcdReader reader(traj_data(dcd));
  ASSERT_EQ(reader.natoms(), ref.natoms);
  const auto frames = read_all(reader);
  ASSERT_EQ(frames.size(), ref.frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const auto& r = ref.frames[k];
    EXPECT_EQ(frames[k].step, r.step);
    if (times) {
      EXPECT_TRUE(near(frames[k].time, r.time, 1e-9, 1e-9));
    }
    // Positions are float32 in the file and in MDAnalysis: the same numbers exactly.
    expect_positions(frames[k], r, 0.0);
    // MDAnalysis keeps dimensions in float32.
    expect_dimensions(frames[k], r, 2e-6);
  }
}

// The 20-atom MDAnalysis file: header 356 bytes (3 title lines), then frames of 320 bytes:
// unit cell record (56) and X, Y, Z records (88 each).
constexpr std::size_t header_bytes = 356;
constexpr std::size_t frame_bytes = 320;

class DcdErrors : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir(std::string("dcd-") + testing::UnitTest::GetInstance()->current_test_info()->name());
    bytes_ = slurp(traj_data("dcd_mda_tric.dcd"));
    ASSERT_EQ(bytes_.size(), header_bytes + 4 * frame_bytes);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  // Writes `bytes` as bad.dcd and reads all of it; returns the error message.
  std::string read_error(const std::string& bytes) {
    path_ = dir_ / "bad.dcd";
    spit(path_, bytes);
    return error_of([&] {
      DcdReader reader(path_);
      read_all(reader);
    });
  }
  fs::path dir_, path_;
  std::string bytes_;
};

}  // namespace

TEST(DcdReader, ReadsMdanalysisWrittenTriclinicFile) {
  expect_matches_reference("dcd_mda_tric.dcd", "dcd_mda_tric.mda.txt");
  DcdReader reader(traj_data("dcd_mda_tric.dcd"));
  const auto& h = reader.header();
  EXPECT_EQ(h.charmm_version, 24);
  EXPECT_TRUE(h.has_unit_cell);
  EXPECT_FALSE(h.big_endian);
  EXPECT_EQ(h.marker_bytes, 4);
  EXPECT_EQ(h.nframes, 4);
  EXPECT_EQ(h.istart, 0);
  EXPECT_EQ(h.nsavc, 1);
  EXPECT_FALSE(h.lammps);
  EXPECT_NE(h.title.find("MDAnalysis DCDWriter"), std::string::npos);
  // MDAnalysis writes the angles in degrees; they come back as written.
  Frame f;
  ASSERT_TRUE(reader.next(f));
  const auto la = molstep::core::box_lengths_angles(f.box);
  EXPECT_NEAR(la[3], 80.0, 1e-12);
  EXPECT_NEAR(la[5], 110.0, 1e-12);
}

TEST(DcdReader, ReadsBigEndianFile) {
  // MDAnalysis 2.4 reads DELTA of big-endian files as garbage (times of 1e37), so the times
  // are checked against the little-endian original, which holds the same numbers.
  expect_matches_reference("dcd_be.dcd", "dcd_be.mda.txt", false);
  expect_matches_reference("dcd_be.dcd", "dcd_mda_tric.mda.txt");
  EXPECT_TRUE(DcdReader(traj_data("dcd_be.dcd")).header().big_endian);
}

TEST(DcdReader, ReadsEightByteRecordMarkers) {
  // MDAnalysis cannot read these; the content is that of dcd_mda_tric.dcd.
  expect_matches_reference("dcd_marker8.dcd", "dcd_mda_tric.mda.txt");
  EXPECT_EQ(DcdReader(traj_data("dcd_marker8.dcd")).header().marker_bytes, 8);
}

TEST(DcdReader, ReadsFixedAtoms) {
  expect_matches_reference("dcd_fixed.dcd", "dcd_fixed.mda.txt");
  const DcdReader reader(traj_data("dcd_fixed.dcd"));
  EXPECT_EQ(reader.header().free_atoms.size(), 17u);
}

TEST(DcdReader, ReadsXplorFileWithoutUnitCell) {
  expect_matches_reference("dcd_xplor.dcd", "dcd_xplor.mda.txt");
  EXPECT_EQ(DcdReader(traj_data("dcd_xplor.dcd")).header().charmm_version, 0);
}

TEST(DcdReader, ReadsCharmmBoxMatrixUnitCell) { expect_matches_reference("dcd_charmm_matrix.dcd", "dcd_charmm_matrix.mda.txt"); }

TEST(DcdReader, ReadsLammpsFiles) {
  expect_matches_reference("dcd_lammps_ortho.dcd", "dcd_lammps_ortho.mda.txt");
  expect_matches_reference("dcd_lammps_tri.dcd", "dcd_lammps_tri.mda.txt");
  DcdReader reader(traj_data("dcd_lammps_tri.dcd"));
  EXPECT_TRUE(reader.header().lammps);
  EXPECT_EQ(reader.header().nsavc, 100);
  // LAMMPS stores its own time step (0.005 tau here); times are step * DELTA in that unit.
  const auto frames = read_all(reader);
  ASSERT_EQ(frames.size(), 5u);
  EXPECT_EQ(frames[4].step, 400);
  EXPECT_NEAR(frames[4].time, 400 * 0.005, 1e-7);
}

TEST(DcdReader, LammpsFileMatchesTheTextDumpOfTheSameRun) {
  // The DCD has unwrapped positions in LAMMPS's absolute coordinates; the dump reader gives
  // them relative to the box origin, which it keeps in the scalars.
  DcdReader dcd(traj_data("dcd_lammps_ortho.dcd"));
  auto dump = molstep::io::open_lammps_dump(traj_data("dump_ortho_xu.lammpstrj"));
  Frame a, b;
  int n = 0;
  while (dcd.next(a)) {
    ASSERT_TRUE(dump->next(b));
    EXPECT_EQ(a.step, b.step);
    for (std::size_t i = 0; i < a.natoms(); ++i) {
      EXPECT_FLOAT_EQ(static_cast<float>(a.x[i]), static_cast<float>(b.x[i] + b.scalars.at("xlo")));
      EXPECT_FLOAT_EQ(static_cast<float>(a.z[i]), static_cast<float>(b.z[i] + b.scalars.at("zlo")));
    }
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(a.box[d][d], b.box[d][d], 1e-12);
    ++n;
  }
  EXPECT_EQ(n, 5);
  EXPECT_FALSE(dump->next(b));
}

namespace {

// Deterministic frames for the writer tests: a triclinic box, an orthorhombic one, none.
std::vector<Frame> writer_frames(std::size_t n) {
  std::vector<Frame> frames(3);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    Frame& f = frames[k];
    f.step = 100 + 10 * static_cast<std::int64_t>(k);
    f.time = 0.002 * static_cast<double>(f.step);
    f.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      f.x[i] = 0.5 * static_cast<double>(i) + 0.1 * static_cast<double>(k) - 3.25;
      f.y[i] = std::sin(static_cast<double>(i + k)) * 7.0;
      f.z[i] = 1.0 / (1.0 + static_cast<double>(i)) + 12.0;
    }
  }
  frames[0].box = molstep::core::box_from_lengths_angles(20, 22.5, 25, 80, 95, 110);
  frames[1].box = {{{30, 0, 0}, {0, 31, 0}, {0, 0, 32.5}}};
  return frames;
}

}  // namespace

TEST(DcdWriter, RoundTripsPositionsBoxesStepsAndTimes) {
  const auto dir = scratch_dir("dcd-writer");
  const auto path = dir / "out.dcd";
  const auto frames = writer_frames(12);
  auto w = molstep::io::create_dcd(path, 12, 0.002);
  for (const auto& f : frames) w->write(f);
  EXPECT_FALSE(fs::exists(path)) << "the file appears at close()";
  w->close();
  ASSERT_TRUE(fs::exists(path));
  DcdReader reader(path);
  EXPECT_EQ(reader.header().nframes, 3);
  EXPECT_EQ(reader.header().istart, 100);
  EXPECT_EQ(reader.header().nsavc, 10);
  const auto back = read_all(reader);
  ASSERT_EQ(back.size(), frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    EXPECT_EQ(back[k].step, frames[k].step);
    EXPECT_NEAR(back[k].time, frames[k].time, 1e-7 * frames[k].time);
    for (std::size_t i = 0; i < 12; ++i) {
      EXPECT_EQ(back[k].x[i], static_cast<double>(static_cast<float>(frames[k].x[i])));
      EXPECT_EQ(back[k].y[i], static_cast<double>(static_cast<float>(frames[k].y[i])));
      EXPECT_EQ(back[k].z[i], static_cast<double>(static_cast<float>(frames[k].z[i])));
    }
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(back[0].box[r][c], frames[0].box[r][c], 1e-12) << r << c;
  EXPECT_EQ(back[1].box, frames[1].box) << "an orthorhombic box comes back exactly";
  EXPECT_FALSE(back[2].has_box());
  fs::remove_all(dir);
}

TEST(DcdWriter, TakesTheTimeStepFromTheFramesWhenGivenZero) {
  const auto dir = scratch_dir("dcd-writer-dt");
  auto frames = writer_frames(4);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    frames[k].step = 5 * static_cast<std::int64_t>(k);
    frames[k].time = 0.01 * static_cast<double>(k);
  }
  auto w = molstep::io::create_dcd(dir / "dt.dcd", 4, 0.0);
  for (const auto& f : frames) w->write(f);
  w->close();
  DcdReader reader(dir / "dt.dcd");
  const auto back = read_all(reader);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[2].step, 10);
  EXPECT_NEAR(back[2].time, 0.02, 1e-8);
  fs::remove_all(dir);
}

TEST(DcdWriter, RejectsFramesOfAnotherSizeAndLeavesNoFileWithoutClose) {
  const auto dir = scratch_dir("dcd-writer-bad");
  {
    auto w = molstep::io::create_dcd(dir / "bad.dcd", 5);
    const auto frames = writer_frames(4);
    const std::string msg = error_of([&] { w->write(frames[0]); });
    EXPECT_NE(msg.find("frame 0 has 4 atoms, but the DCD file was opened for 5"), std::string::npos) << msg;
  }
  EXPECT_FALSE(fs::exists(dir / "bad.dcd"));
  EXPECT_TRUE(fs::is_empty(dir)) << "no temporary file is left behind";
  fs::remove_all(dir);
}

// dcd_molstep.dcd is what this writer wrote once and MDAnalysis then read
// (io_check_molstep_output.py wrote dcd_molstep.mda.txt). The writer must still write those
// bytes, and our reader must agree with MDAnalysis on them. MOLSTEP_WRITE_IO_REFERENCES=1
// rewrites the stored file.
TEST(DcdWriter, OutputMatchesTheFileMdanalysisChecked) {
  const bool regenerate = std::getenv("MOLSTEP_WRITE_IO_REFERENCES") != nullptr;
  const auto dir = scratch_dir("dcd-molstep");
  const auto path = regenerate ? traj_data("dcd_molstep.dcd") : dir / "dcd_molstep.dcd";
  auto w = molstep::io::create_dcd(path, 12, 0.002);
  for (const auto& f : writer_frames(12)) w->write(f);
  w->close();
  EXPECT_EQ(slurp(path), slurp(traj_data("dcd_molstep.dcd")));
  expect_matches_reference("dcd_molstep.dcd", "dcd_molstep.mda.txt");
  fs::remove_all(dir);
}

TEST(DcdReader, WorksThroughOpenTrajectory) {
  auto r = molstep::io::open_trajectory(traj_data("dcd_mda_tric.dcd"));
  EXPECT_EQ(r->natoms(), 20u);
  EXPECT_EQ(read_all(*r).size(), 4u);
}

TEST_F(DcdErrors, CleanEndAtAFrameBoundaryIsNoError) {
  path_ = dir_ / "two.dcd";
  spit(path_, bytes_.substr(0, header_bytes + 2 * frame_bytes));
  DcdReader reader(path_);
  EXPECT_EQ(read_all(reader).size(), 2u);
}

TEST_F(DcdErrors, TruncatedFrameNamesFrameAndByte) {
  const std::size_t x_record = header_bytes + 2 * frame_bytes + 56;
  const std::string msg = read_error(bytes_.substr(0, x_record + 4 + 40));
  EXPECT_NE(msg.find("bad.dcd: frame 2 at byte " + std::to_string(x_record) +
                     ": file ends inside the X coordinates (needs 80 more bytes, 40 left)"),
            std::string::npos)
      << msg;
}

TEST_F(DcdErrors, TruncatedInsideAMarker) {
  const std::string msg = read_error(bytes_.substr(0, header_bytes + frame_bytes + 2));
  EXPECT_NE(msg.find("frame 1 at byte " + std::to_string(header_bytes + frame_bytes) +
                     ": file ends inside the record marker of the unit cell record (2 of 4 bytes)"),
            std::string::npos)
      << msg;
}

TEST_F(DcdErrors, WrongRecordMarker) {
  const std::size_t at = header_bytes + frame_bytes + 56;
  put_i32(bytes_, at, 4000);
  const std::string msg = read_error(bytes_);
  EXPECT_NE(msg.find("frame 1 at byte " + std::to_string(at) +
                     ": record marker 4000 does not match natoms*4 = 80 (X coordinates)"),
            std::string::npos)
      << msg;
}

TEST_F(DcdErrors, WrongRecordEndMarker) {
  const std::size_t y_end = header_bytes + 3 * frame_bytes + 56 + 88 + 4 + 80;
  put_i32(bytes_, y_end, 81);
  const std::string msg = read_error(bytes_);
  EXPECT_NE(msg.find("frame 3 at byte " + std::to_string(y_end) +
                     ": record end marker 81 does not match its start marker 80 (Y coordinates)"),
            std::string::npos)
      << msg;
}

TEST_F(DcdErrors, NotADcdFile) {
  const std::string msg = read_error("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n");
  EXPECT_NE(msg.find("bad.dcd: header at byte 0: not a DCD file: expected a record marker 84"), std::string::npos) << msg;
  EXPECT_NE(read_error("abc").find("file is too short for a DCD header"), std::string::npos);
}

TEST_F(DcdErrors, TruncatedHeader) {
  const std::string msg = read_error(bytes_.substr(0, 200));
  EXPECT_NE(msg.find("bad.dcd: header at byte 92: file ends inside the title record"), std::string::npos) << msg;
}

TEST_F(DcdErrors, BadAtomCount) {
  put_i32(bytes_, header_bytes - 8, 0);
  const std::string msg = read_error(bytes_);
  EXPECT_NE(msg.find("header at byte 344: atom count 0 is not positive"), std::string::npos) << msg;
}

TEST_F(DcdErrors, CannotOpen) {
  const std::string msg = error_of([&] { DcdReader reader(dir_ / "missing.dcd"); });
  EXPECT_NE(msg.find("cannot open"), std::string::npos) << msg;
  EXPECT_NE(msg.find("missing.dcd"), std::string::npos) << msg;
}
