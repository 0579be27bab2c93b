// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_dump_reader.hpp"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "io/reader_error.hpp"
#include "io/scratch_dir_test.hpp"
#include "io/traj_reference.hpp"
#include "molstep/core/error.hpp"
#include "molstep/io/lammps_dump_writer.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::core::Frame;
using molstep::io::open_lammps_dump;
using namespace molstep::test;

namespace {

std::vector<Frame> read_dump(const std::string& name, double dt = 1.0) {
  auto r = open_lammps_dump(traj_data(name), dt);
  return read_all(*r);
}

// Compares our reading of a dump with MDAnalysis's (float32 positions, so 1e-6 relative).
// MDAnalysis 2.4 subtracts the box origin from scaled positions too, although scaling already
// put them relative to the origin: `scaled` adds that shift to ours before comparing.
void expect_matches_reference(const std::string& dump, const std::string& reference, bool scaled = false) {
  const Reference ref = read_reference(reference);
  auto reader = open_lammps_dump(traj_data(dump));
  ASSERT_EQ(reader->natoms(), ref.natoms);
  const auto types = ref.column("type");
  const auto topo = reader->topology();
  ASSERT_EQ(topo.type.size(), types.size());
  for (std::size_t i = 0; i < types.size(); ++i) EXPECT_EQ(std::to_string(topo.type[i]), types[i]) << i;
  const auto frames = read_all(*reader);
  ASSERT_EQ(frames.size(), ref.frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    SCOPED_TRACE(dump + " frame " + std::to_string(k));
    EXPECT_EQ(frames[k].step, ref.frames[k].step);
    const auto& o = frames[k].scalars;
    const std::array<double, 3> shift =
        scaled ? std::array<double, 3>{-o.at("xlo"), -o.at("ylo"), -o.at("zlo")} : std::array<double, 3>{};
    expect_positions(frames[k], ref.frames[k], 2e-6, shift);
    expect_dimensions(frames[k], ref.frames[k], 2e-6);
  }
}

// Expects two readings of the same run (different position columns) to agree.
void expect_same_positions(const std::vector<Frame>& a, const std::vector<Frame>& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].natoms(), b[k].natoms());
    EXPECT_EQ(a[k].step, b[k].step);
    for (std::size_t i = 0; i < a[k].natoms(); ++i) {
      EXPECT_TRUE(near(a[k].x[i], b[k].x[i], tol)) << "frame " << k << " atom " << i;
      EXPECT_TRUE(near(a[k].y[i], b[k].y[i], tol)) << "frame " << k << " atom " << i;
      EXPECT_TRUE(near(a[k].z[i], b[k].z[i], tol)) << "frame " << k << " atom " << i;
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) EXPECT_TRUE(near(a[k].box[r][c], b[k].box[r][c], 1e-14)) << r << c;
  }
}

constexpr const char* small_dump =
    "ITEM: TIMESTEP\n"           // 1
    "5\n"                        // 2
    "ITEM: NUMBER OF ATOMS\n"    // 3
    "3\n"                        // 4
    "ITEM: BOX BOUNDS pp pp pp\n"  // 5
    "0 10\n"                     // 6
    "-5 5\n"                     // 7
    "1 3\n"                      // 8
    "ITEM: ATOMS x y z id type\n"  // 9
    "1 2 1.5 30 2\n"             // 10
    "3 -4 2 10 1\n"              // 11
    "5 0 2.5 20 1\n"             // 12
    "ITEM: TIMESTEP\n"           // 13
    "10\n"                       // 14
    "ITEM: NUMBER OF ATOMS\n"    // 15
    "3\n"                        // 16
    "ITEM: BOX BOUNDS pp pp pp\n"  // 17
    "0 10\n"                     // 18
    "-5 5\n"                     // 19
    "1 3\n"                      // 20
    "ITEM: ATOMS x y z id type\n"  // 21
    "1.5 2 1.5 30 2\n"           // 22
    "3.5 -4 2 10 1\n"            // 23
    "5.5 0 2.5 20 1\n";          // 24

class LammpsDumpReaderErrors : public ScratchDirTest {
 protected:
  LammpsDumpReaderErrors() : ScratchDirTest("dump-") {}

  // `text` with line `line` (1-based) replaced by `with` (or removed when `with` is null).
  static std::string edit(std::string text, int line, const char* with) {
    std::size_t begin = 0;
    for (int l = 1; l < line; ++l) begin = text.find('\n', begin) + 1;
    const std::size_t end = text.find('\n', begin) + 1;
    text.replace(begin, end - begin, with ? std::string(with) + "\n" : std::string());
    return text;
  }
  std::string read_error(const std::string& text) {
    const auto open = [](const fs::path& path) { return open_lammps_dump(path); };
    return reading_error(dir_ / "dump.lammpstrj", text, open).what();
  }
};

}  // namespace

TEST(LammpsDumpReader, ReadsWrappedPositionsWithImageFlagsLikeMdanalysis) {
  // MDAnalysis with unwrap_images=True: x + ix * Lx, relative to the box origin.
  expect_matches_reference("dump_ortho_x.lammpstrj", "dump_ortho_x.mda.txt");
}

TEST(LammpsDumpReader, ReadsUnwrappedAndScaledUnwrappedPositionsLikeMdanalysis) {
  expect_matches_reference("dump_ortho_xu.lammpstrj", "dump_ortho_xu.mda.txt");
  expect_matches_reference("dump_ortho_xsu.lammpstrj", "dump_ortho_xsu.mda.txt", true);
  expect_matches_reference("dump_tri_xu.lammpstrj", "dump_tri_xu.mda.txt");
}

TEST(LammpsDumpReader, AllPositionColumnsGiveTheSameUnwrappedPositions) {
  const auto xu = read_dump("dump_ortho_xu.lammpstrj");
  // LAMMPS computes xs = (x - xlo) / L, so scaled columns carry a few ulp of rounding.
  expect_same_positions(read_dump("dump_ortho_x.lammpstrj"), xu, 1e-13);
  expect_same_positions(read_dump("dump_ortho_xs.lammpstrj"), xu, 2e-12);
  expect_same_positions(read_dump("dump_ortho_xsu.lammpstrj"), xu, 2e-12);
  // Some atoms did cross the boundaries, so the image flags mattered.
  bool crossed = false;
  for (double v : xu.back().x) crossed = crossed || v < 0 || v > xu.back().box[0][0];
  EXPECT_TRUE(crossed);
}

TEST(LammpsDumpReader, TriclinicBoxAndImageFlags) {
  const auto xu = read_dump("dump_tri_xu.lammpstrj");
  // The cell of deck B: lattice fcc 0.8442 (a = 1.6795961913825073), prism 0 3 0 2 0 2 0.6 0.4 0.3.
  const double a = 1.6795961913825073;
  const auto& box = xu[0].box;
  EXPECT_NEAR(box[0][0], 3 * a, 1e-14);
  EXPECT_NEAR(box[1][0], 0.6 * a, 1e-14);
  EXPECT_NEAR(box[1][1], 2 * a, 1e-14);
  EXPECT_NEAR(box[2][0], 0.4 * a, 1e-14);
  EXPECT_NEAR(box[2][1], 0.3 * a, 1e-14);
  EXPECT_NEAR(box[2][2], 2 * a, 1e-14);
  EXPECT_EQ(box[0][1], 0.0);
  EXPECT_EQ(box[0][2], 0.0);
  EXPECT_EQ(box[1][2], 0.0);
  // x + ix a + iy b + iz c with the tilted vectors equals LAMMPS's own xu.
  expect_same_positions(read_dump("dump_tri_x.lammpstrj"), xu, 1e-13);
  expect_same_positions(read_dump("dump_tri_xs.lammpstrj"), xu, 2e-12);
}

TEST(LammpsDumpReader, VelocitiesForcesStepsTimesAndOrigin) {
  const auto frames = read_dump("dump_ortho_x.lammpstrj", 0.005);
  ASSERT_EQ(frames.size(), 5u);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    EXPECT_EQ(frames[k].step, static_cast<std::int64_t>(100 * k));
    EXPECT_DOUBLE_EQ(frames[k].time, 0.005 * static_cast<double>(100 * k));
    EXPECT_TRUE(frames[k].has_velocities());
    EXPECT_TRUE(frames[k].has_forces());
    EXPECT_DOUBLE_EQ(frames[k].scalars.at("xlo"), -2.5193942870737609);
    EXPECT_DOUBLE_EQ(frames[k].scalars.at("ylo"), -1.6795961913825073);
    EXPECT_DOUBLE_EQ(frames[k].box[0][0], 2 * 2.5193942870737609);
  }
  // ITEM: TIME, where the file has it, wins over step * dt.
  const auto timed = read_dump("dump_ortho_xs.lammpstrj", 123.0);
  EXPECT_DOUBLE_EQ(timed[4].time, 2.0);
}

TEST(LammpsDumpReader, TopologyFromTheFirstFrame) {
  auto r = open_lammps_dump(traj_data("dump_ortho_xsu.lammpstrj"));
  const auto t = r->topology();
  ASSERT_EQ(t.type.size(), 48u);
  ASSERT_EQ(t.mass.size(), 48u);
  ASSERT_EQ(t.charge.size(), 48u);
  for (std::size_t i = 0; i < 48; ++i) {
    EXPECT_EQ(t.mass[i], t.type[i] == 1 ? 1.0 : 2.0);
    EXPECT_EQ(t.charge[i], t.type[i] == 1 ? 0.5 : -0.75);
  }
}

TEST(LammpsDumpReader, SortsAtomsById) {
  const auto dir = scratch_dir("dump-sort");
  write_file(dir / "d.lammpstrj", small_dump);
  auto r = open_lammps_dump(dir / "d.lammpstrj");
  EXPECT_EQ(r->natoms(), 3u);
  EXPECT_EQ(r->topology().type, (std::vector<int>{1, 1, 2}));
  Frame f;
  ASSERT_TRUE(r->next(f));
  EXPECT_EQ(f.step, 5);
  EXPECT_EQ(f.x, (std::vector<double>{3, 5, 1}));
  EXPECT_EQ(f.y, (std::vector<double>{1, 5, 7})) << "y relative to ylo = -5";
  EXPECT_EQ(f.z, (std::vector<double>{1, 1.5, 0.5})) << "z relative to zlo = 1";
  ASSERT_TRUE(r->next(f));
  EXPECT_EQ(f.x, (std::vector<double>{3.5, 5.5, 1.5}));
  EXPECT_FALSE(r->next(f));
  fs::remove_all(dir);
}

TEST(LammpsDumpReader, WriterRoundTrips) {
  const auto dir = scratch_dir("dump-writer");
  auto frames = read_dump("dump_tri_x.lammpstrj");
  frames[1].resize_forces(frames[1].natoms());
  for (std::size_t i = 0; i < frames[1].natoms(); ++i) frames[1].fy[i] = 0.25 * static_cast<double>(i);
  molstep::core::Topology topo;
  topo.type = open_lammps_dump(traj_data("dump_tri_x.lammpstrj"))->topology().type;
  auto w = molstep::io::create_trajectory(dir / "w.lammpstrj", molstep::io::TrajectoryFormat::lammps_dump, 48, topo);
  for (const auto& f : frames) w->write(f);
  w->close();
  auto r = molstep::io::open_trajectory(dir / "w.lammpstrj");
  EXPECT_EQ(r->topology().type, topo.type);
  const auto back = read_all(*r);
  ASSERT_EQ(back.size(), frames.size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    expect_same_atoms(back[k], frames[k]);
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(back[k].box[a][c], frames[k].box[a][c], 1e-14);
  }
  fs::remove_all(dir);
}

TEST_F(LammpsDumpReaderErrors, CleanEndAndTrailingBlankLines) {
  write_file(dir_ / "ok.lammpstrj", std::string(small_dump) + "\n\n");
  auto r = open_lammps_dump(dir_ / "ok.lammpstrj");
  EXPECT_EQ(read_all(*r).size(), 2u);
}

TEST_F(LammpsDumpReaderErrors, WrongItem) {
  const std::string msg = read_error(edit(small_dump, 15, "ITEM: NUMBER OF ATOM"));
  EXPECT_NE(msg.find("dump.lammpstrj:15: frame 1: expected 'ITEM: NUMBER OF ATOMS', found 'ITEM: NUMBER OF ATOM'"),
            std::string::npos)
      << msg;
  EXPECT_NE(read_error(edit(small_dump, 13, "ITEM: TIMSTEP")).find(":13: frame 1: expected 'ITEM: TIMESTEP'"),
            std::string::npos);
}

TEST_F(LammpsDumpReaderErrors, TruncatedFrame) {
  const std::string text(small_dump);
  const std::string msg = read_error(text.substr(0, text.find("3.5 -4")));
  EXPECT_NE(msg.find("dump.lammpstrj:23: frame 1: file ends where atom line 2 of 3 was expected"), std::string::npos)
      << msg;
  const std::string head = read_error(text.substr(0, text.find("-5 5")));
  EXPECT_NE(head.find(":7: frame 0: file ends where a box bounds line was expected"), std::string::npos) << head;
}

TEST_F(LammpsDumpReaderErrors, AtomCountChanges) {
  std::string text = edit(edit(small_dump, 16, "2"), 24, nullptr);
  const std::string msg = read_error(text);
  EXPECT_NE(msg.find(":16: frame 1: number of atoms changed from 3 to 2"), std::string::npos) << msg;
}

TEST_F(LammpsDumpReaderErrors, BadNumbers) {
  std::string msg = read_error(edit(small_dump, 23, "3.5 -4x 2 10 1"));
  EXPECT_NE(msg.find(":23: frame 1: atom line 2: expected a number for y (column 2), found '-4x'"), std::string::npos)
      << msg;
  msg = read_error(edit(small_dump, 11, "3 -4 2 1.5 1"));
  EXPECT_NE(msg.find(":11: frame 0: atom line 2: expected an integer for id (column 4), found '1.5'"), std::string::npos)
      << msg;
  msg = read_error(edit(small_dump, 14, "ten"));
  EXPECT_NE(msg.find(":14: frame 1: expected the timestep (an integer), found 'ten'"), std::string::npos) << msg;
  msg = read_error(edit(small_dump, 19, "-5"));
  EXPECT_NE(msg.find(":19: frame 1: expected 2 numbers (box bounds lo hi), found '-5'"), std::string::npos) << msg;
}

TEST_F(LammpsDumpReaderErrors, MissingAndExtraColumns) {
  std::string msg = read_error(edit(small_dump, 22, "1.5 2 1.5 30"));
  EXPECT_NE(msg.find(":22: frame 1: atom line 1 has 4 columns, but ITEM: ATOMS names 5"), std::string::npos) << msg;
  msg = read_error(edit(small_dump, 22, "1.5 2 1.5 30 2 7 8"));
  EXPECT_NE(msg.find(":22: frame 1: atom line 1 has 7 columns, but ITEM: ATOMS names 5"), std::string::npos) << msg;
  msg = read_error(edit(small_dump, 9, "ITEM: ATOMS x y id type"));
  EXPECT_NE(msg.find(":9: frame 0: the ITEM: ATOMS line has no positions"), std::string::npos) << msg;
}

TEST_F(LammpsDumpReaderErrors, DuplicateIds) {
  const std::string msg = read_error(edit(small_dump, 12, "5 0 2.5 10 1"));
  EXPECT_NE(msg.find(":12: frame 0: atom id 10 appears twice"), std::string::npos) << msg;
}

TEST_F(LammpsDumpReaderErrors, EmptyFile) {
  EXPECT_NE(read_error("").find("dump.lammpstrj:1: empty file"), std::string::npos);
}
