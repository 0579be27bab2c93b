// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_data.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "io/scratch_dir_test.hpp"
#include "molstep/core/error.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::Error;
using molstep::md::System;

namespace {

// Every error test edits one line of this file, so the expected line numbers below are the
// 1-based positions in this list.
std::vector<std::string> base_lines() {
  return {
      "small test file",   // 1
      "",                  // 2
      "4 atoms",           // 3
      "2 atom types",      // 4
      "",                  // 5
      "0 10 xlo xhi",      // 6
      "-1 9 ylo yhi",      // 7
      "0.5 10.5 zlo zhi",  // 8
      "",                  // 9
      "Masses",            // 10
      "",                  // 11
      "1 1.5",             // 12
      "2 4",               // 13
      "",                  // 14
      "Atoms # atomic",    // 15
      "",                  // 16
      "1 1 1 1 1",         // 17
      "2 2 2 2 2 0 0 0",   // 18
      "3 1 3 3 3 1 -1 2",  // 19
      "4 2 4 4 4",         // 20
      "",                  // 21
      "Velocities",        // 22
      "",                  // 23
      "1 0.1 0.2 0.3",     // 24
      "2 -0.1 0 0",        // 25
      "3 0 -0.5 0",        // 26
      "4 0 0 1e-3",        // 27
  };
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

std::map<std::int64_t, std::size_t> index_by_id(const System& s) {
  std::map<std::int64_t, std::size_t> m;
  for (std::size_t i = 0; i < s.atoms.size(); ++i) m[s.atoms.id[i]] = i;
  return m;
}

class LammpsDataErrors : public molstep::test::ScratchDirTest {
 protected:
  LammpsDataErrors() : ScratchDirTest("lammps-data-") {}

  // Reads `lines` as a data file and returns the error it must raise.
  Error read_error(const std::vector<std::string>& lines) {
    path_ = dir_ / "bad.data";
    molstep::test::write_file(path_, join(lines));
    System s;
    try {
      molstep::io::read_lammps_data(path_, s);
    } catch (const Error& e) {
      return e;
    }
    ADD_FAILURE() << "no error for:\n" << join(lines);
    return Error("no error");
  }

  void expect_error(const std::vector<std::string>& lines, int line, const std::string& fragment) {
    const Error e = read_error(lines);
    EXPECT_EQ(e.loc().file, path_.string());
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << "message: " << e.message();
    // what() is what the CLI prints; it must lead with file:line so editors can jump there.
    const std::string where = line > 0 ? path_.string() + ":" + std::to_string(line) + ": " : path_.string() + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0U) << e.what();
  }

  fs::path path_;
};

}  // namespace

TEST(LammpsData, ReadsMixtureFromLammps) {
  System s;
  molstep::io::read_lammps_data(molstep::test::data_dir() / "lammps" / "data.mix", s);
  ASSERT_TRUE(s.box_defined);
  EXPECT_EQ(s.ntypes, 2);
  ASSERT_EQ(s.atoms.size(), 2048U);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(s.box.lo[d], 0.0);
    EXPECT_EQ(s.box.hi[d], 13.679807573413575);
  }
  EXPECT_EQ(s.mass[1], 1.0);
  EXPECT_EQ(s.mass[2], 2.0);
  EXPECT_TRUE(s.mass_set[1] && s.mass_set[2]);
  int type2 = 0;
  for (int t : s.atoms.type) type2 += t == 2;
  EXPECT_EQ(type2, 611);  // gen.mix: 1437 type 1, 611 type 2
  const auto idx = index_by_id(s);
  ASSERT_EQ(idx.size(), 2048U);
  EXPECT_EQ(idx.begin()->first, 1);
  EXPECT_EQ(idx.rbegin()->first, 2048);
  const std::size_t i2 = idx.at(2);
  EXPECT_EQ(s.atoms.x[i2], 0.8549879733383484);
  EXPECT_EQ(s.atoms.z[i2], 0.0);
  const std::size_t last = idx.at(2048);
  EXPECT_EQ(s.atoms.vx[last], -0.6454963119624954);
  EXPECT_EQ(s.atoms.vy[last], 0.17409496281412548);
  EXPECT_EQ(s.atoms.vz[last], 0.5556574606101039);
}

TEST(LammpsData, RoundTripIsExact) {
  System first;
  molstep::io::read_lammps_data(molstep::test::data_dir() / "lammps" / "data.mix", first);
  // Give a few atoms non-zero image flags so the round trip exercises those columns too.
  for (std::size_t i = 0; i < first.atoms.size(); i += 97) {
    first.atoms.ix[i] = static_cast<int>(i % 5) - 2;
    first.atoms.iy[i] = -static_cast<int>(i % 3);
    first.atoms.iz[i] = static_cast<int>(i % 7);
  }
  const auto dir = molstep::test::scratch_dir("lammps-data-roundtrip");
  const auto out = dir / "round.data";
  molstep::io::write_lammps_data(out, first, 42);

  System second;
  molstep::io::read_lammps_data(out, second);
  EXPECT_EQ(second.ntypes, first.ntypes);
  EXPECT_EQ(second.box.lo, first.box.lo);
  EXPECT_EQ(second.box.hi, first.box.hi);
  EXPECT_EQ(second.mass, first.mass);
  EXPECT_EQ(second.mass_set, first.mass_set);
  ASSERT_EQ(second.atoms.size(), first.atoms.size());
  const auto a = index_by_id(first), b = index_by_id(second);
  ASSERT_EQ(a.size(), b.size());
  std::size_t mismatches = 0;
  for (const auto& [id, i] : a) {
    const auto it = b.find(id);
    ASSERT_NE(it, b.end()) << "atom " << id << " lost";
    const std::size_t j = it->second;
    const auto& p = first.atoms;
    const auto& q = second.atoms;
    const bool same = p.type[i] == q.type[j] && p.x[i] == q.x[j] && p.y[i] == q.y[j] && p.z[i] == q.z[j] &&
                      p.vx[i] == q.vx[j] && p.vy[i] == q.vy[j] && p.vz[i] == q.vz[j] && p.ix[i] == q.ix[j] &&
                      p.iy[i] == q.iy[j] && p.iz[i] == q.iz[j];
    if (!same && ++mismatches <= 5) ADD_FAILURE() << "atom " << id << " differs after the round trip";
  }
  EXPECT_EQ(mismatches, 0U);

  // The writer sorts by id and says where the file came from.
  std::ifstream in(out);
  std::string title;
  std::getline(in, title);
  EXPECT_NE(title.find("timestep = 42"), std::string::npos) << title;
  EXPECT_NE(title.find("units = lj"), std::string::npos) << title;
  for (std::size_t k = 0; k < second.atoms.size(); ++k) EXPECT_EQ(second.atoms.id[k], static_cast<std::int64_t>(k + 1));
  fs::remove_all(dir);
}

TEST(LammpsData, WriteLeavesNoTemporaryFile) {
  System s;
  molstep::io::read_lammps_data(molstep::test::data_dir() / "lammps" / "data.mix", s);
  const auto dir = molstep::test::scratch_dir("lammps-data-atomic");
  molstep::io::write_lammps_data(dir / "out.data", s, 0);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"out.data"});
  // A path that cannot be written is an error, not a silent no-op.
  EXPECT_THROW(molstep::io::write_lammps_data(dir / "no" / "such" / "dir" / "out.data", s, 0), Error);
  fs::remove_all(dir);
}

TEST(LammpsData, ReadsSmallFileWithImagesAndVelocities) {
  const auto dir = molstep::test::scratch_dir("lammps-data-small");
  molstep::test::write_file(dir / "ok.data", join(base_lines()));
  System s;
  molstep::io::read_lammps_data(dir / "ok.data", s);
  ASSERT_EQ(s.atoms.size(), 4U);
  EXPECT_EQ(s.box.lo[1], -1.0);
  EXPECT_EQ(s.box.hi[2], 10.5);
  EXPECT_EQ(s.mass[1], 1.5);
  EXPECT_EQ(s.mass[2], 4.0);
  const auto idx = index_by_id(s);
  const std::size_t i3 = idx.at(3);
  EXPECT_EQ(s.atoms.ix[i3], 1);
  EXPECT_EQ(s.atoms.iy[i3], -1);
  EXPECT_EQ(s.atoms.iz[i3], 2);
  EXPECT_EQ(s.atoms.vy[i3], -0.5);
  EXPECT_EQ(s.atoms.vz[idx.at(4)], 1e-3);
  EXPECT_EQ(s.atoms.ix[idx.at(4)], 0);  // 5-column lines mean image flags 0
  fs::remove_all(dir);
}

TEST_F(LammpsDataErrors, TruncatedAtomsSection) {
  auto l = base_lines();
  l.resize(18);  // the header promises 4 atoms, the file ends after 2
  expect_error(l, 18, "Atoms section ends after 2 of 4 lines");
}

TEST_F(LammpsDataErrors, NonNumericCoordinate) {
  auto l = base_lines();
  l[19 - 1] = "3 1 3 abc 3";
  expect_error(l, 19, "expected a number for y, found 'abc'");
}

TEST_F(LammpsDataErrors, WrongColumnCount) {
  auto l = base_lines();
  l[20 - 1] = "4 2 4 4";
  expect_error(l, 20, "expected 5 or 8 columns");
}

TEST_F(LammpsDataErrors, AtomTypeOutOfRange) {
  auto l = base_lines();
  l[17 - 1] = "1 3 1 1 1";
  expect_error(l, 17, "atom type 3 out of range 1..2");
}

TEST_F(LammpsDataErrors, DuplicateAtomId) {
  auto l = base_lines();
  l[20 - 1] = "2 2 4 4 4";
  expect_error(l, 20, "duplicate atom id 2");
}

TEST_F(LammpsDataErrors, VelocityForUnknownAtom) {
  auto l = base_lines();
  l[26 - 1] = "7 0 -0.5 0";
  expect_error(l, 26, "atom id 7 is not in the Atoms section");
}

TEST_F(LammpsDataErrors, MissingBoxLine) {
  auto l = base_lines();
  l.erase(l.begin() + (7 - 1));  // no "ylo yhi"
  // Nothing on any one line is wrong, so the error names the file without a line.
  expect_error(l, 0, "header has no ylo yhi line");
}

TEST_F(LammpsDataErrors, UnsupportedSection) {
  auto l = base_lines();
  l.insert(l.end(), {"", "Bonds", "", "1 1 1 2"});
  expect_error(l, 29, "unsupported section 'Bonds'");
}

TEST_F(LammpsDataErrors, UnknownSectionKeyword) {
  auto l = base_lines();
  l[22 - 1] = "Speeds";
  expect_error(l, 22, "expected a section keyword");
}

TEST_F(LammpsDataErrors, UnrecognisedHeaderLine) {
  auto l = base_lines();
  l[5 - 1] = "3 widgets";
  expect_error(l, 5, "unrecognised header line '3 widgets'");
}

TEST_F(LammpsDataErrors, TriclinicHeader) {
  auto l = base_lines();
  l[9 - 1] = "0.5 0 0 xy xz yz";
  expect_error(l, 9, "triclinic");
}

TEST_F(LammpsDataErrors, AtomOutsideBox) {
  auto l = base_lines();
  l[18 - 1] = "2 2 10 2 2 0 0 0";  // x == xhi is outside: the box is [lo, hi)
  expect_error(l, 18, "atom 2 at (10, 2, 2) is outside the box");
}

TEST_F(LammpsDataErrors, NonAtomicStyle) {
  auto l = base_lines();
  l[15 - 1] = "Atoms # charge";
  expect_error(l, 15, "only atomic is supported");
}

TEST_F(LammpsDataErrors, BlankLineInsideSection) {
  auto l = base_lines();
  l.insert(l.begin() + 18, "");  // becomes line 19, after 2 of 4 atoms
  expect_error(l, 19, "blank line after 2 of 4 entries");
}

TEST_F(LammpsDataErrors, VelocitiesBeforeAtoms) {
  auto l = base_lines();
  std::vector<std::string> v(l.begin() + 21, l.end());       // "Velocities" .. end
  std::vector<std::string> head(l.begin(), l.begin() + 14);  // title .. Masses
  std::vector<std::string> atoms(l.begin() + 14, l.begin() + 21);
  head.insert(head.end(), v.begin(), v.end());
  head.push_back("");
  head.insert(head.end(), atoms.begin(), atoms.end());
  expect_error(head, 15, "Velocities section before the Atoms section");
}

TEST_F(LammpsDataErrors, BadMass) {
  auto l = base_lines();
  l[13 - 1] = "2 -4";
  expect_error(l, 13, "mass must be positive");
}

TEST_F(LammpsDataErrors, MissingFileNamesIt) {
  System s;
  try {
    molstep::io::read_lammps_data(dir_ / "absent.data", s);
    ADD_FAILURE() << "no error for a missing file";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("cannot open data file"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("absent.data"), std::string::npos) << e.what();
  }
}

TEST_F(LammpsDataErrors, FailedReadLeavesSystemUnchanged) {
  molstep::test::write_file(dir_ / "ok.data", join(base_lines()));
  System s;
  molstep::io::read_lammps_data(dir_ / "ok.data", s);
  auto l = base_lines();
  l[27 - 1] = "4 0 0 oops";  // fails on the very last line, after everything else was parsed
  molstep::test::write_file(dir_ / "bad.data", join(l));
  EXPECT_THROW(molstep::io::read_lammps_data(dir_ / "bad.data", s), Error);
  ASSERT_EQ(s.atoms.size(), 4U);
  EXPECT_EQ(s.atoms.vz[index_by_id(s).at(4)], 1e-3);
  EXPECT_EQ(s.mass[2], 4.0);
  EXPECT_EQ(s.box.lo[1], -1.0);
}
