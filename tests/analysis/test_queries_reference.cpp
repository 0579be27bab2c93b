// SPDX-License-Identifier: MIT
// The queries against MDAnalysis 2.4.2 (radius of gyration, centre of mass, inertia tensor,
// EinsteinMSD, InterRDF) and NumPy (VACF) on one synthetic system. The inputs are float32
// values (what MDAnalysis stores) written exactly, so both sides compute from the same numbers
// and agree to 1e-10 relative. tests/data/analysis/make_mdanalysis_reference.py made the files.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "support/analysis_driver.hpp"
#include "support/paths.hpp"

namespace molstep::test {
namespace {

constexpr double kRel = 1e-10;

struct System {
  core::Topology topology;
  std::vector<core::Frame> unwrapped, wrapped;  // wrapped frames also carry the velocities
  double box = 0, dt = 0;
};

const System& reference_system() {
  static const System system = [] {
    System s;
    std::ifstream in(data_dir() / "analysis" / "system.txt");
    if (!in) throw std::runtime_error("cannot read tests/data/analysis/system.txt");
    std::string word;
    std::size_t natoms = 0, frames = 0;
    in >> word >> natoms >> word >> frames >> word >> s.box >> word >> s.dt;
    for (std::size_t i = 0; i < natoms; ++i) {
      std::string type;
      long resid = 0;
      double mass = 0, charge = 0;
      in >> type >> resid >> mass >> charge;
      s.topology.type.push_back(type == "A" ? 1 : 2);
      s.topology.resid.push_back(resid);
      s.topology.mass.push_back(mass);
      s.topology.charge.push_back(charge);
    }
    for (std::size_t f = 0; f < frames; ++f) {
      double time = 0;
      in >> word >> time;
      core::Frame u, w;
      for (auto* frame : {&u, &w}) {
        frame->time = time;
        frame->step = static_cast<std::int64_t>(f);
        frame->resize(natoms);
        for (int d = 0; d < 3; ++d) frame->box[d][d] = s.box;
      }
      w.resize_velocities(natoms);
      for (std::size_t i = 0; i < natoms; ++i) {
        in >> u.x[i] >> u.y[i] >> u.z[i] >> w.x[i] >> w.y[i] >> w.z[i] >> w.vx[i] >> w.vy[i] >> w.vz[i];
      }
      s.unwrapped.push_back(std::move(u));
      s.wrapped.push_back(std::move(w));
    }
    if (!in) throw std::runtime_error("tests/data/analysis/system.txt is truncated");
    return s;
  }();
  return system;
}

/// Rows of whitespace-separated numbers; a line "# D value" sets `d`.
struct Table {
  std::vector<std::vector<double>> rows;
  double d = std::nan("");
};

Table read_table(const std::string& name) {
  std::ifstream in(data_dir() / "analysis" / name);
  if (!in) throw std::runtime_error("cannot read tests/data/analysis/" + name);
  Table t;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    if (line.rfind("# D ", 0) == 0) {
      t.d = std::stod(line.substr(4));
      continue;
    }
    std::vector<double> row;
    double v = 0;
    while (ss >> v) row.push_back(v);
    if (!row.empty()) t.rows.push_back(row);
  }
  return t;
}

void expect_rel(double actual, double expected, double scale, const std::string& what) {
  EXPECT_LE(std::abs(actual - expected), kRel * std::max(std::abs(expected), scale))
      << what << ": " << actual << " vs " << expected;
}

TEST(QueryReference, RgComInertiaMatchMDAnalysis) {
  const auto& s = reference_system();
  const auto dir =
      run_queries(s.topology, s.unwrapped, {"rg", "rg:sel=type 1,label=rg_a", "com", "inertia"}, "ref_rg").dir;
  const auto rg = read_csv(dir / "rg.csv");
  const auto rg_a = read_csv(dir / "rg_a.csv");
  const auto com = read_csv(dir / "com.csv");
  const auto inertia = read_csv(dir / "inertia.csv");
  const auto ref_rg = read_table("rg.txt");
  const auto ref_com = read_table("com.txt");
  const auto ref_inertia = read_table("inertia.txt");
  ASSERT_EQ(ref_rg.rows.size(), s.unwrapped.size());
  const char* components[] = {"Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz", "I1", "I2", "I3"};
  for (std::size_t f = 0; f < s.unwrapped.size(); ++f) {
    expect_rel(rg.at("rg")[f], ref_rg.rows[f][0], 0, "rg");
    expect_rel(rg_a.at("rg")[f], ref_rg.rows[f][1], 0, "rg type A");
    expect_rel(com.at("x")[f], ref_com.rows[f][0], 0, "com x");
    expect_rel(com.at("y")[f], ref_com.rows[f][1], 0, "com y");
    expect_rel(com.at("z")[f], ref_com.rows[f][2], 0, "com z");
    // Off-diagonal elements can be small; compare them on the scale of the largest moment.
    const double scale = ref_inertia.rows[f][8];
    for (std::size_t k = 0; k < 9; ++k)
      expect_rel(inertia.at(components[k])[f], ref_inertia.rows[f][k], scale, components[k]);
  }
}

TEST(QueryReference, MsdMatchesMDAnalysisEinsteinMsd) {
  const auto& s = reference_system();
  const auto [dir, summary] = run_queries(s.topology, s.unwrapped,
                                          {"msd:unwrap=none,label=msd_xyz", "msd:unwrap=none,dims=xy,label=msd_xy",
                                           "msd:unwrap=none,sel=type 1,label=msd_typeA"},
                                          "ref_msd");
  // The same MSD from the wrapped coordinates through nojump unwrapping.
  const auto [dir_nojump, summary_nojump] = run_queries(s.topology, s.wrapped, {"msd:label=msd_xyz"}, "ref_msd_nojump");
  for (const std::string name : {"msd_xyz", "msd_xy", "msd_typeA"}) {
    const auto ref = read_table(name + ".txt");
    const auto ours = read_csv(dir / (name + ".csv"));
    ASSERT_EQ(ours.rows(), ref.rows.size()) << name;
    for (std::size_t k = 0; k < ref.rows.size(); ++k) {
      EXPECT_EQ(ours.at("time")[k], ref.rows[k][0]) << name;
      expect_rel(ours.at("msd")[k], ref.rows[k][1], 0, name);
    }
    expect_rel(summary[name]["results"]["D"].get<double>(), ref.d, 0, name + " D");
  }
  const auto ref = read_table("msd_xyz.txt");
  const auto nojump = read_csv(dir_nojump / "msd_xyz.csv");
  for (std::size_t k = 0; k < ref.rows.size(); ++k) expect_rel(nojump.at("msd")[k], ref.rows[k][1], 0, "nojump");
  expect_rel(summary_nojump["msd_xyz"]["results"]["D"].get<double>(), ref.d, 0, "nojump D");
}

TEST(QueryReference, RdfMatchesMDAnalysisInterRdf) {
  const auto& s = reference_system();
  const auto [dir, summary] = run_queries(
      s.topology, s.wrapped,
      {"rdf:rmax=5,bins=20,label=rdf_all", "rdf:sel1=type 1,sel2=type 2,rmax=5,bins=20,label=rdf_AB"}, "ref_rdf");
  const double frames = static_cast<double>(s.wrapped.size());
  for (const std::string name : {"rdf_all", "rdf_AB"}) {
    const auto ref = read_table(name + ".txt");
    const auto ours = read_csv(dir / (name + ".csv"));
    ASSERT_EQ(ours.rows(), ref.rows.size());
    const double self = summary[name]["results"]["self_pairs_excluded_per_frame"].get<double>();
    EXPECT_EQ(self, name == "rdf_all" ? 48 : 0);
    for (std::size_t b = 0; b < ref.rows.size(); ++b) {
      EXPECT_DOUBLE_EQ(ours.at("r")[b], ref.rows[b][0]);
      // InterRDF's bin 0 also holds every atom of both selections paired with itself.
      EXPECT_EQ(ours.at("count")[b] + (b == 0 ? self * frames : 0.0), ref.rows[b][1]) << name << " bin " << b;
      if (b > 0) expect_rel(ours.at("g")[b], ref.rows[b][2], 0, name + " g");
    }
    expect_rel(summary[name]["results"]["mdanalysis_g0"].get<double>(), ref.rows[0][2], 0, name + " g0");
  }
}

TEST(QueryReference, VacfMatchesNumpy) {
  const auto& s = reference_system();
  const auto dir = run_queries(s.topology, s.wrapped, {"vacf"}, "ref_vacf").dir;
  const auto ref = read_table("vacf.txt");
  const auto ours = read_csv(dir / "vacf.csv");
  ASSERT_EQ(ours.rows(), ref.rows.size());
  // The VACF of random velocities is near zero beyond lag 0: compare on the scale of C(0).
  for (std::size_t k = 0; k < ref.rows.size(); ++k) {
    EXPECT_EQ(ours.at("time")[k], ref.rows[k][0]);
    expect_rel(ours.at("vacf")[k], ref.rows[k][1], ref.rows[0][1], "vacf");
  }
}

}  // namespace
}  // namespace molstep::test
