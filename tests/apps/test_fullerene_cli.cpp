// SPDX-License-Identifier: MIT
// Runs the real `molstep fullerene ...`: counts, generation in parts, optimisation with each
// geometry format, the isomer-space job, and bad input, which must end in one "error: ..." line,
// a non-zero exit and no output file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "molstep/io/planar_code.hpp"
#include "support/cli_runner.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::test::CliResult;

namespace {

constexpr const char* kC60Ih = "60:1,7,9,11,13,15,18,20,22,24,26,32";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// A results.csv without its last column, seconds: the only one that changes between runs.
std::string strip_time(const std::string& csv) {
  std::string out;
  for (const auto& l : lines_of(csv)) out += l.substr(0, l.rfind(',')) + "\n";
  return out;
}

class FullereneCli : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = molstep::test::scratch_dir(std::string("fullerene-cli-") + info->name());
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  [[nodiscard]] CliResult run(const std::string& args) const { return molstep::test::run_molstep(dir_, args); }

  /// Runs `args`, which must fail with exit code 1 and the one line "error: <fragment...>".
  void expect_error(const std::string& args, const std::string& fragment) const {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 1) << args << "\nstderr: " << r.err;
    EXPECT_TRUE(r.err.starts_with("error: ")) << args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << args << "\nexpected '" << fragment << "' in: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
  }

  /// Every file in the scratch folder (names only).
  [[nodiscard]] std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
    return names;
  }

  fs::path dir_;
};

// --- count and generate ---

TEST_F(FullereneCli, CountPrintsTheCountAndTheTime) {
  CliResult r = run("fullerene count 40 --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("40 isomers of C40 in ")) << r.out;
  EXPECT_NE(r.out.find(" s ("), std::string::npos) << r.out;
  r = run("fullerene count 70 --ipr --threads 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("1 isomers of IPR C70 in ")) << r.out;
  // The whole search, kept for comparisons, finds the same 46 IPR isomers of C90.
  r = run("fullerene count 90 --ipr --ipr-whole-search --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("46 isomers of IPR C90 in ")) << r.out;
  // By parts: C50 has 271 isomers.
  r = run("fullerene count 50 --part 1/2 --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult second = run("fullerene count 50 --part 2/2 --threads 1");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(r.out.find("isomers of C50, part 1/2 in "), std::string::npos) << r.out;
  EXPECT_EQ(std::stoi(r.out) + std::stoi(second.out), 271) << r.out << second.out;
}

// C60 in 3 parts, each of which holds isomers. Small spaces may leave a part empty: C50's 271
// isomers in 3 parts come from a handful of nodes where the search first reaches C30 (or jumps
// past it), and one part gets none.
TEST_F(FullereneCli, PartsTogetherAreTheWholeSpace) {
  const CliResult whole = run("fullerene generate 60 --format spiral");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto all = lines_of(whole.out);
  ASSERT_EQ(all.size(), 1812U);
  const std::set<std::string> names(all.begin(), all.end());
  EXPECT_EQ(names.size(), all.size()) << "spirals name isomers uniquely";

  std::multiset<std::string> from_parts;
  std::size_t planar_graphs = 0;
  for (int i = 1; i <= 3; ++i) {
    const std::string part = " --part " + std::to_string(i) + "/3";
    const CliResult r = run("fullerene generate 60 --format spiral" + part);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = lines_of(r.out);
    EXPECT_FALSE(lines.empty()) << "part " << i;
    from_parts.insert(lines.begin(), lines.end());

    const std::string file = "part" + std::to_string(i) + ".pc";
    ASSERT_EQ(run("fullerene generate 60" + part + " --out " + file).exit_code, 0);
    molstep::io::PlanarCodeReader reader(dir_ / file);
    std::size_t graphs = 0;
    while (const auto g = reader.next()) {
      EXPECT_EQ(g->size(), 32);  // 60/2 + 2 faces
      ++graphs;
    }
    EXPECT_EQ(graphs, lines.size()) << "part " << i;
    planar_graphs += graphs;
  }
  EXPECT_EQ(from_parts, std::multiset<std::string>(names.begin(), names.end()));
  EXPECT_EQ(planar_graphs, 1812U);
}

TEST_F(FullereneCli, PlanarCodeOnStdoutEqualsTheFile) {
  const CliResult r = run("fullerene generate 44");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(run("fullerene generate 44 --out c44.pc").exit_code, 0);
  const std::string file = molstep::test::read_text(dir_ / "c44.pc");
  EXPECT_TRUE(file.starts_with(">>planar_code<<"));
  EXPECT_EQ(r.out, file);
}

// --- optimize ---

TEST_F(FullereneCli, OptimizeOneSpiralPrintsItsRow) {
  const CliResult r = run(std::string("fullerene optimize --spiral ") + kC60Ih);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3U) << r.out;  // two header lines, one isomer
  EXPECT_NE(lines[0].find("energy"), std::string::npos);
  std::istringstream row(lines[2]);
  std::string index, status, spiral;
  int iterations = 0;
  double energy = 0, bond = 0, angle = 0, dihedral = 0, volume = 0, sphericity = 0, radius = 0, gap = 0;
  row >> index >> status >> iterations >> energy >> bond >> angle >> dihedral >> volume >> sphericity >> radius >> gap >>
      spiral;
  EXPECT_EQ(index, "0");
  EXPECT_EQ(status, "converged");
  EXPECT_LT(energy, 1e-2);
  EXPECT_LT(bond, 1e-3);
  // The default criterion (|g|/N < 1e-2) stops short of the minimum along soft modes: a uniform
  // breathing of C60-Ih by 1e-3 A alone gives |g|/N = 1.3e-2, and softer uneven modes move the
  // outermost atom more (3.5643 A with the Wolfe search); FullereneOptimize checks 1e-4 A at a
  // tight tolerance.
  EXPECT_NEAR(radius, 3.5621, 5e-3);
  EXPECT_NEAR(gap, 0.7566, 1e-3);
  EXPECT_EQ(spiral, kC60Ih);
}

TEST_F(FullereneCli, OptimizeWritesXyzMol2AndJson) {
  const std::string spiral = std::string(" --spiral ") + kC60Ih;
  ASSERT_EQ(run("fullerene optimize" + spiral + " --out c60.xyz").exit_code, 0);
  const auto xyz = lines_of(molstep::test::read_text(dir_ / "c60.xyz"));
  ASSERT_EQ(xyz.size(), 62U);
  EXPECT_EQ(xyz[0], "60");
  EXPECT_NE(xyz[1].find("energy="), std::string::npos) << xyz[1];
  EXPECT_TRUE(xyz[2].starts_with("C ")) << xyz[2];

  ASSERT_EQ(run("fullerene optimize" + spiral + " --out c60.mol2").exit_code, 0);
  const std::string mol2 = molstep::test::read_text(dir_ / "c60.mol2");
  EXPECT_TRUE(mol2.starts_with("@<TRIPOS>MOLECULE\nC60 " + std::string(kC60Ih) + "\n60 90 ")) << mol2.substr(0, 80);
  const auto mol2_lines = lines_of(mol2);
  EXPECT_EQ(std::count_if(mol2_lines.begin(), mol2_lines.end(), [](const std::string& l) { return l.ends_with(" C.ar   1 MOL 0.0000"); }), 60);
  EXPECT_EQ(std::count_if(mol2_lines.begin(), mol2_lines.end(), [](const std::string& l) { return l.ends_with(" ar"); }), 90);

  ASSERT_EQ(run("fullerene optimize 40 --threads 2 --out c40.json").exit_code, 0);
  const auto json = nlohmann::json::parse(molstep::test::read_text(dir_ / "c40.json"));
  ASSERT_EQ(json.size(), 40U);
  for (std::size_t i = 0; i < json.size(); ++i) {
    EXPECT_EQ(json[i].at("index"), i);
    EXPECT_EQ(json[i].at("positions").size(), 40U);
    EXPECT_EQ(json[i].at("neighbours").size(), 40U);
    EXPECT_TRUE(json[i].at("spiral").get<std::string>().starts_with("40:"));
  }
}

TEST_F(FullereneCli, OptimizeReadsDualsAndCubicGraphs) {
  // The same 40 isomers as duals and as cubic graphs: the same spirals in the same order.
  const auto data = molstep::test::data_dir() / "fullerene";
  const CliResult duals = run("fullerene optimize --input '" + (data / "c40_dual.pc").string() + "'");
  const CliResult cubic = run("fullerene optimize --input '" + (data / "c40.pc").string() + "'");
  ASSERT_EQ(duals.exit_code, 0) << duals.err;
  ASSERT_EQ(cubic.exit_code, 0) << cubic.err;
  const auto spirals = [](const std::string& out) {
    std::vector<std::string> s;
    for (const auto& l : lines_of(out)) s.push_back(l.substr(l.rfind(' ') + 1));
    return s;
  };
  EXPECT_EQ(spirals(duals.out).size(), 42U);
  EXPECT_EQ(spirals(duals.out), spirals(cubic.out));
}

// --- isomerspace ---

TEST_F(FullereneCli, IsomerspaceWritesTheTableSummaryAndPlots) {
  const CliResult r = run("fullerene isomerspace 40 --sample 6 --seed 11 --threads 2 --out space");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("C40: 6 of 40 isomers optimised in ")) << r.out;
  const auto csv = lines_of(molstep::test::read_text(dir_ / "space" / "results.csv"));
  ASSERT_EQ(csv.size(), 8U);  // comment, header, 6 rows
  EXPECT_EQ(csv[0], "# molstep fullerene isomerspace: C40, 40 isomers, random sample of 6 (seed 11)");
  const auto summary = nlohmann::json::parse(molstep::test::read_text(dir_ / "space" / "summary.json"));
  EXPECT_EQ(summary.at("isomers"), 6);
  for (const auto& f : summary.at("files")) EXPECT_TRUE(fs::exists(dir_ / "space" / f.get<std::string>())) << f;
  EXPECT_EQ(summary.at("files").size(), 6U);
}

TEST_F(FullereneCli, IsomerspaceCsvDoesNotDependOnThreads) {
  ASSERT_EQ(run("fullerene isomerspace 40 --threads 1 --out one").exit_code, 0);
  ASSERT_EQ(run("fullerene isomerspace 40 --threads 3 --out three").exit_code, 0);
  const std::string one = strip_time(molstep::test::read_text(dir_ / "one" / "results.csv"));
  EXPECT_EQ(lines_of(one).size(), 42U);
  EXPECT_EQ(one, strip_time(molstep::test::read_text(dir_ / "three" / "results.csv")));
}

TEST_F(FullereneCli, IsomerspaceSkipTakesAWindowOfTheWholeRun) {
  ASSERT_EQ(run("fullerene isomerspace 40 --threads 2 --out all").exit_code, 0);
  const CliResult window = run("fullerene isomerspace 40 --skip 10 --limit 15 --threads 2 --out window");
  ASSERT_EQ(window.exit_code, 0) << window.err;
  EXPECT_TRUE(window.out.starts_with("C40: 15 of isomers 10 to 24 optimised in ")) << window.out;
  const CliResult tail = run("fullerene isomerspace 40 --skip 30 --threads 2 --out tail");
  ASSERT_EQ(tail.exit_code, 0) << tail.err;
  EXPECT_TRUE(tail.out.starts_with("C40: 10 of the 10 isomers after the first 30 of 40 optimised in ")) << tail.out;
  // Rows: the comment line, the header, then one row per isomer, its index first.
  const auto all = lines_of(strip_time(molstep::test::read_text(dir_ / "all" / "results.csv")));
  const auto part = lines_of(strip_time(molstep::test::read_text(dir_ / "window" / "results.csv")));
  const auto last = lines_of(strip_time(molstep::test::read_text(dir_ / "tail" / "results.csv")));
  ASSERT_EQ(all.size(), 42U);
  ASSERT_EQ(part.size(), 17U);
  ASSERT_EQ(last.size(), 12U);
  EXPECT_EQ(lines_of(molstep::test::read_text(dir_ / "window" / "results.csv"))[0],
            "# molstep fullerene isomerspace: C40, isomers numbered 10 to 24");
  EXPECT_EQ(lines_of(molstep::test::read_text(dir_ / "tail" / "results.csv"))[0],
            "# molstep fullerene isomerspace: C40, 40 isomers, the first 30 skipped");
  for (std::size_t i = 1; i < part.size(); ++i) EXPECT_EQ(part[i], all[i == 1 ? 1 : i + 10]) << i;
  for (std::size_t i = 2; i < last.size(); ++i) EXPECT_EQ(last[i], all[i + 30]) << i;
  const auto summary = nlohmann::json::parse(molstep::test::read_text(dir_ / "window" / "summary.json"));
  EXPECT_EQ(summary.at("skip"), 10);
  EXPECT_EQ(summary.at("isomers"), 15);
  EXPECT_GE(summary.at("seconds").at("skip").get<double>(), 0.0);
  EXPECT_GT(summary.at("isomers_per_second_after_skip").get<double>(), 0.0);
  const auto whole = nlohmann::json::parse(molstep::test::read_text(dir_ / "all" / "summary.json"));
  EXPECT_TRUE(whole.at("seconds").at("skip").is_null());
  EXPECT_TRUE(whole.at("isomers_per_second_after_skip").is_null());
  const CliResult both = run("fullerene isomerspace 40 --skip 3 --sample 5 --out bad");  // a command-line error
  EXPECT_NE(both.exit_code, 0);
  EXPECT_NE(both.err.find("--sample excludes --skip"), std::string::npos) << both.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

TEST_F(FullereneCli, IsomerspaceUnderMpiMatchesOneProcess) {
#ifndef MOLSTEP_HAVE_MPI
  GTEST_SKIP() << "molstep built without MPI: test skipped";
#else
  if (std::system("command -v mpirun > /dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun: test skipped";
  ASSERT_EQ(run("fullerene isomerspace 44 --threads 1 --out one").exit_code, 0);
  const std::string mpirun =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 3 --oversubscribe '" +
      molstep::test::molstep_binary().string() + "' fullerene isomerspace 44 --threads 1 --out three";
  ASSERT_EQ(std::system(("cd '" + dir_.string() + "' && " + mpirun + " > mpi.log 2>&1").c_str()), 0)
      << molstep::test::read_text(dir_ / "mpi.log");
  EXPECT_EQ(strip_time(molstep::test::read_text(dir_ / "one" / "results.csv")),
            strip_time(molstep::test::read_text(dir_ / "three" / "results.csv")));
  const auto summary = nlohmann::json::parse(molstep::test::read_text(dir_ / "three" / "summary.json"));
  EXPECT_EQ(summary.at("mpi_ranks"), 3);
  EXPECT_EQ(summary.at("isomers"), 89);
#endif
}

// --- bad input ---

TEST_F(FullereneCli, BadAtomCounts) {
  expect_error("fullerene count 61", "no fullerene C61: N must be even");
  expect_error("fullerene count 18", "no fullerene C18");
  expect_error("fullerene count 22", "C22 does not exist");
  expect_error("fullerene generate 61", "no fullerene C61");
  expect_error("fullerene optimize 59", "no fullerene C59");
  expect_error("fullerene isomerspace 61 --out space", "no fullerene C61");
  EXPECT_TRUE(files().empty()) << *files().begin();
}

TEST_F(FullereneCli, BadGenerateOptions) {
  expect_error("fullerene generate 40 --format xyz --out x.pc", "--format: unknown format 'xyz' (known: planar, spiral)");
  expect_error("fullerene generate 40 --part 0/3 --out x.pc", "--part '0/3': expected i/m with 1 <= i <= m");
  expect_error("fullerene generate 40 --part 4/3 --out x.pc", "--part '4/3'");
  expect_error("fullerene generate 40 --part 1of3 --out x.pc", "--part '1of3'");
  expect_error("fullerene generate 40 --part 1/3/2 --out x.pc", "--part '1/3/2'");
  expect_error("fullerene generate 40 --part 1/ --out x.pc", "--part '1/'");
  expect_error("fullerene generate 40 --part 99999999999/3 --out x.pc", "--part '99999999999/3'");
  EXPECT_TRUE(files().empty()) << *files().begin();
}

TEST_F(FullereneCli, BadSpirals) {
  expect_error("fullerene optimize --spiral 60:1,2,3", "it has 3 pentagon positions, not 12");
  expect_error("fullerene optimize --spiral 60:1,2,3,4,5,6,7,8,9,10,11,12 --out x.xyz",
               "spiral 60:1,2,3,4,5,6,7,8,9,10,11,12 does not close to a fullerene");
  expect_error("fullerene optimize --spiral 61:1,7,9,11,13,15,18,20,22,24,26,32", "61");
  EXPECT_TRUE(files().empty()) << *files().begin();
}

TEST_F(FullereneCli, TruncatedPlanarCodeFile) {
  ASSERT_EQ(run("fullerene generate 40 --out c40.pc").exit_code, 0);
  const std::string bytes = molstep::test::read_text(dir_ / "c40.pc");
  molstep::test::write_file(dir_ / "cut.pc", bytes.substr(0, bytes.size() - 10));
  // Graph 39 of 40 is cut short: the error names the file and the graph; nothing is written.
  expect_error("fullerene optimize --input cut.pc --out cut.xyz", "cut.pc: truncated: graph 39");
  expect_error("fullerene optimize --input missing.pc", "missing.pc");
  EXPECT_EQ(files(), (std::set<std::string>{"c40.pc", "cut.pc"}));
}

TEST_F(FullereneCli, BadOptimizeArguments) {
  expect_error("fullerene optimize", "give exactly one of --spiral SPEC, --input FILE or N");
  expect_error(std::string("fullerene optimize 60 --spiral ") + kC60Ih, "give exactly one of");
  expect_error(std::string("fullerene optimize --ipr --spiral ") + kC60Ih, "--ipr selects among the isomers of C_N");
  expect_error(std::string("fullerene optimize --spiral ") + kC60Ih + " --out c60.pdb",
               "unknown extension '.pdb' (known: .xyz, .mol2, .json)");
  EXPECT_TRUE(files().empty()) << *files().begin();
}

TEST_F(FullereneCli, IsomerspaceIntoAFileIsAnError) {
  molstep::test::write_file(dir_ / "taken", "a file, not a folder\n");
  expect_error("fullerene isomerspace 40 --sample 2 --out taken", "taken");
  const CliResult r = run("fullerene isomerspace 40 --seed 3 --out space");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--sample"), std::string::npos) << r.err;
  EXPECT_EQ(files(), std::set<std::string>{"taken"});
}

}  // namespace
