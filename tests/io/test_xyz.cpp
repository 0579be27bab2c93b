// SPDX-License-Identifier: MIT
#include "molstep/io/xyz.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>
#include <sstream>
#include <string>
#include <vector>

#include "io/reader_error.hpp"
#include "io/scratch_dir_test.hpp"
#include "io/traj_reference.hpp"
#include "molstep/core/error.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::core::Frame;
using molstep::io::open_xyz;
using namespace molstep::test;

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Compares our reading of an XYZ file with ASE's.
void expect_matches_reference(const std::string& xyz, const std::string& reference, bool steps) {
  const Reference ref = read_reference(reference);
  auto reader = open_xyz(traj_data(xyz));
  ASSERT_EQ(reader->natoms(), ref.natoms);
  EXPECT_EQ(reader->topology().element, ref.column("element"));
  const auto frames = read_all(*reader);
  ASSERT_EQ(frames.size(), ref.frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    SCOPED_TRACE(xyz + " frame " + std::to_string(k));
    const auto& r = ref.frames[k];
    if (steps) {
      EXPECT_EQ(frames[k].step, r.step);
      EXPECT_DOUBLE_EQ(frames[k].time, r.time);
    }
    expect_positions(frames[k], r, 1e-15);
    expect_dimensions(frames[k], r, 1e-12);
    if (r.box) {
      for (std::size_t a = 0; a < 9; ++a) EXPECT_DOUBLE_EQ(frames[k].box[a / 3][a % 3], (*r.box)[a]) << a;
    }
    for (const auto& [key, value] : r.scalars) {
      ASSERT_TRUE(frames[k].scalars.count(key)) << key;
      EXPECT_DOUBLE_EQ(frames[k].scalars.at(key), value) << key;
    }
    EXPECT_EQ(frames[k].scalars.size(), r.scalars.size());
  }
}

// Frames for the writer tests: box and no box, velocities and forces on some.
std::vector<Frame> writer_frames() {
  std::vector<Frame> frames(3);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    Frame& f = frames[k];
    f.step = 1000 * static_cast<std::int64_t>(k);
    f.time = 0.1 * static_cast<double>(k) + 1e-17;
    f.resize(4);
    for (std::size_t i = 0; i < 4; ++i) {
      f.x[i] = 0.1 * static_cast<double>(i + k) - 1e-7;
      f.y[i] = -1.0 / 3.0 * static_cast<double>(i);
      f.z[i] = 1e22 * static_cast<double>(k) + 0.5;
    }
    f.scalars["energy"] = -12.5 - static_cast<double>(k) / 7.0;
    f.scalars["pe"] = 3.0;
  }
  frames[0].box = molstep::core::box_from_lengths_angles(20, 22.5, 25, 80, 95, 110);
  frames[1].box = {{{30, 0, 0}, {0, 31, 0}, {0, 0, 32.5}}};
  frames[1].resize_velocities(4);
  frames[1].vz = {1, -2, 3.25, 1e-300};
  frames[2].resize_forces(4);
  frames[2].fx = {0.125, 0, -7, 8};
  return frames;
}

molstep::core::Topology writer_topology() {
  molstep::core::Topology t;
  t.element = {"O", "H", "", ""};
  t.name = {"OW", "HW1", "CA", ""};
  return t;
}

class XyzErrors : public ScratchDirTest {
 protected:
  XyzErrors() : ScratchDirTest("xyz-") {}

  std::string read_error(const std::string& text) { return reading_error(dir_ / "bad.xyz", text, open_xyz).what(); }
};

constexpr const char* two_frames =
    "2\n"                                                              // 1
    "Properties=species:S:1:pos:R:3:forces:R:3 energy=1.5\n"          // 2
    "C 0 0 0 1 2 3\n"                                                  // 3
    "O 1.2 0 0 -1 -2 -3\n"                                             // 4
    "2\n"                                                              // 5
    "Properties=species:S:1:pos:R:3:forces:R:3 energy=2.5\n"          // 6
    "C 0 0 0.1 1 2 3\n"                                                // 7
    "O 1.3 0 0 -1 -2 -3\n";                                            // 8

}  // namespace

TEST(XyzReader, ReadsAseExtendedXyz) { expect_matches_reference("xyz_ase_ext.xyz", "xyz_ase_ext.ase.txt", true); }

TEST(XyzReader, ReadsAsePlainXyz) { expect_matches_reference("xyz_ase_plain.xyz", "xyz_ase_plain.ase.txt", false); }

TEST(XyzReader, ReadsLammpsDumpXyzWithTypesAsSpecies) {
  auto r = open_xyz(traj_data("xyz_lammps.xyz"));
  ASSERT_EQ(r->natoms(), 48u);
  const auto t = r->topology();
  ASSERT_EQ(t.type.size(), 48u);
  EXPECT_TRUE(t.element.empty());
  const auto frames = read_all(*r);
  ASSERT_EQ(frames.size(), 5u);
  EXPECT_EQ(frames[3].step, 300) << "from LAMMPS's comment 'Atoms. Timestep: 300'";
  // dump xyz lists the atoms sorted by id: the types and wrapped positions must be the
  // custom dump's type and x y z columns of the same step, in id order.
  std::istringstream dump(slurp(traj_data("dump_ortho_x.lammpstrj")));
  std::string line;
  for (int k = 0; k < 9; ++k) std::getline(dump, line);
  std::map<long, std::tuple<int, double, double, double>> by_id;
  for (std::size_t i = 0; i < 48; ++i) {
    std::getline(dump, line);
    std::istringstream s(line);
    long id;
    int type;
    double x, y, z;
    s >> id >> type >> x >> y >> z;
    by_id[id] = {type, x, y, z};
  }
  std::size_t i = 0;
  for (const auto& [id, row] : by_id) {
    EXPECT_EQ(t.type[i], std::get<0>(row)) << id;
    EXPECT_EQ(frames[0].x[i], std::get<1>(row)) << id;
    EXPECT_EQ(frames[0].y[i], std::get<2>(row)) << id;
    EXPECT_EQ(frames[0].z[i], std::get<3>(row)) << id;
    ++i;
  }
}

TEST(XyzReader, ParsesCommentLinesLikeAse) {
  using molstep::io::parse_extxyz_comment;
  EXPECT_EQ(parse_extxyz_comment(R"(Lattice="1 0 0 0 2 0 0 0 3" Properties=species:S:1:pos:R:3 pbc="T T F")"),
            (Pairs{{"Lattice", "1 0 0 0 2 0 0 0 3"}, {"Properties", "species:S:1:pos:R:3"}, {"pbc", "T T F"}}));
  EXPECT_EQ(parse_extxyz_comment("a=1 flag b={1 2} c=[x y] d='q r'"),
            (Pairs{{"a", "1"}, {"flag", "T"}, {"b", "1 2"}, {"c", "x y"}, {"d", "q r"}}));
  EXPECT_EQ(parse_extxyz_comment(R"(  E = -1.25   name="a \"b\""  x=1=2 )"),
            (Pairs{{"E", "-1.25"}, {"name", R"(a "b")"}, {"x", "1=2"}}));
  EXPECT_TRUE(parse_extxyz_comment("   ").empty());
}

TEST(XyzReader, KeysAndColumns) {
  const auto dir = scratch_dir("xyz-keys");
  write_file(dir / "k.xyz",
             "3\n"
             "Properties=species:S:1:Z:I:1:pos:R:3:masses:R:1:velo:R:3:tags:I:1 Time=2.5 step=7 "
             "energy=-3 dipole=\"1 2 3\" ok=T name=abc\n"
             "O 8 1 2 3 15.5 0.1 0.2 0.3 4\n"
             "Cl 17 4 5 6 35 0 0 0 5 extra columns are ignored\n"
             "Xx 1 7 8 9 1 0 0 1 6\n");
  auto r = open_xyz(dir / "k.xyz");
  const auto t = r->topology();
  EXPECT_EQ(t.name, (std::vector<std::string>{"O", "Cl", "Xx"}));
  EXPECT_EQ(t.element, (std::vector<std::string>{"O", "Cl", ""}));
  EXPECT_EQ(t.mass, (std::vector<double>{15.5, 35, 1}));
  Frame f;
  ASSERT_TRUE(r->next(f));
  EXPECT_EQ(f.step, 7);
  EXPECT_EQ(f.time, 2.5);
  EXPECT_EQ(f.scalars, (std::map<std::string, double>{{"energy", -3.0}}));
  EXPECT_EQ(f.z, (std::vector<double>{3, 6, 9}));
  EXPECT_EQ(f.vz, (std::vector<double>{0.3, 0, 1}));
  EXPECT_FALSE(f.has_box());
  EXPECT_FALSE(f.has_forces());
  fs::remove_all(dir);
}

TEST(XyzWriter, RoundTripsEverything) {
  const auto dir = scratch_dir("xyz-writer");
  const auto frames = writer_frames();
  auto w = molstep::io::create_trajectory(dir / "w.extxyz", molstep::io::TrajectoryFormat::xyz, 4, writer_topology());
  for (const auto& f : frames) w->write(f);
  EXPECT_FALSE(fs::exists(dir / "w.extxyz"));
  w->close();
  auto r = molstep::io::open_trajectory(dir / "w.extxyz");
  EXPECT_EQ(r->topology().name, (std::vector<std::string>{"O", "H", "CA", "X"}));
  const auto back = read_all(*r);
  ASSERT_EQ(back.size(), frames.size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    expect_same_atoms(back[k], frames[k]);
    EXPECT_EQ(back[k].time, frames[k].time);
    EXPECT_EQ(back[k].box, frames[k].box);
    EXPECT_EQ(back[k].scalars, frames[k].scalars);
  }
  fs::remove_all(dir);
}

// xyz_molstep.xyz is what this writer wrote once and ASE then read (io_check_molstep_output.py
// wrote xyz_molstep.ase.txt). MOLSTEP_WRITE_IO_REFERENCES=1 rewrites the stored file.
TEST(XyzWriter, OutputMatchesTheFileAseChecked) {
  const bool regenerate = std::getenv("MOLSTEP_WRITE_IO_REFERENCES") != nullptr;
  const auto dir = scratch_dir("xyz-molstep");
  const auto path = regenerate ? traj_data("xyz_molstep.xyz") : dir / "xyz_molstep.xyz";
  const auto frames = writer_frames();
  molstep::core::Topology topology;
  topology.element = {"O", "H", "Cu", "Na"};
  auto w = molstep::io::create_xyz(path, 4, topology);
  for (const auto& f : frames) w->write(f);
  w->close();
  EXPECT_EQ(slurp(path), slurp(traj_data("xyz_molstep.xyz")));
  expect_matches_reference("xyz_molstep.xyz", "xyz_molstep.ase.txt", true);
  fs::remove_all(dir);
}

TEST_F(XyzErrors, CleanEndAndTrailingBlankLines) {
  write_file(dir_ / "ok.xyz", std::string(two_frames) + "\n\n");
  auto r = open_xyz(dir_ / "ok.xyz");
  const auto frames = read_all(*r);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].scalars.at("energy"), 2.5);
  EXPECT_EQ(frames[1].fx, (std::vector<double>{1, -1}));
}

TEST_F(XyzErrors, Truncated) {
  const std::string text(two_frames);
  std::string msg = read_error(text.substr(0, text.find("O 1.3")));
  EXPECT_NE(msg.find("bad.xyz:8: frame 1: file ends after 1 of 2 atom lines"), std::string::npos) << msg;
  msg = read_error(text.substr(0, text.rfind("Properties")));
  EXPECT_NE(msg.find("bad.xyz:6: frame 1: file ends where the comment line was expected"), std::string::npos) << msg;
}

TEST_F(XyzErrors, AtomCountChanges) {
  std::string text(two_frames);
  text[text.find("2\nProp", 5)] = '1';
  const std::string msg = read_error(text);
  EXPECT_NE(msg.find("bad.xyz:5: frame 1: atom count changed from 2 to 1"), std::string::npos) << msg;
}

TEST_F(XyzErrors, BadNumbersAndColumns) {
  std::string text(two_frames);
  std::string msg = read_error(std::string(text).replace(text.find("1.3"), 3, "1.3.4"));
  EXPECT_NE(msg.find("bad.xyz:8: frame 1: atom line 2: expected a number for x (column 2), found '1.3.4'"),
            std::string::npos)
      << msg;
  msg = read_error(std::string(text).replace(text.find(" -1 -2 -3\n2"), 3, ""));
  EXPECT_NE(msg.find("bad.xyz:4: frame 0: atom line 2 has 6 columns, expected 7"), std::string::npos) << msg;
  msg = read_error("two\n\nC 0 0 0\n");
  EXPECT_NE(msg.find("bad.xyz:1: frame 0: expected the atom count, found 'two'"), std::string::npos) << msg;
}

TEST_F(XyzErrors, BadCommentLine) {
  std::string msg = read_error("1\nLattice=\"1 0 0 0 1 0 0 0\"\nC 0 0 0\n");
  EXPECT_NE(msg.find("bad.xyz:2: frame 0: Lattice=\"1 0 0 0 1 0 0 0\" is not 9 numbers"), std::string::npos) << msg;
  msg = read_error("1\nProperties=species:S:1:pos:R\nC 0 0 0\n");
  EXPECT_NE(msg.find("bad.xyz:2: frame 0: Properties=species:S:1:pos:R is not a list of name:type:columns"),
            std::string::npos)
      << msg;
  msg = read_error("1\nProperties=species:S:1:pos:R:2\nC 0 0\n");
  EXPECT_NE(msg.find("pos must be R:3"), std::string::npos) << msg;
  msg = read_error("1\nProperties=species:S:1\nC\n");
  EXPECT_NE(msg.find("has no pos:R:3 column"), std::string::npos) << msg;
}
