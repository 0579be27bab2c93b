// SPDX-License-Identifier: MIT
// Peer comparison (issue 5): `molstep analyze` on a trajectory made by GROMACS 2022 (united-atom
// decane in 570 SPC/E waters, 1720 atoms, NVT; tests/data/analysis_peers) against MDAnalysis
// 2.4.2 (InterRDF, radius_of_gyration, center_of_mass, EinsteinMSD) to 1e-5 relative and
// against gmx rdf, gmx gyrate and gmx traj -com to 1e-4 relative. The peer results are stored;
// tests/data/analysis_peers/README.md gives the commands that made them, and
// bench/analysis_peers.py reruns the whole comparison and prints the agreement table.
//
// The tolerances are the issue's. Two documented effects are accounted for exactly, never by a
// wider tolerance (README.md, "How the comparison accounts for the peers' arithmetic"):
//  * float32 binning: MDAnalysis (float32 positions, float32 differences) and GROMACS (single
//    precision) compute a pair distance with an error below kEdgeEps = 1e-5 A, so a pair closer
//    than that to a bin edge may fall on either side of it. The test counts those pairs from
//    the trajectory (distances in double, as molstep computes them); a bin may differ by at
//    most the ambiguous pairs on its two edges. All other pairs must be binned identically.
//  * printed digits: gmx rdf writes 3 decimals, gmx gyrate 6 significant digits, gmx traj -fp 8;
//    a printed value stands for anything within half a unit of its last digit.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numbers>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "molstep/io/trajectory.hpp"
#include "support/analysis_driver.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;

namespace molstep::test {
namespace {

constexpr double kTolMda = 1e-5;
constexpr double kTolGmx = 1e-4;
// Bound on the peers' single-precision distance error, in A (README.md): positions up to ~27 A
// carry float32 rounding of ~1e-6 A per operation (MDAnalysis: nm -> A scaling, wrapping into
// the box, the float32 difference; GROMACS: the same in nm, then r^2, sqrt and r / w in float).
constexpr double kEdgeEps = 1e-5;

// The binnings: InterRDF-compatible (150 bins of 0.08 A) and half bins of gmx rdf -bin 0.01 nm.
constexpr double kRmax = 12.0;
constexpr int kMdaBins = 150;
constexpr int kGmxHalfBins = 240;
constexpr double kGmxBinNm = 0.01;

fs::path peers_dir() { return data_dir() / "analysis_peers"; }

// ---------------------------------------------------------------------------------------------
// Inputs and outputs

struct Trajectory {
  std::string tag;   // md_xtc, md_trr: the prefix of the stored peer files
  std::string file;  // in tests/data/analysis_peers
  std::size_t frames;
};

void PrintTo(const Trajectory& t, std::ostream* os) { *os << t.file; }

const Trajectory kXtc{"md_xtc", "md.xtc", 51};
const Trajectory kTrr{"md_trr", "md.trr", 11};

// Runs `molstep analyze` on a stored trajectory with `queries` and the named selections O, H
// and DEC; returns the output folder (summary.json and one CSV per query label).
fs::path run_molstep(const std::string& name, const std::string& trajectory, const std::string& top,
                     const std::vector<std::string>& queries) {
  const fs::path dir = scratch_dir("peers-" + name);
  const auto quoted = [](const std::string& s) { return std::string("'").append(s).append("'"); };
  std::string cmd = quoted(molstep_binary().string());
  cmd.append(" analyze ").append(quoted((peers_dir() / trajectory).string()));
  cmd.append(" --top ").append(quoted((peers_dir() / top).string()));
  cmd.append(" --device cpu --out ").append(quoted(dir.string()));
  if (top == "system.gro") cmd.append(" --select 'O=name OW' --select 'H=name HW1 HW2' --select 'DEC=resname DEC'");
  for (const auto& q : queries) cmd.append(" --query ").append(quoted(q));
  cmd.append(" >").append(quoted((dir / "stdout.txt").string())).append(" 2>&1");
  const int status = std::system(cmd.c_str());
  std::ifstream log(dir / "stdout.txt");
  std::stringstream text;
  text << log.rdbuf();
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("molstep analyze failed: " + cmd + "\n" + text.str());
  }
  return dir;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return nlohmann::json::parse(in);
}

/// Rows of numbers of an .xvg file (lines starting with '@' or '#' skipped).
std::vector<std::vector<double>> read_xvg(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '@' || line[0] == '#') continue;
    std::istringstream ss(line);
    std::vector<double> row;
    for (double v = 0; ss >> v;) row.push_back(v);
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

/// Half a unit in the last place of a value printed with `digits` significant digits (%g).
double half_unit(double printed, int digits) {
  if (printed == 0) return 0.5 * std::pow(10.0, -digits);
  return 0.5 * std::pow(10.0, std::floor(std::log10(std::abs(printed))) - (digits - 1));
}

std::vector<std::uint32_t> select(const core::Topology& top, const std::string& which) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < top.name.size(); ++i) {
    const bool take = which == "all" || (which == "O" && top.name[i] == "OW") ||
                      (which == "H" && (top.name[i] == "HW1" || top.name[i] == "HW2")) ||
                      (which == "DEC" && top.resname[i] == "DEC");
    if (take) out.push_back(i);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Comparison bookkeeping

/// Compares molstep's values with a peer's: each value must satisfy
/// |molstep - peer| <= tol * |peer| + allowance, the allowance being the exact, documented
/// slack of that value (ambiguous pairs, printed digits). Reports the largest raw relative
/// difference and the largest relative excess beyond the allowance.
class Agreement {
 public:
  Agreement(std::string what, double tol) : what_(std::move(what)), tol_(tol) {}

  void add(double molstep, double peer, double allowance, const std::string& where) {
    ++values_;
    const double diff = std::abs(molstep - peer);
    const double scale = std::max(std::abs(peer), 1e-300);
    raw_ = std::max(raw_, diff / scale);
    if (diff > tol_ * std::abs(peer)) ++over_tol_;
    const double excess = std::max(diff - allowance, 0.0) / scale;
    if (excess > residual_) {
      residual_ = excess;
      worst_ = where + ": molstep " + std::to_string(molstep) + ", peer " + std::to_string(peer) + ", allowance " +
               std::to_string(allowance);
    }
  }

  /// Checks the tolerance and prints one line for the log.
  void check() const {
    std::cout << "[peers] " << what_ << ": " << values_ << " values, max rel diff " << raw_ << " (" << over_tol_
              << " beyond " << tol_ << " before allowances), beyond allowances " << residual_ << '\n';
    EXPECT_GT(values_, 0U) << what_;
    EXPECT_LE(residual_, tol_) << what_ << ": worst " << worst_;
  }

 private:
  std::string what_;
  double tol_;
  std::size_t values_ = 0, over_tol_ = 0;
  double raw_ = 0, residual_ = 0;
  std::string worst_;
};

// ---------------------------------------------------------------------------------------------
// Pairs near bin edges, from the trajectory as molstep reads it

struct EdgePairs {
  std::vector<double> mda;  // [k]: ordered pairs within kEdgeEps of k * 0.08 A, k = 0..150
  std::vector<double> gmx;  // [k]: the same for k * 0.05 A, k = 0..240
};

struct TrajectoryFacts {
  std::size_t frames = 0;
  double mean_inverse_volume = 0;  // <1/V> in A^-3 (gmx rdf normalises by <n_sel / V>)
  std::map<std::string, EdgePairs> edges;
};

void add_edge_pair(double r, double width, int bins, std::vector<double>& counts, double weight) {
  const double k = std::nearbyint(r / width);
  if (k >= 1 && k <= bins && std::abs(r - k * width) < kEdgeEps) counts[static_cast<std::size_t>(k)] += weight;
}

TrajectoryFacts trajectory_facts(const Trajectory& t, const std::map<std::string, std::pair<std::string, std::string>>& pairs) {
  const auto top = io::read_structure(peers_dir() / "system.gro").topology;
  TrajectoryFacts facts;
  std::map<std::string, std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> sets;
  for (const auto& [name, sel] : pairs) {
    sets[name] = {select(top, sel.first), select(top, sel.second)};
    facts.edges[name] = {std::vector<double>(kMdaBins + 1), std::vector<double>(kGmxHalfBins + 1)};
  }
  auto reader = io::open_trajectory(peers_dir() / t.file);
  core::Frame f;
  const double w_mda = kRmax / kMdaBins;
  const double w_gmx = kRmax / kGmxHalfBins;
  while (reader->next(f)) {
    ++facts.frames;
    facts.mean_inverse_volume += 1.0 / f.volume();
    const double len[3] = {f.box[0][0], f.box[1][1], f.box[2][2]};
    for (const auto& [name, ab] : sets) {
      const auto& [a, b] = ab;
      const bool same = pairs.at(name).first == pairs.at(name).second;
      auto& e = facts.edges[name];
      for (std::size_t x = 0; x < a.size(); ++x) {
        for (std::size_t y = same ? x + 1 : 0; y < b.size(); ++y) {
          const auto i = a[x];
          const auto j = b[y];
          if (i == j) continue;
          double d[3] = {f.x[j] - f.x[i], f.y[j] - f.y[i], f.z[j] - f.z[i]};
          for (int c = 0; c < 3; ++c) d[c] -= len[c] * std::nearbyint(d[c] / len[c]);
          const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          if (r > kRmax + 1) continue;
          const double weight = same ? 2.0 : 1.0;  // molstep and both peers count ordered pairs
          add_edge_pair(r, w_mda, kMdaBins, e.mda, weight);
          add_edge_pair(r, w_gmx, kGmxHalfBins, e.gmx, weight);
        }
      }
    }
  }
  facts.mean_inverse_volume /= static_cast<double>(facts.frames);
  return facts;
}

// name: molstep sel1, sel2 (the peers use the same selection texts); gmx file tag and column.
struct RdfCase {
  std::string name, sel1, sel2, gmx_tag;
  std::size_t gmx_column;
};
const std::vector<RdfCase> kRdfCases = {
    {"OO", "O", "O", "OW", 1}, {"OH", "O", "H", "OW", 2}, {"CO", "DEC", "O", "DEC", 1}, {"all", "all", "all", "all", 1}};

std::map<std::string, std::pair<std::string, std::string>> rdf_pairs() {
  std::map<std::string, std::pair<std::string, std::string>> p;
  for (const auto& c : kRdfCases) p[c.name] = {c.sel1, c.sel2};
  return p;
}

std::vector<std::string> rdf_queries(int bins, const std::string& prefix) {
  std::vector<std::string> q;
  for (const auto& c : kRdfCases) {
    q.push_back("rdf:sel1=" + c.sel1 + ",sel2=" + c.sel2 + ",rmax=12,bins=" + std::to_string(bins) + ",label=" +
                prefix + c.name);
  }
  return q;
}

class PeerTrajectory : public testing::TestWithParam<Trajectory> {};

// ---------------------------------------------------------------------------------------------
// g(r) against MDAnalysis InterRDF(nbins=150, range=(0, 12))

TEST_P(PeerTrajectory, RdfMatchesMDAnalysisInterRdf) {
  const Trajectory& t = GetParam();
  const auto facts = trajectory_facts(t, rdf_pairs());
  ASSERT_EQ(facts.frames, t.frames);
  const auto dir = run_molstep("mda-rdf-" + t.tag, t.file, "system.gro", rdf_queries(kMdaBins, "rdf_"));
  const auto summary = read_json(dir / "summary.json");
  const double frames = static_cast<double>(t.frames);
  for (const auto& c : kRdfCases) {
    SCOPED_TRACE(t.tag + " rdf " + c.name);
    const auto m = read_csv(dir / ("rdf_" + c.name + ".csv"));
    const auto p = read_csv(peers_dir() / ("mda_" + t.tag + "_rdf_" + c.name + ".csv"));
    const auto& results = summary["queries"]["rdf_" + c.name]["results"];
    ASSERT_EQ(m.rows(), static_cast<std::size_t>(kMdaBins));
    ASSERT_EQ(p.rows(), static_cast<std::size_t>(kMdaBins));
    // InterRDF's edges are numpy.linspace(0, 12, 151); molstep writes the same numbers.
    for (std::size_t b = 0; b < m.rows(); ++b) {
      EXPECT_DOUBLE_EQ(m.at("r_lo")[b], p.at("r_lo")[b]);
      EXPECT_DOUBLE_EQ(m.at("r_hi")[b], p.at("r_hi")[b]);
    }
    // InterRDF also pairs every atom that is in both selections with itself, at r = 0 (bin 0);
    // molstep does not and says how many (docs: the rdf CSV comment; summary
    // self_pairs_excluded_per_frame, and mdanalysis_g0 for InterRDF's g in bin 0).
    const double self_pairs = results["self_pairs_excluded_per_frame"].get<double>() * frames;
    const double n1 = results["n1"].get<double>();
    const double n2 = results["n2"].get<double>();
    const double volume = results["mean_volume"].get<double>();
    const auto& edge = facts.edges.at(c.name).mda;
    // Pair counts are integers: they must be equal, but for the ambiguous pairs.
    Agreement counts("rdf " + c.name + " pair counts vs InterRDF (" + t.tag + ")", 0.0);
    Agreement g("rdf " + c.name + " g(r) vs InterRDF (" + t.tag + ")", kTolMda);
    double total_m = 0, total_p = 0;
    for (std::size_t b = 0; b < m.rows(); ++b) {
      const double count_m = m.at("count")[b] + (b == 0 ? self_pairs : 0.0);
      const double count_p = p.at("count")[b];
      total_m += count_m;
      total_p += count_p;
      const double ambiguous = edge[b] + edge[b + 1];
      const double lo = m.at("r_lo")[b];
      const double hi = m.at("r_hi")[b];
      // g per ordered pair in this bin: 1 / (frames * shell * n1 * n2 / <V>)
      const double per_pair = 1.0 / (frames * 4.0 / 3.0 * std::numbers::pi * (hi * hi * hi - lo * lo * lo) * n1 * n2 / volume);
      const double g_m = b == 0 ? results["mdanalysis_g0"].get<double>() : m.at("g")[b];
      if (count_m == 0 && count_p == 0) {
        EXPECT_EQ(g_m, 0.0);
        EXPECT_EQ(p.at("g")[b], 0.0);
        continue;
      }
      const std::string where = "bin " + std::to_string(b) + " [" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
      counts.add(count_m, count_p, ambiguous, where);
      g.add(g_m, p.at("g")[b], ambiguous * per_pair, where);
    }
    // Pairs only move between neighbouring bins, except across rmax itself.
    EXPECT_LE(std::abs(total_m - total_p), edge[kMdaBins]);
    counts.check();
    g.check();
  }
  if (!HasFailure()) fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// g(r) against gmx rdf -bin 0.01 -rmax 1.2 (-norm rdf, number_density, none, and -cn)

TEST_P(PeerTrajectory, RdfMatchesGmxRdf) {
  const Trajectory& t = GetParam();
  const auto facts = trajectory_facts(t, rdf_pairs());
  ASSERT_EQ(facts.frames, t.frames);
  // molstep bins of 0.05 A = half of gmx's 0.01 nm bins.
  const auto dir = run_molstep("gmx-rdf-" + t.tag, t.file, "system.gro", rdf_queries(kGmxHalfBins, "half_"));
  const auto summary = read_json(dir / "summary.json");
  const double frames = static_cast<double>(t.frames);
  constexpr std::size_t nb = kGmxHalfBins / 2;
  const double w = kGmxBinNm * 10.0;  // A
  for (const auto& c : kRdfCases) {
    SCOPED_TRACE(t.tag + " rdf " + c.name);
    const auto m = read_csv(dir / ("half_" + c.name + ".csv"));
    const auto& h = m.at("count");
    ASSERT_EQ(h.size(), static_cast<std::size_t>(kGmxHalfBins));
    const auto& results = summary["queries"]["half_" + c.name]["results"];
    const double n1 = results["n1"].get<double>();
    const double n2 = results["n2"].get<double>();
    const auto& edge = facts.edges.at(c.name).gmx;
    // gmx rdf (GROMACS 2022 src/gromacs/trajectoryanalysis/modules/rdf.cpp) histograms r in
    // half bins and merges them so that output bin i is centred on r = i w: bin 0 is [0, w/2),
    // bin i is [(i - 1/2) w, (i + 1/2) w). Self pairs (r = 0) are skipped (r^2 > cut^2 = 0).
    // It normalises by frames * <n_ref>, the bin volume 4/3 pi (r_out^3 - r_in^3) and
    // <n_sel / V> (N * M like molstep, not N * (M - 1)).
    std::vector<double> count(nb), ambiguous(nb), vbin(nb);
    for (std::size_t i = 0; i < nb; ++i) {
      count[i] = i == 0 ? h[0] : h[2 * i - 1] + h[2 * i];
      ambiguous[i] = edge[2 * i + 1] + (i == 0 ? 0.0 : edge[2 * i - 1]);
      const double outer = (static_cast<double>(i) + 0.5) * w;
      const double inner = i == 0 ? 0.0 : (static_cast<double>(i) - 0.5) * w;
      vbin[i] = 4.0 / 3.0 * std::numbers::pi * (outer * outer * outer - inner * inner * inner);
    }
    const double density = n2 * facts.mean_inverse_volume;  // <n_sel / V>, A^-3
    struct Output {
      std::string norm, file;
      double per_pair_scale;  // value per ordered pair = per_pair_scale / bin volume (or 1)
      bool by_volume;
    };
    // -norm rdf: g; -norm number_density: pairs / (frames n_ref V_bin) in nm^-3;
    // -norm none: pairs / (frames n_ref w) in nm^-1 (resolves pair counts to < 0.5 pair).
    const std::vector<Output> outputs = {
        {"rdf", "gmx_" + t.tag + "_rdf_" + c.gmx_tag + ".xvg", 1.0 / (frames * n1 * density), true},
        {"number_density", "gmx_" + t.tag + "_rdfnd_" + c.gmx_tag + ".xvg", 1000.0 / (frames * n1), true},
        {"none", "gmx_" + t.tag + "_rdfnone_" + c.gmx_tag + ".xvg", 1.0 / (frames * n1 * kGmxBinNm), false}};
    for (const auto& o : outputs) {
      const auto rows = read_xvg(peers_dir() / o.file);
      ASSERT_EQ(rows.size(), nb) << o.file;
      Agreement a("rdf " + c.name + " -norm " + o.norm + " vs gmx rdf (" + t.tag + ")", kTolGmx);
      for (std::size_t i = 0; i < nb; ++i) {
        ASSERT_NEAR(rows[i][0], static_cast<double>(i) * kGmxBinNm, 1e-9) << o.file;
        const double per_pair = o.by_volume ? o.per_pair_scale / vbin[i] : o.per_pair_scale;
        const double value = count[i] * per_pair;
        const double printed = rows[i][c.gmx_column];
        // printed with 3 decimals: known to +-0.0005
        if (value == 0 && printed == 0) continue;
        a.add(value, printed, ambiguous[i] * per_pair + 0.0005, "r = " + std::to_string(rows[i][0]) + " nm");
      }
      a.check();
    }
    // -cn: at r = (i + 1) w, the mean number of sel positions closer than r to a ref position,
    // i.e. the cumulative count over the regular bins [k w, (k + 1) w); only pairs on the edge
    // (i + 1) w itself are ambiguous.
    const auto rows = read_xvg(peers_dir() / ("gmx_" + t.tag + "_rdfcn_" + c.gmx_tag + ".xvg"));
    ASSERT_EQ(rows.size(), nb);
    Agreement a("rdf " + c.name + " -cn vs gmx rdf (" + t.tag + ")", kTolGmx);
    double cumulative = 0;
    for (std::size_t i = 0; i < nb; ++i) {
      cumulative += h[2 * i] + h[2 * i + 1];
      ASSERT_NEAR(rows[i][0], static_cast<double>(i + 1) * kGmxBinNm, 1e-9);
      const double value = cumulative / (frames * n1);
      const double printed = rows[i][c.gmx_column];
      if (value == 0 && printed == 0) continue;
      a.add(value, printed, edge[2 * i + 2] / (frames * n1) + 0.0005, "r = " + std::to_string(rows[i][0]) + " nm");
    }
    a.check();
  }
  if (!HasFailure()) fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Radius of gyration and centre of mass

std::vector<std::string> moment_queries() {
  return {"rg:sel=DEC,label=rg_DEC", "com:sel=DEC,label=com_DEC", "rg:sel=O,label=rg_OW",
          "com:sel=O,label=com_OW",  "rg:sel=all,label=rg_all",   "com:sel=all,label=com_all"};
}

TEST_P(PeerTrajectory, RgAndComMatchMDAnalysis) {
  // Masses: molstep and MDAnalysis guess them from the .gro names (O 15.999, H 1.008, C 12.011);
  // the GROMACS topology uses the same numbers (system.top).
  const Trajectory& t = GetParam();
  const auto dir = run_molstep("mda-moments-" + t.tag, t.file, "system.gro", moment_queries());
  for (const std::string tag : {"DEC", "OW", "all"}) {
    SCOPED_TRACE(t.tag + " " + tag);
    const auto rg = read_csv(dir / ("rg_" + tag + ".csv"));
    const auto com = read_csv(dir / ("com_" + tag + ".csv"));
    const auto prg = read_csv(peers_dir() / ("mda_" + t.tag + "_rg_" + tag + ".csv"));
    const auto pcom = read_csv(peers_dir() / ("mda_" + t.tag + "_com_" + tag + ".csv"));
    ASSERT_EQ(rg.rows(), t.frames);
    ASSERT_EQ(prg.rows(), t.frames);
    ASSERT_EQ(pcom.rows(), t.frames);
    Agreement a_rg("rg " + tag + " vs MDAnalysis (" + t.tag + ")", kTolMda);
    Agreement a_com("com " + tag + " vs MDAnalysis (" + t.tag + ")", kTolMda);
    for (std::size_t k = 0; k < t.frames; ++k) {
      EXPECT_EQ(rg.at("time")[k], prg.at("time")[k]);  // both: the float32 time as a double
      const std::string where = "frame " + std::to_string(k);
      a_rg.add(rg.at("rg")[k], prg.at("rg")[k], 0.0, where);
      for (const std::string c : {"x", "y", "z"}) a_com.add(com.at(c)[k], pcom.at(c)[k], 0.0, where + " " + c);
    }
    a_rg.check();
    a_com.check();
  }
  if (!HasFailure()) fs::remove_all(dir);
}

TEST_P(PeerTrajectory, RgMatchesGmxGyrateAndComMatchesGmxTraj) {
  const Trajectory& t = GetParam();
  const auto dir = run_molstep("gmx-moments-" + t.tag, t.file, "system.gro", moment_queries());
  // gmx gyrate (decane only: it makes molecules whole through the .tpr, and only the decane is
  // whole in every stored frame): t, Rg, Rg about x, y, z in nm, printed %10g (6 digits).
  // molstep's rg_x is the radius about the x axis (y and z components), as gmx's RgX.
  {
    const auto rg = read_csv(dir / "rg_DEC.csv");
    const auto rows = read_xvg(peers_dir() / ("gmx_" + t.tag + "_gyrate_DEC.xvg"));
    ASSERT_EQ(rows.size(), t.frames);
    Agreement a("rg, rg_x, rg_y, rg_z DEC vs gmx gyrate (" + t.tag + ")", kTolGmx);
    const char* columns[] = {"rg", "rg_x", "rg_y", "rg_z"};
    for (std::size_t k = 0; k < t.frames; ++k) {
      EXPECT_NEAR(rows[k][0], rg.at("time")[k], 1e-4);
      for (std::size_t c = 0; c < 4; ++c) {
        const double printed = rows[k][c + 1] * 10.0;
        a.add(rg.at(columns[c])[k], printed, half_unit(rows[k][c + 1], 6) * 10.0,
              "frame " + std::to_string(k) + " " + columns[c]);
      }
    }
    a.check();
  }
  // gmx traj -com -nopbc -fp: positions as stored (like molstep), printed with 8 digits.
  const std::vector<std::pair<std::string, std::string>> groups = {{"DEC", "DEC"}, {"OW", "OW"}, {"all", "System"}};
  for (const auto& [tag, group] : groups) {
    const auto com = read_csv(dir / ("com_" + tag + ".csv"));
    const auto rows = read_xvg(peers_dir() / ("gmx_" + t.tag + "_com_" + group + ".xvg"));
    ASSERT_EQ(rows.size(), t.frames);
    Agreement a("com " + tag + " vs gmx traj -com (" + t.tag + ")", kTolGmx);
    for (std::size_t k = 0; k < t.frames; ++k) {
      const char* axes[] = {"x", "y", "z"};
      for (std::size_t c = 0; c < 3; ++c) {
        a.add(com.at(axes[c])[k], rows[k][c + 1] * 10.0, half_unit(rows[k][c + 1], 8) * 10.0,
              "frame " + std::to_string(k) + " " + axes[c]);
      }
    }
    a.check();
  }
  if (!HasFailure()) fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AnalysisPeers, PeerTrajectory, testing::Values(kXtc, kTrr),
                         [](const testing::TestParamInfo<Trajectory>& info) { return info.param.tag; });

// ---------------------------------------------------------------------------------------------
// Mean square displacement against MDAnalysis EinsteinMSD(fft=False)

// MDAnalysis 2.4 has no NoJump transformation, so its input is ow_nojump.trr: the OW atoms of
// md.xtc unwrapped by gmx trjconv -pbc nojump (float TRR, README.md). molstep unwraps md.xtc
// itself (unwrap=nojump: the minimum image of each step between frames, the same rule as
// trjconv's in a constant box), and also reads ow_nojump.trr as it is (unwrap=none).
void expect_msd_matches(const fs::path& dir, const std::string& what) {
  for (const std::string dims : {"xyz", "xy"}) {
    const auto m = read_csv(dir / ("msd_" + dims + ".csv"));
    const auto p = read_csv(peers_dir() / ("mda_ow_nojump_msd_" + dims + ".csv"));
    ASSERT_EQ(m.rows(), kXtc.frames);
    ASSERT_EQ(p.rows(), kXtc.frames);
    EXPECT_EQ(m.at("msd")[0], 0.0);
    EXPECT_EQ(p.at("msd")[0], 0.0);
    Agreement a("msd OW " + dims + " " + what, kTolMda);
    for (std::size_t lag = 1; lag < m.rows(); ++lag) {
      EXPECT_EQ(m.at("lag")[lag], p.at("lag")[lag]);
      a.add(m.at("msd")[lag], p.at("msd")[lag], 0.0, "lag " + std::to_string(lag));
    }
    a.check();
  }
}

TEST(AnalysisPeers, MsdNojumpOnXtcMatchesMDAnalysisOnTrjconvNojump) {
  const auto dir = run_molstep("msd-nojump", "md.xtc", "system.gro",
                               {"msd:sel=O,unwrap=nojump,dims=xyz,label=msd_xyz", "msd:sel=O,unwrap=nojump,dims=xy,label=msd_xy"});
  expect_msd_matches(dir, "(md.xtc, unwrap=nojump) vs EinsteinMSD on ow_nojump.trr");
  if (!HasFailure()) fs::remove_all(dir);
}

TEST(AnalysisPeers, MsdOnUnwrappedTrrMatchesMDAnalysis) {
  const auto dir = run_molstep("msd-none", "ow_nojump.trr", "ow.gro",
                               {"msd:sel=all,unwrap=none,dims=xyz,label=msd_xyz", "msd:sel=all,unwrap=none,dims=xy,label=msd_xy"});
  expect_msd_matches(dir, "(ow_nojump.trr, unwrap=none) vs EinsteinMSD on ow_nojump.trr");
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace molstep::test
