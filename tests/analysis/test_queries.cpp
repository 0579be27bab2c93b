// SPDX-License-Identifier: MIT
// The analysis queries against hand-computed small systems (the MDAnalysis and NumPy
// comparisons are in test_queries_reference.cpp). Each test drives queries through
// QueryDriver, which stands in for the engine with plain loops.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>

#include "molstep/analysis/csv.hpp"
#include "molstep/analysis/queries/common.hpp"
#include "molstep/core/error.hpp"
#include "support/analysis_driver.hpp"
#include "support/paths.hpp"

namespace molstep::test {
namespace {

using analysis::CsvColumn;
using Vec = std::array<double, 3>;

core::Topology masses_charges(const std::vector<double>& mass, const std::vector<double>& charge = {}) {
  core::Topology t;
  t.mass = mass;
  t.charge = charge.empty() ? std::vector<double>(mass.size(), 0.0) : charge;
  t.type.assign(mass.size(), 1);
  return t;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// ---------------------------------------------------------------------------------------------

TEST(AnalysisCsv, RoundTripsDoublesExactly) {
  const auto dir = scratch_dir("csv");
  const std::vector<double> reals{0.1, 1.0 / 3.0, -2.5e-300, 6.02214076e23, std::nan(""), 1e16 + 2, 0.0};
  const std::vector<std::int64_t> counts{0, 1, -7, 9007199254740993LL, 4, 5, 6};
  analysis::write_csv(dir / "t.csv", {{"a", reals}, {"n", counts}}, {"first comment", "second"});
  const auto csv = read_csv(dir / "t.csv");
  ASSERT_EQ(csv.comments, (std::vector<std::string>{"first comment", "second"}));
  ASSERT_EQ(csv.names, (std::vector<std::string>{"a", "n"}));
  for (std::size_t i = 0; i < reals.size(); ++i) {
    if (std::isnan(reals[i])) {
      EXPECT_TRUE(std::isnan(csv.at("a")[i]));
    } else {
      EXPECT_EQ(csv.at("a")[i], reals[i]) << i;
    }
  }
  // Integers are written as integers, not through a double.
  std::ifstream in(dir / "t.csv");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(",9007199254740993\n"), std::string::npos);
  EXPECT_EQ(analysis::format_double(0.1), "0.1");
  EXPECT_EQ(analysis::format_double(-std::nan("")), "nan");
}

TEST(AnalysisCsv, RejectsRaggedColumnsAndBadNames) {
  const auto dir = scratch_dir("csv_bad");
  EXPECT_THROW(analysis::write_csv(dir / "t.csv", {{"a", std::vector<double>{1, 2}}, {"b", std::vector<double>{1}}}),
               Error);
  EXPECT_THROW(analysis::write_csv(dir / "t.csv", {{"a,b", std::vector<double>{1}}}), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "t.csv"));
}

TEST(AnalysisMath, JacobiEigenvaluesOfRotatedDiagonal) {
  // R diag(1, 4, 9) R^T for a rotation R about (1, 2, 3) by 0.7 rad: eigenvalues 1, 4, 9.
  const double angle = 0.7;
  Vec k{1, 2, 3};
  const double nk = std::sqrt(14.0);
  for (auto& v : k) v /= nk;
  const double c = std::cos(angle), s = std::sin(angle);
  double r[3][3];
  // Rodrigues: R = c 1 + (1 - c) k k^T + s [k]_x.
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r[i][j] = (i == j ? c : 0.0) + (1 - c) * k[i] * k[j];
  }
  r[0][1] -= s * k[2];
  r[0][2] += s * k[1];
  r[1][0] += s * k[2];
  r[1][2] -= s * k[0];
  r[2][0] -= s * k[1];
  r[2][1] += s * k[0];
  const double d[3] = {9, 1, 4};
  std::array<std::array<double, 3>, 3> a{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int m = 0; m < 3; ++m) a[i][j] += r[i][m] * d[m] * r[j][m];
    }
  }
  const auto w = analysis::symmetric_eigenvalues(a);
  EXPECT_NEAR(w[0], 1, 1e-13);
  EXPECT_NEAR(w[1], 4, 1e-13);
  EXPECT_NEAR(w[2], 9, 1e-13);
  // Already diagonal, and degenerate.
  const auto u = analysis::symmetric_eigenvalues({{{2, 0, 0}, {0, 2, 0}, {0, 0, -1}}});
  EXPECT_EQ(u, (std::array<double, 3>{-1, 2, 2}));
}

// ---------------------------------------------------------------------------------------------

TEST(QueryRegistry, UnknownKindListsKnownKinds) {
  QueryDriver d(masses_charges({1, 1}), make_frame({{0, 0, 0}, {1, 0, 0}}, 10));
  const auto message = error_of([&] { d.add("gyration:sel=all"); });
  EXPECT_NE(message.find("unknown kind 'gyration'"), std::string::npos) << message;
  for (const auto& [kind, description] : analysis::query_kinds()) {
    EXPECT_NE(message.find(kind), std::string::npos) << kind;
    EXPECT_FALSE(description.empty());
  }
  EXPECT_EQ(analysis::query_kinds().size(), 13u);
}

TEST(QueryRegistry, UnusedParameterIsAnError) {
  QueryDriver d(masses_charges({1, 1}), make_frame({{0, 0, 0}, {1, 0, 0}}, 10));
  const auto message = error_of([&] { d.add("rdf:bisn=20"); });
  EXPECT_NE(message.find("bisn"), std::string::npos) << message;
  EXPECT_NE(error_of([&] { d.add("msd:dims=zx"); }).find("dims"), std::string::npos);
  EXPECT_NE(error_of([&] { d.add("rg:sel=none"); }).find("matches no atoms"), std::string::npos);
}

TEST(QueryMass, TotalMassChargeAndCentre) {
  const std::vector<double> mass{1.008, 15.999, 1.008, 12.011};
  const std::vector<double> charge{0.41, -0.82, 0.41, 0.25};
  const std::vector<Vec> pos{{1, 2, 3}, {1.5, 2, 3}, {2, 2.5, 3}, {-4, 0.5, 7}};
  QueryDriver d(masses_charges(mass, charge), make_frame(pos, 20));
  d.add("mass");
  d.add("charge:sel=index 0-2,label=water_q");
  d.add("com:sel=index 0:2");
  for (int f = 0; f < 3; ++f) d.push(make_frame(pos, 20, 0.5 * f, 100 * f));
  const auto dir = scratch_dir("mass");
  const auto summary = d.finish(dir);
  const auto m = read_csv(dir / "mass.csv");
  ASSERT_EQ(m.rows(), 3u);
  EXPECT_DOUBLE_EQ(m.at("mass")[2], 1.008 + 15.999 + 1.008 + 12.011);
  EXPECT_EQ(m.at("step")[1], 100);
  EXPECT_EQ(m.at("time")[2], 1.0);
  EXPECT_NEAR(read_csv(dir / "water_q.csv").at("charge")[0], 0.0, 1e-15);
  const auto com = read_csv(dir / "com.csv");
  const double mw = 1.008 + 15.999 + 1.008;
  EXPECT_NEAR(com.at("x")[0], (1.008 * 1 + 15.999 * 1.5 + 1.008 * 2) / mw, 1e-14);
  EXPECT_NEAR(com.at("y")[0], (1.008 * 2 + 15.999 * 2 + 1.008 * 2.5) / mw, 1e-14);
  EXPECT_NEAR(com.at("z")[0], 3, 1e-14);
  EXPECT_EQ(summary["mass"]["kind"], "mass");
  EXPECT_EQ(summary["mass"]["frames"], 3);
  EXPECT_EQ(summary["water_q"]["parameters"]["sel_atoms"], 3);
  EXPECT_NEAR(summary["mass"]["results"]["series"]["mass"]["mean"].get<double>(), 30.026, 1e-12);
}

TEST(QueryRg, UniformRingAndAxisRadii) {
  // 36 equal masses on a ring of radius 2.5 in the xy plane around (7, -3, 11): Rg = R, and as
  // gmx gyrate defines the axis radii (components perpendicular to the axis): Rg_z = R,
  // Rg_x = Rg_y = R / sqrt(2).
  const double radius = 2.5;
  std::vector<Vec> pos;
  for (int k = 0; k < 36; ++k) {
    const double a = 2 * std::numbers::pi * k / 36;
    pos.push_back({7 + radius * std::cos(a), -3 + radius * std::sin(a), 11});
  }
  QueryDriver d(masses_charges(std::vector<double>(36, 3.0)), make_frame(pos, 0));
  d.add("rg");
  d.push(make_frame(pos, 0));
  const auto dir = scratch_dir("rg_ring");
  d.finish(dir);
  const auto rg = read_csv(dir / "rg.csv");
  EXPECT_NEAR(rg.at("rg")[0], radius, 1e-13);
  EXPECT_NEAR(rg.at("rg_z")[0], radius, 1e-13);
  EXPECT_NEAR(rg.at("rg_x")[0], radius / std::sqrt(2.0), 1e-13);
  EXPECT_NEAR(rg.at("rg_y")[0], radius / std::sqrt(2.0), 1e-13);
}

TEST(QueryInertia, DumbbellPrincipalMoments) {
  // Masses 2 and 6 at distance 3 along (1, 2, 2)/3: I = mu d^2 about both perpendicular axes
  // (mu = 2*6/8 = 1.5, so 13.5) and 0 along the axis.
  const std::vector<Vec> pos{{4, 5, 6}, {5, 7, 8}};
  QueryDriver d(masses_charges({2, 6}), make_frame(pos, 0));
  d.add("inertia");
  d.push(make_frame(pos, 0));
  const auto dir = scratch_dir("inertia");
  d.finish(dir);
  const auto t = read_csv(dir / "inertia.csv");
  EXPECT_NEAR(t.at("I1")[0], 0, 1e-12);
  EXPECT_NEAR(t.at("I2")[0], 13.5, 1e-12);
  EXPECT_NEAR(t.at("I3")[0], 13.5, 1e-12);
  // Tensor components: I = mu (d^2 1 - d d^T) with d = (1, 2, 2).
  EXPECT_NEAR(t.at("Ixx")[0], 1.5 * (9 - 1), 1e-12);
  EXPECT_NEAR(t.at("Iyy")[0], 1.5 * (9 - 4), 1e-12);
  EXPECT_NEAR(t.at("Ixy")[0], -1.5 * 2, 1e-12);
  EXPECT_NEAR(t.at("Iyz")[0], -1.5 * 4, 1e-12);
}

TEST(QueryDipole, PlusMinusChargesAndHistogram) {
  // +0.5 e at (1, 1, 1) and -0.5 e at (1, 1, 3), shifted each frame: D = 0.5 * (0, 0, -2) = 1 e A
  // = 4.80320471 D in every frame, whatever the centre.
  QueryDriver d(masses_charges({1, 3}, {0.5, -0.5}), make_frame({{1, 1, 1}, {1, 1, 3}}, 0));
  d.add("dipole:bins=4");
  d.add("dipole:center=origin,label=d2,dmax=8,bins=8");
  for (int f = 0; f < 5; ++f) d.push(make_frame({{1.0 + f, 1, 1}, {1.0 + f, 1, 3}}, 0, f));
  const auto dir = scratch_dir("dipole");
  const auto summary = d.finish(dir);
  for (const char* label : {"dipole", "d2"}) {
    const auto t = read_csv(dir / (std::string(label) + ".csv"));
    EXPECT_NEAR(t.at("Dz")[3], -1.0, 1e-14);
    EXPECT_NEAR(t.at("Dx")[3], 0.0, 1e-14);
    EXPECT_NEAR(t.at("D_debye")[4], 4.80320471257, 1e-10);
  }
  // All five frames in the last bin of [0, max |D|) and in bin 4 = [4, 5) D of [0, 8).
  const auto h = read_csv(dir / "dipole_hist.csv");
  EXPECT_EQ(h.at("count")[3], 5);
  const auto h2 = read_csv(dir / "d2_hist.csv");
  EXPECT_EQ(h2.at("count")[4], 5);
  EXPECT_NEAR(h2.at("pdf")[4], 1.0, 1e-14);  // all samples in one bin of width 1 D
  EXPECT_EQ(summary["d2"]["results"]["histogram"]["samples"], 5);
}

TEST(QueryDipole, CentreMattersOnlyForChargedSelections) {
  // A single +1 e at (2, 0, 0): about its own centre of mass D = 0; about the origin D = 2 e A.
  QueryDriver d(masses_charges({1}, {1.0}), make_frame({{2, 0, 0}}, 0));
  d.add("dipole");
  d.add("dipole:center=origin,label=o");
  d.push(make_frame({{2, 0, 0}}, 0));
  const auto dir = scratch_dir("dipole_charged");
  d.finish(dir);
  EXPECT_EQ(read_csv(dir / "dipole.csv").at("D")[0], 0.0);
  EXPECT_EQ(read_csv(dir / "o.csv").at("D")[0], 2.0);
}

TEST(QueryDipole, PerResidueMakesMoleculesWholeAcrossTheBoundary) {
  // Eight water-like molecules (O -0.8 e, two H +0.4 e at +-0.8 A in x and 0.6 A in z from O):
  // each has mu = 0.8 * 0.6 = 0.48 e A = 2.3055 D. Half of them sit on the periodic boundary of a
  // 6 A box, split into images on both sides; made whole they give the same dipole.
  std::vector<Vec> pos;
  core::Topology top;
  for (int m = 0; m < 8; ++m) {
    const double ox = m < 4 ? 5.9 : 1.0 + 0.5 * m;  // molecules 0-3 straddle x = 6
    const double oy = 0.7 * m, oz = 3.0;
    Vec h1{ox + 0.8, oy, oz + 0.6}, h2{ox - 0.8, oy, oz + 0.6};
    for (auto* h : {&h1, &h2}) (*h)[0] -= 6.0 * std::floor((*h)[0] / 6.0);  // wrap into the box
    pos.push_back({ox, oy, oz});
    pos.push_back(h1);
    pos.push_back(h2);
    for (int k = 0; k < 3; ++k) {
      top.resid.push_back(m + 1);
      top.resname.push_back("SOL");
      top.name.push_back(k == 0 ? "OW" : "HW");
      top.mass.push_back(k == 0 ? 15.999 : 1.008);
      top.charge.push_back(k == 0 ? -0.8 : 0.4);
    }
  }
  QueryDriver d(top, make_frame(pos, 6.0));
  d.add("dipole:per=residue,bins=50,dmax=5");
  d.push(make_frame(pos, 6.0));
  d.push(make_frame(pos, 6.0, 1));
  const auto dir = scratch_dir("dipole_res");
  const auto summary = d.finish(dir);
  const double expected = 0.48 * 4.80320471257;
  const auto t = read_csv(dir / "dipole.csv");
  EXPECT_NEAR(t.at("residue_D_mean_debye")[0], expected, 1e-12);
  const auto h = read_csv(dir / "dipole_hist.csv");
  const auto bin = static_cast<std::size_t>(expected / 0.1);
  EXPECT_EQ(h.at("count")[bin], 16);
  EXPECT_EQ(summary["dipole"]["parameters"]["residues"], 8);
  EXPECT_EQ(summary["dipole"]["results"]["histogram"]["overflow"], 0);
}

TEST(QueryDipole, PerResidueNeedsResidues) {
  QueryDriver d(masses_charges({1, 1}, {1, -1}), make_frame({{0, 0, 0}, {1, 0, 0}}, 10));
  EXPECT_NE(error_of([&] { d.add("dipole:per=residue"); }).find("residue numbers"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

std::vector<core::Frame> constant_velocity_frames(const std::vector<Vec>& r0, const std::vector<Vec>& v, int frames,
                                                  double dt, double box, bool wrap) {
  std::vector<core::Frame> out;
  for (int f = 0; f < frames; ++f) {
    std::vector<Vec> pos;
    for (std::size_t i = 0; i < r0.size(); ++i) {
      Vec p;
      for (int c = 0; c < 3; ++c) {
        p[c] = r0[i][c] + v[i][c] * f * dt;
        if (wrap) p[c] -= box * std::floor(p[c] / box);
      }
      pos.push_back(p);
    }
    auto frame = make_frame(pos, box, f * dt, f * 10);
    frame.resize_velocities(r0.size());
    for (std::size_t i = 0; i < r0.size(); ++i) {
      frame.vx[i] = v[i][0];
      frame.vy[i] = v[i][1];
      frame.vz[i] = v[i][2];
    }
    out.push_back(std::move(frame));
  }
  return out;
}

TEST(QueryMsd, ConstantVelocityIsBallistic) {
  // r = r0 + v t: MSD(tau) = <|v|^2> tau^2 exactly; with dims=xy only vx^2 + vy^2 counts.
  const std::vector<Vec> r0{{1, 2, 3}, {4, 4, 4}, {0.5, 7, 1}};
  const std::vector<Vec> v{{0.1, -0.2, 0.3}, {0.0, 0.4, 0.0}, {-0.25, 0.05, 0.15}};
  double v2 = 0, v2xy = 0;
  for (const auto& u : v) {
    v2 += (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) / 3;
    v2xy += (u[0] * u[0] + u[1] * u[1]) / 3;
  }
  const auto frames = constant_velocity_frames(r0, v, 9, 0.5, 0, false);
  const auto [dir, summary] = run_queries(masses_charges({1, 1, 1}), frames,
                                          {"msd:unwrap=none", "msd:unwrap=none,dims=xy,label=msd_xy"}, "msd_cv");
  const auto m = read_csv(dir / "msd.csv");
  const auto mxy = read_csv(dir / "msd_xy.csv");
  ASSERT_EQ(m.rows(), 9u);
  for (std::size_t k = 0; k < 9; ++k) {
    const double t = 0.5 * static_cast<double>(k);
    EXPECT_DOUBLE_EQ(m.at("time")[k], t);
    EXPECT_NEAR(m.at("msd")[k], v2 * t * t, 1e-13);
    EXPECT_NEAR(mxy.at("msd")[k], v2xy * t * t, 1e-13);
  }
  // The fit over lags 1..4 of v2 t^2: slope of the least-squares line through (t, v2 t^2) for
  // t = 0.5, 1, 1.5, 2 is v2 * 2.5 (the mean of t_i + t_j over the symmetric design).
  EXPECT_EQ(summary["msd"]["results"]["fit"]["first_lag"], 1);
  EXPECT_EQ(summary["msd"]["results"]["fit"]["last_lag"], 4);
  EXPECT_NEAR(summary["msd"]["results"]["D"].get<double>(), v2 * 2.5 / 6, 1e-13);
  EXPECT_NEAR(summary["msd"]["results"]["D_1e-5_cm2_per_s"].get<double>(), v2 * 2.5 / 6 * 10, 1e-12);
}

TEST(QueryMsd, NojumpUnwrapsBoundaryCrossings) {
  // Atoms cross the 5 A box several times (0.9 A per frame, below half the box); the
  // nojump-unwrapped MSD equals the MSD of the never-wrapped trajectory.
  const std::vector<Vec> r0{{4.5, 0.2, 2.5}, {0.1, 4.9, 1.0}};
  const std::vector<Vec> v{{0.9, 0.0, 0.3}, {-0.6, 0.7, -0.8}};
  const auto wrapped = constant_velocity_frames(r0, v, 12, 1.0, 5.0, true);
  const auto dir = run_queries(masses_charges({1, 1}), wrapped, {"msd", "msd:unwrap=none,label=raw"}, "msd_nojump").dir;
  const auto m = read_csv(dir / "msd.csv");
  const auto raw = read_csv(dir / "raw.csv");
  const double v2 = (0.81 + 0.09 + 0.36 + 0.49 + 0.64) / 2;
  for (std::size_t k = 0; k < 12; ++k) {
    const double t = static_cast<double>(k);
    EXPECT_NEAR(m.at("msd")[k], v2 * t * t, 1e-11) << k;
  }
  EXPECT_LT(raw.at("msd")[11], v2 * 121 / 2);  // without unwrapping the jumps shorten it
}

TEST(QueryMsd, NojumpNeedsABox) {
  auto f = make_frame({{0, 0, 0}}, 0);
  QueryDriver d(masses_charges({1}), f);
  EXPECT_NE(error_of([&] { d.add("msd"); }).find("unwrap=none"), std::string::npos);
}

TEST(QueryVacf, ConstantVelocitiesAndGreenKubo) {
  // Constant velocities: C(tau) = <|v|^2> for every lag, normalised 1, and
  // D(tau) = C tau / 3; the summary's D is at int_end = 0.5 of the longest lag (lag 5 of 10).
  const std::vector<Vec> r0{{1, 2, 3}, {4, 4, 4}};
  const std::vector<Vec> v{{0.1, -0.2, 0.3}, {0.0, 0.4, 0.0}};
  const double c = (0.01 + 0.04 + 0.09 + 0.16) / 2;
  const auto frames = constant_velocity_frames(r0, v, 11, 0.25, 0, false);
  const auto [dir, summary] =
      run_queries(masses_charges({1, 1}), frames, {"vacf", "vacf:dims=z,int_end=1,label=vz"}, "vacf_cv");
  const auto t = read_csv(dir / "vacf.csv");
  for (std::size_t k = 0; k < 11; ++k) {
    EXPECT_NEAR(t.at("vacf")[k], c, 1e-15);
    EXPECT_NEAR(t.at("vacf_norm")[k], 1.0, 1e-14);
    EXPECT_NEAR(t.at("D_running")[k], c * 0.25 * static_cast<double>(k) / 3, 1e-15);
  }
  EXPECT_NEAR(summary["vacf"]["results"]["D"].get<double>(), c * 1.25 / 3, 1e-15);
  EXPECT_NEAR(summary["vz"]["results"]["D"].get<double>(), (0.09 / 2) * 2.5, 1e-15);
}

TEST(QueryVacf, NeedsVelocities) {
  QueryDriver d(masses_charges({1}), make_frame({{0, 0, 0}}, 10));
  EXPECT_NE(error_of([&] { d.add("vacf"); }).find("velocities"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(QueryDensity, SlabProfileInEveryUnit) {
  // A 4 x 5 x 10 A box, 20 bins of 0.5 A along z; 12 oxygens with charge -0.5 at z in
  // [2, 4) (4 per bin in bins 4..6, at bin centres), some given as periodic images (z + 10,
  // z - 10) that wrap back into the same slabs.
  std::vector<Vec> pos;
  core::Topology top;
  for (int k = 0; k < 12; ++k) {
    const double z = 2.25 + 0.5 * (k % 3) + (k % 4 == 1 ? 10.0 : k % 4 == 2 ? -10.0 : 0.0);
    pos.push_back({0.3 * k, 0.1 * k, z});
    top.element.push_back("O");
    top.mass.push_back(15.999);
    top.charge.push_back(-0.5);
  }
  auto frame = make_frame(pos, 0);
  frame.box = {{{4, 0, 0}, {0, 5, 0}, {0, 0, 10}}};
  QueryDriver d(top, frame);
  d.add("density:bins=20");
  d.add("density:bins=20,type=mass,label=rho");
  d.add("density:bins=20,type=charge,label=q");
  d.add("density:bins=20,type=electron,label=e");
  d.add("density:bins=8,axis=x,label=dx");
  d.push(frame);
  d.push(frame);
  const auto dir = scratch_dir("density");
  const auto summary = d.finish(dir);
  const double slab = 4 * 5 * 0.5;
  const auto n = read_csv(dir / "density.csv");
  ASSERT_EQ(n.rows(), 20u);
  for (std::size_t b = 0; b < 20; ++b) {
    const double expected = b >= 4 && b <= 6 ? 4 / slab : 0.0;
    EXPECT_NEAR(n.at("density")[b], expected, 1e-15) << b;
    EXPECT_NEAR(n.at("z")[b], 0.25 + 0.5 * static_cast<double>(b), 1e-15);
  }
  EXPECT_NEAR(read_csv(dir / "rho.csv").at("density")[5], 4 * 15.999 / slab * 1.66053906660, 1e-13);
  EXPECT_NEAR(read_csv(dir / "q.csv").at("density")[5], 4 * -0.5 / slab, 1e-15);
  EXPECT_NEAR(read_csv(dir / "e.csv").at("density")[5], 4 * 8.5 / slab, 1e-14);
  EXPECT_EQ(summary["rho"]["results"]["unit"], "g/cm^3");
  // Along x (bins of 0.5 A): x = 0.3 k for k < 12 spans 0 .. 3.3.
  const auto dx = read_csv(dir / "dx.csv");
  double total = 0;
  for (const double v : dx.at("density")) total += v * 0.5 * 5 * 10;
  EXPECT_NEAR(total, 12, 1e-12);
}

TEST(QueryDensity, NeedsABox) {
  QueryDriver d(masses_charges({1}), make_frame({{0, 0, 0}}, 0));
  EXPECT_NE(error_of([&] { d.add("density"); }).find("box"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(QuerySdh, UnitCubeCorners) {
  // The 8 corners of the unit cube without a box: 12 pairs at 1, 12 at sqrt 2, 4 at sqrt 3;
  // with width 0.5 they fall into bins 2, 2 and 3; the default rmax (bounding-box diagonal
  // sqrt 3) rounds up to 4 buckets.
  std::vector<Vec> pos;
  for (int k = 0; k < 8; ++k) pos.push_back({double(k & 1), double((k >> 1) & 1), double((k >> 2) & 1)});
  QueryDriver d(masses_charges(std::vector<double>(8, 1.0)), make_frame(pos, 0));
  d.add("sdh:width=0.5");
  d.push(make_frame(pos, 0));
  d.push(make_frame(pos, 0));
  const auto dir = scratch_dir("sdh_cube");
  const auto summary = d.finish(dir);
  const auto h = read_csv(dir / "sdh.csv");
  ASSERT_EQ(h.rows(), 4u);
  EXPECT_EQ(h.at("count"), (std::vector<double>{0, 0, 48, 8}));
  EXPECT_EQ(h.at("count_per_frame"), (std::vector<double>{0, 0, 24, 4}));
  EXPECT_EQ(h.at("r_hi")[3], 2.0);
  EXPECT_EQ(summary["sdh"]["results"]["pairs_total"], 56);
  EXPECT_EQ(summary["sdh"]["results"]["check"], true);
  EXPECT_EQ(summary["sdh"]["parameters"]["pbc"], false);
}

TEST(QuerySdh, TotalIsAllPairsForOddAndEvenN) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 8);
  for (const std::size_t n : {1u, 2u, 15u, 16u, 33u}) {
    std::vector<Vec> pos(n);
    for (auto& p : pos) p = {u(rng), u(rng), u(rng)};
    QueryDriver d(masses_charges(std::vector<double>(n, 1.0)), make_frame(pos, 8));
    d.add("sdh:width=0.25");
    d.add("sdh:width=0.5,rmax=2,label=short");
    for (int f = 0; f < 3; ++f) d.push(make_frame(pos, 8));
    const auto summary = d.finish(scratch_dir("sdh_n" + std::to_string(n)));
    EXPECT_EQ(summary["sdh"]["results"]["pairs_total"], 3 * n * (n - 1) / 2) << n;
    EXPECT_EQ(summary["sdh"]["results"]["check"], true);
    EXPECT_EQ(summary["sdh"]["results"]["overflow"], 0);  // rmax = half diagonal with pbc
    EXPECT_EQ(summary["short"]["results"]["pairs_total"], 3 * n * (n - 1) / 2);
    EXPECT_EQ(summary["sdh"]["parameters"]["bins"], 28);  // ceil(0.5 * sqrt(3) * 8 / 0.25)
  }
}

// ---------------------------------------------------------------------------------------------

TEST(QueryRdf, SimpleCubicLatticeShells) {
  // A simple cubic lattice, a = 1.03 A, 6^3 sites in a periodic 6.18 A box: around every atom
  // 6 neighbours at a, 12 at a sqrt 2, 8 at a sqrt 3, 6 at 2a, so n(r) steps 6, 18, 26, 32.
  const double a = 1.03;
  std::vector<Vec> pos;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      for (int k = 0; k < 6; ++k) pos.push_back({a * i, a * j, a * k});
    }
  }
  QueryDriver d(masses_charges(std::vector<double>(pos.size(), 1.0)), make_frame(pos, 6 * a));
  d.add("rdf:rmax=2.5,bins=25");
  d.push(make_frame(pos, 6 * a));
  const auto dir = scratch_dir("rdf_sc");
  const auto summary = d.finish(dir);
  const auto g = read_csv(dir / "rdf.csv");
  const auto n_at = [&](double r) {
    for (std::size_t b = 0; b < g.rows(); ++b) {
      if (g.at("r_hi")[b] > r) return g.at("n")[b];
    }
    return -1.0;
  };
  EXPECT_NEAR(n_at(1.05), 6, 1e-12);
  EXPECT_NEAR(n_at(1.5), 18, 1e-12);
  EXPECT_NEAR(n_at(1.8), 26, 1e-12);
  EXPECT_NEAR(n_at(2.1), 32, 1e-12);
  EXPECT_NEAR(summary["rdf"]["results"]["peak_r"].get<double>(), 1.45, 1e-12);  // the 12-fold shell
  // g in the first-shell bin [1.0, 1.1): 6 * 216 ordered pairs / (216^2 / V * shell volume).
  const double volume = std::pow(6 * a, 3);
  const double shell = 4.0 / 3.0 * std::numbers::pi * (std::pow(1.1, 3) - 1.0);
  EXPECT_NEAR(g.at("g")[10], 6.0 * 216 / (216.0 * 216.0 / volume * shell), 1e-9);
  EXPECT_EQ(g.at("count")[10], 6 * 216);
  EXPECT_EQ(summary["rdf"]["results"]["self_pairs_excluded_per_frame"], 216);
}

TEST(QueryRdf, IdealGasIsOne) {
  // Uniform random points: g(r) = (n - 1) / n for one selection with InterRDF's n^2
  // normalisation (no self pairs), 1 between disjoint selections, within the statistics
  // (below 0.8 % per bin from r = 3 on; the tolerance is 3.5 %).
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 20);
  const std::size_t n = 1500;
  core::Topology top;
  for (std::size_t i = 0; i < n; ++i) top.type.push_back(i % 2 ? 2 : 1);
  top.mass.assign(n, 1.0);
  std::vector<Vec> pos(n);
  const auto frame = [&] {
    for (auto& p : pos) p = {u(rng), u(rng), u(rng)};
    return make_frame(pos, 20);
  };
  QueryDriver d(top, make_frame(pos, 20));
  d.add("rdf:rmax=8,bins=16");
  d.add("rdf:sel1=type 1,sel2=type 2,rmax=8,bins=16,label=ab");
  for (int f = 0; f < 8; ++f) d.push(frame());
  const auto dir = scratch_dir("rdf_gas");
  d.finish(dir);
  const auto g = read_csv(dir / "rdf.csv");
  const auto gab = read_csv(dir / "ab.csv");
  for (std::size_t b = 6; b < 16; ++b) {
    EXPECT_NEAR(g.at("g")[b], (n - 1.0) / n, 0.035) << b;
    EXPECT_NEAR(gab.at("g")[b], 1.0, 0.035) << b;
  }
  // n(rmax) = density * sphere volume (the count of the other atoms within rmax).
  EXPECT_NEAR(g.at("n")[15] / ((n - 1) / 8000.0 * 4.0 / 3.0 * std::numbers::pi * 512), 1.0, 0.03);
}

TEST(QueryRdf, RmaxBeyondHalfTheBoxIsAnError) {
  QueryDriver d(masses_charges({1, 1}), make_frame({{0, 0, 0}, {1, 0, 0}}, 10));
  const auto message = error_of([&] { d.add("rdf:rmax=6"); });
  EXPECT_NE(message.find("half the smallest box length"), std::string::npos) << message;
  d.add("rdf:rmax=6,pbc=no");
  QueryDriver nobox(masses_charges({1, 1}), make_frame({{0, 0, 0}, {1, 0, 0}}, 0));
  EXPECT_NE(error_of([&] { nobox.add("rdf"); }).find("no box"), std::string::npos);
  // The default rmax is InterRDF's 15, capped at half the smallest box length.
  QueryDriver big(masses_charges({1, 1}), make_frame({{0, 0, 0}, {1, 0, 0}}, 50));
  big.add("rdf");
  big.push(make_frame({{0, 0, 0}, {1, 0, 0}}, 50));
  EXPECT_EQ(big.finish(scratch_dir("rdf_default"))["rdf"]["parameters"]["rmax"], 15.0);
  EXPECT_EQ(d.finish(scratch_dir("rdf_nopbc"))["rdf"]["parameters"]["rmax"], 6.0);
}

// ---------------------------------------------------------------------------------------------

std::vector<core::Frame> thermo_frames(const std::vector<double>& energy, const std::vector<double>& temp,
                                       const std::vector<double>& box) {
  std::vector<core::Frame> out;
  for (std::size_t f = 0; f < energy.size(); ++f) {
    auto frame = make_frame({{0, 0, 0}, {1, 1, 1}}, box[f], static_cast<double>(f));
    frame.scalars["etotal"] = energy[f];
    frame.scalars["pe"] = energy[f] - 10;
    frame.scalars["ke"] = 10;
    frame.scalars["temp"] = temp[f];
    out.push_back(std::move(frame));
  }
  return out;
}

TEST(QueryCv, EnergyFluctuationsInRealAndMetalUnits) {
  // E = -1000 + (-3, -1, 1, 3): <E^2> - <E>^2 = 5; T from temp= or the mean of the temp scalar.
  const auto frames = thermo_frames({-1003, -1001, -999, -997}, {299, 301, 300, 300}, {20, 20, 20, 20});
  for (const char* units : {"real", "metal"}) {
    const auto summary = run_queries(masses_charges({1, 1}), frames, {"cv", "cv:temp=250,energy=pe,label=pe"},
                                     std::string("cv_") + units, units)
                             .summary;
    const double kb = std::string(units) == "real" ? 0.0019872067 : 8.617343e-5;
    const auto& r = summary["cv"]["results"];
    EXPECT_NEAR(r["cv"].get<double>() / (5 / (kb * 300 * 300)), 1, 1e-14);
    EXPECT_NEAR(r["cv_per_atom_over_kB"].get<double>() / (5 / (kb * kb * 300 * 300) / 2), 1, 1e-14);
    EXPECT_NEAR(r["cv_J_per_mol_atoms_K"].get<double>() / (5 / (kb * kb * 300 * 300) / 2 * 8.31446261815324), 1, 1e-14);
    EXPECT_NEAR(summary["pe"]["results"]["cv"].get<double>() / (5 / (kb * 250 * 250)), 1, 1e-14);
  }
}

TEST(QueryCv, TemperatureFluctuationsAsGromacs) {
  // g_energy: factor = nmol ndf VarT / (3 T^2); Cv = 1000 BOLTZ / (2/3 - factor) J/(mol K).
  const std::vector<double> t{298, 302, 299, 301};  // mean 300, VarT = 2.5
  const auto frames = thermo_frames({0, 0, 0, 0}, t, {20, 20, 20, 20});
  const auto summary = run_queries(masses_charges({1, 1}), frames, {"cv:method=temperature,nmol=100,ndf=6"},
                                   "cv_temp", "gromacs")
                           .summary;
  const double boltz = 0.0083144626181532;
  const double factor = 100 * 6 * 2.5 / (3 * 300.0 * 300.0);
  const auto& r = summary["cv"]["results"];
  EXPECT_NEAR(r["gromacs_factor"].get<double>(), factor, 1e-16);
  EXPECT_NEAR(r["cv_gromacs_J_per_mol_K"].get<double>() / (1000 * boltz / (2.0 / 3.0 - factor)), 1, 1e-13);
  // The general form with ndf in the numerator: ndf R T^2 / (2 T^2 - nmol ndf VarT).
  EXPECT_NEAR(r["cv_J_per_mol_K"].get<double>() / (6 * 1000 * boltz * 9e4 / (2 * 9e4 - 600 * 2.5)), 1, 1e-13);
}

TEST(QueryCv, MissingScalarsAreNamed) {
  auto f = make_frame({{0, 0, 0}}, 10);
  f.scalars["temp"] = 300;
  QueryDriver d(masses_charges({1}), f);
  EXPECT_NE(error_of([&] { d.add("cv"); }).find("'etotal'"), std::string::npos);
  EXPECT_NE(error_of([&] { d.add("cv:method=temperature"); }).find("nmol"), std::string::npos);
  auto g = make_frame({{0, 0, 0}}, 0);
  QueryDriver e(masses_charges({1}), g);
  EXPECT_NE(error_of([&] { e.add("kappa"); }).find("temp"), std::string::npos);
  EXPECT_NE(error_of([&] { e.add("kappa:temp=300"); }).find("volume"), std::string::npos);
}

TEST(QueryKappa, VolumeFluctuationsMatchGmxEnergy) {
  // gmx energy: kappa = VarV / (Vaver BOLTZ T PRESFAC) /bar with V in nm^3, BOLTZ in kJ/(mol K)
  // and PRESFAC = 16.6054 bar / (kJ mol^-1 nm^-3) (GROMACS units.h, 5 digits).
  const std::vector<double> box{30.0, 30.2, 29.9, 30.1, 29.8};
  const auto frames = thermo_frames({0, 0, 0, 0, 0}, {300, 300, 300, 300, 300}, box);
  const auto [dir, summary] = run_queries(masses_charges({1, 1}), frames, {"kappa"}, "kappa", "gromacs");
  double mean = 0, var = 0;
  for (const double l : box) mean += l * l * l / 1000 / 5;  // nm^3
  for (const double l : box) var += (l * l * l / 1000 - mean) * (l * l * l / 1000 - mean) / 5;
  const double gmx = var / (mean * 0.0083144626181532 * 300 * 16.6054);
  const auto& r = summary["kappa"]["results"];
  EXPECT_NEAR(r["kappa_per_bar"].get<double>() / gmx, 1, 1e-5);
  EXPECT_NEAR(r["kappa_per_Pa"].get<double>() * 1e5 / r["kappa_per_bar"].get<double>(), 1, 1e-15);
  EXPECT_NEAR(read_csv(dir / "kappa.csv").at("volume")[1], 30.2 * 30.2 * 30.2, 1e-9);
}

TEST(QueryPlots, EveryQueryWritesItsPng) {
  const auto frames = thermo_frames({1, 2, 3, 4}, {300, 301, 299, 300}, {10, 10.1, 10, 9.9});
  core::Topology top = masses_charges({12, 16}, {0.4, -0.4});
  top.resid = {1, 1};
  top.element = {"C", "O"};
  auto first = frames[0];
  first.resize_velocities(2);
  QueryDriver d(top, first);
  for (const char* spec : {"mass", "charge", "com", "rg", "inertia", "dipole:per=residue", "msd", "vacf", "density",
                           "sdh", "rdf:rmax=4", "cv:temp=300", "kappa"}) {
    d.add(spec);
  }
  for (auto f : frames) {
    f.resize_velocities(2);
    f.vx = {0.1, -0.1};
    d.push(f);
  }
  const auto dir = scratch_dir("plots");
  const auto summary = d.finish(dir, true);
  for (const auto& [label, entry] : summary.items()) {
    EXPECT_TRUE(std::filesystem::exists(dir / (label + ".png"))) << label;
    EXPECT_TRUE(std::filesystem::exists(dir / (label + ".csv"))) << label;
    EXPECT_EQ(entry["files"].size(), label == "dipole" ? 4u : 2u) << label;
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "dipole_hist.png"));
}

}  // namespace
}  // namespace molstep::test
