// SPDX-License-Identifier: MIT
// Lattice and box construction against LAMMPS's write_data output for the same decks.
#include <gtest/gtest.h>

#include <cmath>

#include "molstep/core/error.hpp"
#include "molstep/io/lammps_data.hpp"
#include "molstep/md/lattice.hpp"
#include "support/deck_runner.hpp"
#include "support/paths.hpp"

namespace {

void expect_same_atoms(const molstep::md::System& a, const molstep::md::System& b) {
  ASSERT_EQ(a.atoms.size(), b.atoms.size());
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(a.box.lo[d], b.box.lo[d]);
    EXPECT_EQ(a.box.hi[d], b.box.hi[d]);
  }
  for (std::size_t i = 0; i < a.atoms.size(); ++i) {
    ASSERT_EQ(a.atoms.id[i], b.atoms.id[i]) << "atom order differs at index " << i;
    EXPECT_EQ(a.atoms.type[i], b.atoms.type[i]);
    EXPECT_EQ(a.atoms.x[i], b.atoms.x[i]) << "id " << a.atoms.id[i];
    EXPECT_EQ(a.atoms.y[i], b.atoms.y[i]) << "id " << a.atoms.id[i];
    EXPECT_EQ(a.atoms.z[i], b.atoms.z[i]) << "id " << a.atoms.id[i];
    EXPECT_EQ(a.atoms.vx[i], b.atoms.vx[i]) << "id " << a.atoms.id[i];
    EXPECT_EQ(a.atoms.vy[i], b.atoms.vy[i]) << "id " << a.atoms.id[i];
    EXPECT_EQ(a.atoms.vz[i], b.atoms.vz[i]) << "id " << a.atoms.id[i];
  }
}

}  // namespace

class LatticeVsLammps : public ::testing::TestWithParam<const char*> {};

TEST_P(LatticeVsLammps, SameIdsAndBitIdenticalPositions) {
  const std::string style = GetParam();
  const auto dir = molstep::test::scratch_dir("lattice-" + style);
  molstep::test::run_deck(molstep::test::data_dir() / "lammps" / ("in.lattice." + style + ".metal"), dir);
  molstep::md::System ours, theirs;
  molstep::io::read_lammps_data(dir / ("lattice." + style + ".data"), ours);
  molstep::io::read_lammps_data(molstep::test::data_dir() / "lammps" / ("lattice." + style + ".data"), theirs);
  expect_same_atoms(ours, theirs);
}

INSTANTIATE_TEST_SUITE_P(Styles, LatticeVsLammps, ::testing::Values("sc", "bcc", "fcc"));

TEST(Lattice, ReducedDensityGivesTheLatticeConstant) {
  const auto units = molstep::core::unit_system("lj");
  const auto fcc = molstep::md::make_lattice("fcc", 0.8442, units);
  EXPECT_NEAR(fcc.constant, std::cbrt(4.0 / 0.8442), 1e-15);
  const auto bcc = molstep::md::make_lattice("bcc", 1.0, units);
  EXPECT_NEAR(bcc.constant, std::cbrt(2.0), 1e-15);
  EXPECT_EQ(molstep::md::make_lattice("fcc", 3.615, molstep::core::unit_system("metal")).constant, 3.615);
  EXPECT_THROW(molstep::md::make_lattice("hcp", 1.0, units), molstep::Error);
  EXPECT_THROW(molstep::md::make_lattice("fcc", -1.0, units), molstep::Error);
}

TEST(Lattice, FillsABoxOfWholeCellsExactlyOnce) {
  const auto lat = molstep::md::make_lattice("fcc", 0.8442, molstep::core::unit_system("lj"));
  molstep::core::Box box;
  box.hi = {5 * lat.constant, 4 * lat.constant, 3 * lat.constant};
  molstep::core::Atoms atoms;
  EXPECT_EQ(molstep::md::create_atoms_on_lattice(lat, box, 1, atoms), 4u * 5 * 4 * 3);
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    EXPECT_TRUE(box.contains(atoms.x[i], atoms.y[i], atoms.z[i]));
    EXPECT_EQ(atoms.id[i], static_cast<std::int64_t>(i + 1));
  }
}

class VelocityVsLammps : public ::testing::TestWithParam<const char*> {};

// `velocity create` with every loop and distribution reproduces LAMMPS bit for bit, which is
// what lets LAMMPS decks run unchanged and print the same thermo.
TEST_P(VelocityVsLammps, BitIdenticalVelocities) {
  const std::string name = GetParam();
  const auto dir = molstep::test::scratch_dir("vel-" + name);
  molstep::test::run_deck(molstep::test::data_dir() / "lammps" / ("in.vel." + name), dir);
  molstep::md::System ours, theirs;
  molstep::io::read_lammps_data(dir / ("vel." + name + ".data"), ours);
  molstep::io::read_lammps_data(molstep::test::data_dir() / "lammps" / ("vel." + name + ".data"), theirs);
  expect_same_atoms(ours, theirs);
}

INSTANTIATE_TEST_SUITE_P(Options, VelocityVsLammps,
                         ::testing::Values("geom", "all", "local", "gauss.geom", "gauss.all", "momno", "rotyes",
                                           "metal", "scale"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });
