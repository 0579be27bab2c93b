// SPDX-License-Identifier: MIT
// GRO, PDB and LAMMPS data files read as structures; element guessing; box conversions;
// format dispatch by name and extension.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "io/traj_reference.hpp"
#include "molstep/core/elements.hpp"
#include "molstep/core/error.hpp"
#include "molstep/core/frame.hpp"
#include "molstep/io/gro.hpp"
#include "molstep/io/lammps_data_structure.hpp"
#include "molstep/io/pdb.hpp"
#include "molstep/io/trajectory.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::core::Frame;
using molstep::io::Structure;
using namespace molstep::test;

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Checks names, residues and the frame of a structure against MDAnalysis's reading.
void expect_topology_and_frame(const Structure& s, const Reference& ref, double tol) {
  const auto& t = s.topology;
  ASSERT_EQ(t.natoms(), ref.natoms);
  if (!ref.column("name").empty()) {
    EXPECT_EQ(t.name, ref.column("name"));
  }
  if (!ref.column("resname").empty()) {
    EXPECT_EQ(t.resname, ref.column("resname"));
  }
  const auto resid = ref.column("resid");
  ASSERT_EQ(t.resid.size(), resid.size());
  for (std::size_t i = 0; i < resid.size(); ++i) EXPECT_EQ(std::to_string(t.resid[i]), resid[i]) << i;
  ASSERT_TRUE(s.frame.has_value());
  expect_positions(*s.frame, ref.frames[0], tol);
}

// MDAnalysis 2.4's DATA reader divides the file's velocities by 1000 (a unit conversion meant
// for `units real`); molstep keeps the numbers of the file.
void expect_velocities_scaled(const Frame& f, const RefFrame& r) {
  ASSERT_TRUE(f.has_velocities());
  ASSERT_EQ(r.v.size(), f.natoms());
  for (std::size_t i = 0; i < f.natoms(); ++i) {
    EXPECT_TRUE(near(f.vx[i] / 1000, r.v[i][0], 1e-9, 1e-6)) << i;
    EXPECT_TRUE(near(f.vy[i] / 1000, r.v[i][1], 1e-9, 1e-6)) << i;
    EXPECT_TRUE(near(f.vz[i] / 1000, r.v[i][2], 1e-9, 1e-6)) << i;
  }
}

class StructureErrors : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir(std::string("structure-") + testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string read_error(const std::string& name, const std::string& text) {
    write_file(dir_ / name, text);
    return error_of([&] { molstep::io::read_structure(dir_ / name); });
  }
  Structure read(const std::string& name, const std::string& text) {
    write_file(dir_ / name, text);
    return molstep::io::read_structure(dir_ / name);
  }
  fs::path dir_;
};

}  // namespace

// ---------------------------------------------------------------- GRO

TEST(StructureGro, ReadsMdanalysisWrittenFile) {
  const Structure s = molstep::io::read_gro(traj_data("gro_mda.gro"));
  const Reference ref = read_reference("gro_mda.mda.txt");
  // GRO has 3 decimals in nm; MDAnalysis converts in float32.
  expect_topology_and_frame(s, ref, 2e-6);
  expect_dimensions(*s.frame, ref.frames[0], 2e-6);
  // Elements guessed from the names as MDAnalysis guesses its types (in canonical case; MW is
  // MDAnalysis's "DUMMY", no element here); masses agree to the older values it tabulates.
  const auto types = ref.column("type");
  const auto masses = ref.column("mass");
  for (std::size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(upper(s.topology.element[i]), types[i] == "DUMMY" ? "" : types[i]) << s.topology.name[i];
    EXPECT_NEAR(s.topology.mass[i], std::stod(masses[i]), 0.01) << s.topology.name[i];
  }
}

TEST(StructureGro, HighPrecisionTitleTimeAndOrthogonalBox) {
  const Structure s = molstep::io::read_structure(traj_data("gro_hiprec.gro"));
  const Frame& f = *s.frame;
  EXPECT_EQ(f.step, 6250);
  EXPECT_EQ(f.time, 12.5);
  EXPECT_EQ(s.topology.name, (std::vector<std::string>{"OW", "HW1", "CL"}));
  EXPECT_EQ(s.topology.resname, (std::vector<std::string>{"SOL", "SOL", "CL"}));
  EXPECT_EQ(s.topology.resid, (std::vector<std::int64_t>{1, 1, 2}));
  EXPECT_EQ(s.topology.element, (std::vector<std::string>{"O", "H", "Cl"}));
  EXPECT_DOUBLE_EQ(f.x[0], 1.2345);
  EXPECT_DOUBLE_EQ(f.y[1], -0.0001);
  EXPECT_DOUBLE_EQ(f.z[1], 999.9999);
  EXPECT_DOUBLE_EQ(f.vx[0], 1.0101);
  EXPECT_DOUBLE_EQ(f.vx[2], 0.00001);
  EXPECT_DOUBLE_EQ(f.vz[2], -5.0);
  EXPECT_EQ(f.box, (std::array<std::array<double, 3>, 3>{{{40, 0, 0}, {0, 50, 0}, {0, 0, 60}}}));
}

TEST_F(StructureErrors, GroErrors) {
  const std::string head = "t\n    2\n    1SOL     OW    1   0.100   0.200   0.300\n";
  EXPECT_NE(read_error("a.gro", head).find("a.gro:4: file ends after 1 of 2 atom lines"), std::string::npos);
  std::string msg = read_error("a.gro", head + "    1SOL    HW1    2   0.100   0.2x0   0.300\n1 1 1\n");
  EXPECT_NE(msg.find("a.gro:4: atom line 2: expected a number for y in columns 29-36, found '0.2x0'"), std::string::npos)
      << msg;
  msg = read_error("a.gro", head + "    1SOL    HW1    2   0.100   0.200\n1 1 1\n");
  EXPECT_NE(msg.find("a.gro:4: atom line 2 is 36 characters long; the fixed columns need 44"), std::string::npos) << msg;
  msg = read_error("a.gro", head + "    1SOL    HW1    2   0.100   0.200   0.300\n1 1\n");
  EXPECT_NE(msg.find("a.gro:5: expected 3 or 9 numbers on the box line, found 2"), std::string::npos) << msg;
  msg = read_error("a.gro", "t\n  x\n");
  EXPECT_NE(msg.find("a.gro:2: expected the atom count, found '  x'"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- PDB

TEST(StructurePdb, ReadsTheFirstModelOfAnMdanalysisWrittenFile) {
  const Structure s = molstep::io::read_pdb(traj_data("pdb_mda.pdb"));
  const Reference ref = read_reference("pdb_mda.mda.txt");
  expect_topology_and_frame(s, ref, 1e-7);
  const auto elements = ref.column("element");
  for (std::size_t i = 0; i < elements.size(); ++i) {
    // MW has no element column: molstep guesses none, as MDAnalysis's guesser gives DUMMY.
    EXPECT_EQ(s.topology.element[i], elements[i]) << i;
  }
  // MDAnalysis 2.4 does not read back the CRYST1 its own writer puts before MODEL 1; we do.
  ASSERT_TRUE(s.frame->has_box());
  const auto la = molstep::core::box_lengths_angles(s.frame->box);
  const double want[6] = {41, 42, 43, 70, 80, 100};
  for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(la[k], want[k], 1e-12);
}

TEST(StructurePdb, ChargesPlaceholderBoxAndGuessedElements) {
  const Structure s = molstep::io::read_structure(traj_data("pdb_hand.pdb"));
  const Reference ref = read_reference("pdb_hand.mda.txt");
  expect_topology_and_frame(s, ref, 1e-7);
  EXPECT_FALSE(s.frame->has_box()) << "CRYST1 1 1 1 90 90 90 means no box";
  const auto charges = ref.column("formalcharge");
  ASSERT_EQ(s.topology.charge.size(), charges.size());
  for (std::size_t i = 0; i < charges.size(); ++i) EXPECT_EQ(s.topology.charge[i], std::stod(charges[i])) << i;
  // Where the file has elements they are MDAnalysis's; the last two are guessed from names.
  EXPECT_EQ(s.topology.element, (std::vector<std::string>{"N", "C", "O", "Zn", "Cl", "O"}));
  EXPECT_NEAR(s.topology.mass[3], 65.38, 1e-9);
  EXPECT_NEAR(s.topology.mass[4], 35.45, 1e-9);
}

TEST_F(StructureErrors, PdbStopsAtEndAndEndmdl) {
  const std::string atom1 = "ATOM      1  CA  ALA A   1      11.104   6.134  -6.504  1.00  0.00           C\n";
  const std::string atom2 = "ATOM      2  CB  ALA A   1       1.000   2.000   3.000  1.00  0.00           C\n";
  EXPECT_EQ(read("a.pdb", atom1 + "END\n" + atom2).topology.natoms(), 1u);
  EXPECT_EQ(read("a.pdb", "MODEL 1\n" + atom1 + "ENDMDL\nMODEL 2\n" + atom2).topology.natoms(), 1u);
  EXPECT_EQ(read("a.pdb", "MODEL 1\n" + atom1 + "MODEL 2\n" + atom2).topology.natoms(), 1u);
  EXPECT_EQ(read("a.pdb", atom1 + "TER\n" + atom2).topology.natoms(), 2u);
  const Structure s = read("a.pdb", atom1);
  EXPECT_TRUE(s.topology.charge.empty());
  EXPECT_FALSE(s.frame->has_box());
}

TEST_F(StructureErrors, PdbErrors) {
  std::string msg = read_error("a.pdb", "REMARK\nATOM      1  CA  ALA A   1      11.104   6.134\n");
  EXPECT_NE(msg.find("a.pdb:2: ATOM record (atom 1) is 46 characters long; x y z need columns 31-54"), std::string::npos)
      << msg;
  msg = read_error("a.pdb", "ATOM      1  CA  ALA A   1      11.104   6.1x4  -6.504\n");
  EXPECT_NE(msg.find("a.pdb:1: atom 1: expected a number for y in columns 39-46, found '6.1x4'"), std::string::npos) << msg;
  msg = read_error("a.pdb", "ATOM      1  CA  ALA A   1      11.104   6.134  -6.504  1.00  0.00           C2*\n");
  EXPECT_NE(msg.find("a.pdb:1: atom 1: expected a formal charge like '2+' or '1-' in columns 79-80, found '2*'"),
            std::string::npos)
      << msg;
  msg = read_error("a.pdb", "CRYST1   41.000   4x.000   43.000  70.00  80.00 100.00 P 1\n");
  EXPECT_NE(msg.find("a.pdb:1: CRYST1: expected a number for b in columns 16-24, found '4x.000'"), std::string::npos)
      << msg;
  msg = read_error("a.pdb", "REMARK nothing\n");
  EXPECT_NE(msg.find("a.pdb: no ATOM or HETATM records in the first model"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- LAMMPS data

TEST(StructureLammpsData, ChargeStyleLikeMdanalysis) {
  const Structure s = molstep::io::read_structure(traj_data("data_charge.data"));
  const Reference ref = read_reference("data_charge.mda.txt");
  const auto& t = s.topology;
  ASSERT_EQ(t.natoms(), 48u);
  EXPECT_TRUE(t.resid.empty()) << "style charge has no molecule ids";
  const auto types = ref.column("type"), masses = ref.column("mass"), charges = ref.column("charge");
  for (std::size_t i = 0; i < 48; ++i) {
    EXPECT_EQ(std::to_string(t.type[i]), types[i]);
    EXPECT_EQ(t.mass[i], std::stod(masses[i]));
    EXPECT_NEAR(t.charge[i], std::stod(charges[i]), 1e-7);
  }
  // MDAnalysis keeps LAMMPS's absolute positions; ours are relative to the box origin.
  const Frame& f = *s.frame;
  const std::array<double, 3> lo = {f.scalars.at("xlo"), f.scalars.at("ylo"), f.scalars.at("zlo")};
  EXPECT_DOUBLE_EQ(lo[0], -2.519394287073761);
  expect_velocities_scaled(f, ref.frames[0]);
  RefFrame positions = ref.frames[0];
  positions.v.clear();
  expect_positions(f, positions, 2e-6, lo);
  expect_dimensions(f, ref.frames[0], 2e-6);
}

TEST(StructureLammpsData, FullStyleTriclinicLikeMdanalysis) {
  const Structure s = molstep::io::read_lammps_data_structure(traj_data("data_full_tri.data"));
  const Reference ref = read_reference("data_full_tri.mda.txt");
  const auto& t = s.topology;
  const auto resids = ref.column("resid"), types = ref.column("type"), masses = ref.column("mass"),
             charges = ref.column("charge");
  ASSERT_EQ(t.natoms(), resids.size());
  for (std::size_t i = 0; i < resids.size(); ++i) {
    EXPECT_EQ(std::to_string(t.resid[i]), resids[i]);
    EXPECT_EQ(std::to_string(t.type[i]), types[i]);
    EXPECT_EQ(t.mass[i], std::stod(masses[i]));
    EXPECT_EQ(t.charge[i], std::stod(charges[i]));
  }
  const Frame& f = *s.frame;
  EXPECT_FALSE(f.orthorhombic());
  expect_velocities_scaled(f, ref.frames[0]);
  RefFrame positions = ref.frames[0];
  positions.v.clear();
  expect_positions(f, positions, 2e-6);
  expect_dimensions(f, ref.frames[0], 2e-6);
}

TEST_F(StructureErrors, LammpsDataStyleFromColumnCount) {
  const std::string head = "title\n\n2 atoms\n1 atom types\n0 4 xlo xhi\n0 4 ylo yhi\n0 4 zlo zhi\n";
  Structure s = read("a.data", head + "\nAtoms\n\n1 7 1 0.5 1 2 3\n2 8 1 -0.5 2 3 1\n");
  EXPECT_EQ(s.topology.resid, (std::vector<std::int64_t>{7, 8}));
  EXPECT_EQ(s.topology.charge, (std::vector<double>{0.5, -0.5}));
  s = read("a.data", head + "\nAtoms\n\n2 1 -0.5 2 3 1\n1 1 0.25 1 2 3\n");
  EXPECT_EQ(s.topology.charge, (std::vector<double>{0.25, -0.5})) << "6 columns, no bonds: charge, sorted by id";
  EXPECT_EQ(s.frame->z, (std::vector<double>{3, 1}));
  s = read("a.data", head + "1 bonds\n1 bond types\n\nAtoms\n\n1 3 1 1 2 3\n2 3 1 2 3 1\n\nBonds\n\n1 1 1 2\n");
  EXPECT_EQ(s.topology.resid, (std::vector<std::int64_t>{3, 3})) << "6 columns with bonds: molecular";
  EXPECT_TRUE(s.topology.charge.empty());
  s = read("a.data", head + "\nAtoms # atomic\n\n1 1 1 2 3 0 0 1\n2 1 2 3 1\n\nVelocities\n\n2 1 2 3\n1 4 5 6\n");
  EXPECT_EQ(s.frame->vx, (std::vector<double>{4, 1}));
  EXPECT_TRUE(s.topology.mass.empty());
}

TEST_F(StructureErrors, LammpsDataErrors) {
  const std::string head = "title\n\n2 atoms\n1 atom types\n0 4 xlo xhi\n0 4 ylo yhi\n0 4 zlo zhi\n\n";
  std::string msg = read_error("a.data", head + "Atoms # sphere\n\n1 1 1 1 1 2 3\n");
  EXPECT_NE(msg.find("a.data:9: Atoms section of style 'sphere': supported are atomic, charge, full"), std::string::npos)
      << msg;
  msg = read_error("a.data", head + "Atoms # full\n\n1 1 1 0.5 1 2 3\n2 1 1 0.5 1 2\n");
  EXPECT_NE(msg.find("a.data:12: Atoms (style full): expected 7 or 10 columns, found 6"), std::string::npos) << msg;
  msg = read_error("a.data", head + "Atoms\n\n1 1 1 2 3\n");
  EXPECT_NE(msg.find("a.data:11: Atoms section has 1 lines, but the header declares 2 atoms"), std::string::npos) << msg;
  msg = read_error("a.data", head + "Atoms\n\n1 1 1 2 3\n2 2 1 2 3\n");
  EXPECT_NE(msg.find("a.data:12: Atoms: expected an atom type in 1..1, found '2'"), std::string::npos) << msg;
  msg = read_error("a.data", head + "Velocities\n\n1 0 0 0\n");
  EXPECT_NE(msg.find("a.data:9: Velocities section before the Atoms section"), std::string::npos) << msg;
  msg = read_error("a.data", head + "Masses\n\n2 3.0\n");
  EXPECT_NE(msg.find("a.data:11: Masses: atom type 2 out of range 1..1"), std::string::npos) << msg;
  msg = read_error("a.data", "title\n\n2 atoms\nbogus line\n");
  EXPECT_NE(msg.find("a.data:4: unrecognised header line 'bogus line'"), std::string::npos) << msg;
  msg = read_error("a.data", "title\n\n0 atoms\n1 atom types\n0 4 xlo xhi\n0 4 ylo yhi\n");
  EXPECT_NE(msg.find("a.data: header has no zlo zhi line"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- elements

TEST(StructureElements, GuessesLikeMdanalysis) {
  using molstep::core::guess_element;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"OW", "O"},   {"HW1", "H"},  {"HW2", "H"},  {"CA", "C"},    {"CB", "C"},   {"N", "N"},   {"HN", "H"},
      {"NZ", "N"},   {"HE1", "H"},  {"C1", "C"},   {"O2", "O"},    {"NA", "Na"},  {"SOD", "Na"}, {"CLA", "Cl"},
      {"CL", "Cl"},  {"CL-", "Cl"}, {"POT", "K"},  {"CAL", "Ca"},  {"CA2+", "Ca"}, {"FE", "Fe"}, {"FE2", "Fe"},
      {"ZN", "Zn"},  {"MG", "Mg"},  {"BR", "Br"},  {"IOD", "I"},   {"MW", ""},    {"AR", ""},   {"123", ""},
      {"", ""},      {"Cu", "Cu"},  {"Ar", "Ar"},  {"Na", "Na"},   {"OXT", "O"},  {"SG", "S"},  {"P", "P"},
      {"O1P", "O"},  {"H5'", "H"},  {"C4*", "C"}};
  for (const auto& [name, element] : cases) EXPECT_EQ(guess_element(name), element) << name;
}

TEST(StructureElements, MassesAndNumbers) {
  using namespace molstep::core;
  // The elements of biomolecules have MDAnalysis's masses (IUPAC values) to 1e-3.
  const std::vector<std::pair<std::string, double>> mda = {{"H", 1.008},   {"C", 12.011},    {"N", 14.007},
                                                           {"O", 15.999},  {"S", 32.06},     {"P", 30.974},
                                                           {"NA", 22.98977}, {"CL", 35.45},  {"MG", 24.305},
                                                           {"CU", 63.546}, {"F", 18.998},    {"Fe", 55.847}};
  for (const auto& [symbol, mass] : mda) EXPECT_NEAR(element_mass(symbol), mass, 3e-3) << symbol;
  EXPECT_EQ(element_mass("Xx"), 0.0);
  ASSERT_NE(find_element("cl"), nullptr);
  EXPECT_EQ(find_element("cl")->symbol, "Cl");
  EXPECT_EQ(find_element("CL")->number, 17);
  EXPECT_EQ(element_by_number(29)->symbol, "Cu");
  EXPECT_EQ(element_by_number(92)->symbol, "U");
  EXPECT_EQ(element_by_number(0), nullptr);
  Topology t;
  t.name = {"OW", "HW1", "MW"};
  guess_masses(t);
  EXPECT_EQ(t.mass, (std::vector<double>{15.999, 1.008, 0.0}));
  guess_elements(t);
  EXPECT_EQ(t.element, (std::vector<std::string>{"O", "H", ""}));
}

// ---------------------------------------------------------------- boxes

TEST(StructureBox, LengthsAnglesLikeMdanalysis) {
  using molstep::core::box_from_lengths_angles;
  using molstep::core::box_lengths_angles;
  using Box = std::array<std::array<double, 3>, 3>;
  // MDAnalysis.lib.mdamath.triclinic_vectors(..., dtype=float64)
  EXPECT_EQ(box_from_lengths_angles(10, 11, 12, 90, 90, 90), (Box{{{10, 0, 0}, {0, 11, 0}, {0, 0, 12}}}));
  const Box a = box_from_lengths_angles(20, 22.5, 25, 80, 95, 110);
  const Box a_mda = {{{20.0, 0.0, 0.0},
                      {-7.6954532248275465, 21.14308396768294, 0.0},
                      {-2.1788935686914557, 3.8267608699646347, 24.609110590600842}}};
  const Box b = box_from_lengths_angles(5, 6, 7, 90, 90, 120);
  const Box b_mda = {{{5.0, 0.0, 0.0}, {-2.9999999999999987, 5.196152422706632, 0.0}, {0.0, 0.0, 7.0}}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(a[r][c], a_mda[r][c], 1e-13);
      EXPECT_NEAR(b[r][c], b_mda[r][c], 1e-13);
    }
  EXPECT_EQ(b[2][0], 0.0) << "exact zeros for exact right angles";
  EXPECT_EQ(b[2][1], 0.0);
  EXPECT_EQ(box_from_lengths_angles(10, 10, 10, 90, 90, 180), Box{});
  EXPECT_EQ(box_from_lengths_angles(10, 10, 10, 10, 10, 60), Box{}) << "angles no cell can have";
  EXPECT_EQ(box_from_lengths_angles(0, 10, 10, 90, 90, 90), Box{});
  const auto la = box_lengths_angles(a);
  const double want[6] = {20, 22.5, 25, 80, 95, 110};
  for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(la[k], want[k], 1e-12);
  EXPECT_EQ(box_lengths_angles(b)[3], 90.0);
  EXPECT_EQ(box_lengths_angles(Box{}), (std::array<double, 6>{}));
}

// ---------------------------------------------------------------- dispatch

TEST(StructureDispatch, FormatsFromNamesAndExtensions) {
  using molstep::io::format_from_name;
  using molstep::io::format_from_path;
  using F = molstep::io::TrajectoryFormat;
  EXPECT_EQ(format_from_name("dcd"), F::dcd);
  EXPECT_EQ(format_from_name("XTC"), F::xtc);
  EXPECT_EQ(format_from_name("lammpstrj"), F::lammps_dump);
  EXPECT_EQ(format_from_name("dump"), F::lammps_dump);
  EXPECT_EQ(format_from_name("extxyz"), F::xyz);
  EXPECT_EQ(format_from_name("pdb"), std::nullopt);
  EXPECT_EQ(format_from_path("a/b.trr"), F::trr);
  EXPECT_EQ(format_from_path("run.LAMMPSTRJ"), F::lammps_dump);
  EXPECT_EQ(format_from_path("x.extxyz"), F::xyz);
  const std::string msg = error_of([] { format_from_path("traj.nc"); });
  EXPECT_NE(msg.find("traj.nc: cannot tell the trajectory format from the extension '.nc' (known: .xtc .trr .dcd"),
            std::string::npos)
      << msg;
  EXPECT_NE(error_of([] { format_from_path("noext"); }).find("noext"), std::string::npos);
}
