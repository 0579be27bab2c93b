// SPDX-License-Identifier: MIT
#include <fmt/format.h>
#include <omp.h>

#include <iostream>
#include <memory>

#include "molstep/analysis/partition.hpp"
#include "molstep/analysis/setup.hpp"
#include "molstep/analysis/stream.hpp"
#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"
#include "molstep/io/trajectory.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "subcommands.hpp"

namespace molstep::app {

namespace {

struct AnalyzeOptions {
  std::string trajectory;
  std::string format;
  std::string top;
  std::vector<std::string> queries;
  std::string query_file;
  std::vector<std::string> selections;
  std::string device = "auto";
  std::string out = "analysis";
  std::string units;
  std::string type_mass, type_charge;
  long frames = -1;
  double dt = 0;
  int threads = 0;
  bool plot = false;
};

/// The unit system a trajectory's energies and volumes are in, when the user does not say.
std::string default_units(io::TrajectoryFormat f) {
  return (f == io::TrajectoryFormat::xtc || f == io::TrajectoryFormat::trr) ? "gromacs" : "real";
}

/// A reader whose frames' time is step * dt (for formats that store steps, not times).
class TimeFromSteps final : public io::TrajectoryReader {
 public:
  TimeFromSteps(std::unique_ptr<io::TrajectoryReader> inner, double dt)
      : io::TrajectoryReader(inner->path()), inner_(std::move(inner)), dt_(dt) {}
  bool next(core::Frame& frame) override {
    if (!inner_->next(frame)) return false;
    frame.time = static_cast<double>(frame.step) * dt_;
    return true;
  }
  [[nodiscard]] std::size_t natoms() const override { return inner_->natoms(); }
  [[nodiscard]] core::Topology topology() const override { return inner_->topology(); }

 private:
  std::unique_ptr<io::TrajectoryReader> inner_;
  double dt_;
};

/// Fills what `from` knows and `to` does not.
void merge_topology(core::Topology& to, const core::Topology& from) {
  auto fill = [](auto& a, const auto& b) {
    if (a.empty()) a = b;
  };
  fill(to.name, from.name);
  fill(to.resname, from.resname);
  fill(to.resid, from.resid);
  fill(to.type, from.type);
  fill(to.element, from.element);
  fill(to.mass, from.mass);
  fill(to.charge, from.charge);
}

int run_analyze(const AnalyzeOptions& opt) {
  using namespace molstep::analysis;
  AnalysisSetup setup;
  for (const auto& s : opt.selections) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw Error(fmt::format("--select: expected NAME=EXPRESSION, found '{}'", s));
    setup.selections.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  if (!opt.query_file.empty()) read_query_file(opt.query_file, setup);
  for (const auto& q : opt.queries) setup.queries.push_back(parse_query_spec(q));
  if (!opt.type_mass.empty()) setup.type_mass = parse_type_table(opt.type_mass, "--type-mass");
  if (!opt.type_charge.empty()) setup.type_charge = parse_type_table(opt.type_charge, "--type-charge");

  std::optional<io::TrajectoryFormat> format;
  if (!opt.format.empty()) {
    format = io::format_from_name(opt.format);
    if (!format) throw Error(fmt::format("--format: unknown format '{}' (known: xtc, trr, dcd, lammpstrj, xyz)", opt.format));
  }
  auto reader = io::open_trajectory(opt.trajectory, format);
  if (opt.dt > 0) reader = std::make_unique<TimeFromSteps>(std::move(reader), opt.dt);
  setup.units = opt.units.empty() ? default_units(format ? *format : io::format_from_path(opt.trajectory)) : opt.units;
  setup.gpu = opt.device == "cuda" || (opt.device == "auto" && md::cuda::device_count() > 0);
  setup.partition = world_partition();

  core::Topology topology;
  if (!opt.top.empty()) {
    auto structure = io::read_structure(opt.top);
    topology = std::move(structure.topology);
    const auto n = topology.natoms();
    if (n != 0 && n != reader->natoms()) {
      throw Error(fmt::format("--top {} describes {} atoms, the trajectory {} has {}", opt.top, n, opt.trajectory,
                              reader->natoms()));
    }
  }
  merge_topology(topology, reader->topology());

  core::Frame first;
  if (!reader->next(first)) throw Error(fmt::format("{}: no frames", opt.trajectory));
  nlohmann::json summary;
  summary["trajectory"] = opt.trajectory;
  summary["atoms"] = first.natoms();
  summary["units"] = setup.units;
  auto network = build_network(std::move(topology), first, setup, summary);
  const auto stats = run_stream(*reader, std::move(first), *network, 4, opt.frames);
  network->finish(opt.out, opt.plot, summary);
  if (setup.partition.rank != 0) return 0;  // rank 0 writes the results
  summary["device"] = network->device();
  summary["mpi_ranks"] = setup.partition.size;
  summary["frames"] = stats.frames;
  summary["seconds"] = stats.seconds;
  summary["read_seconds"] = stats.read_seconds;
  summary["frames_per_second"] = stats.seconds > 0 ? static_cast<double>(stats.frames) / stats.seconds : 0.0;
  core::AtomicFile file(std::filesystem::path(opt.out) / "summary.json");
  file.stream() << summary.dump(2) << '\n';
  file.commit();
  std::cout << fmt::format("analyzed {} frames of {} atoms on {} in {:.3f} s ({:.4g} frames/s); results in {}/\n",
                           stats.frames, summary["atoms"].get<std::size_t>(), network->device(), stats.seconds,
                           summary["frames_per_second"].get<double>(), opt.out);
  return 0;
}

}  // namespace

std::function<int()> add_analyze_command(CLI::App& app) {
  auto opt = std::make_shared<AnalyzeOptions>();
  auto* cmd = app.add_subcommand("analyze", "Push a trajectory once through many analysis queries");
  cmd->add_option("trajectory", opt->trajectory, "XTC, TRR, DCD, LAMMPS dump or (extended) XYZ file")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--format", opt->format, "trajectory format when the extension does not say (xtc, trr, dcd, lammpstrj, xyz)");
  cmd->add_option("--top", opt->top, "names, residues, masses, charges: a GRO, PDB or LAMMPS data file")
      ->check(CLI::ExistingFile);
  cmd->add_option("--query,-q", opt->queries, "KIND[:key=value,...], e.g. rdf:sel1=O,sel2=O,rmax=10,bins=200")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--queries", opt->query_file, "file of queries and 'select NAME = EXPR' lines")
      ->check(CLI::ExistingFile);
  cmd->add_option("--select,-s", opt->selections, "NAME=EXPRESSION, e.g. O=\"name OW\"")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--device", opt->device, "cpu or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--out,-o", opt->out, "output directory (default: analysis)");
  cmd->add_option("--units", opt->units, "unit system of energies and volumes: real, metal, lj, gromacs")
      ->check(CLI::IsMember({"real", "metal", "lj", "gromacs"}));
  cmd->add_option("--type-mass", opt->type_mass, "per-type masses, e.g. 1=15.999,2=1.008");
  cmd->add_option("--type-charge", opt->type_charge, "per-type charges, e.g. 1=-0.8476,2=0.4238");
  cmd->add_option("--frames", opt->frames, "analyze at most this many frames")->check(CLI::PositiveNumber);
  cmd->add_option("--dt", opt->dt, "time per step: frame time = step * dt (LAMMPS dumps store steps only)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", opt->threads, "OpenMP threads (default: all cores)")->check(CLI::PositiveNumber);
  cmd->add_flag("--plot", opt->plot, "also write a PNG plot per query");
  return [opt]() -> int {
    if (opt->threads > 0) omp_set_num_threads(opt->threads);
    try {
      return run_analyze(*opt);
    } catch (const Error& e) {
      std::cerr << "error: " << e.what() << '\n';
      if (analysis::world_partition().distributed()) analysis::abort_all(1);
      return 1;
    }
  };
}

}  // namespace molstep::app
