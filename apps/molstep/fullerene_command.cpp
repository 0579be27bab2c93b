// SPDX-License-Identifier: MIT
#include <fmt/format.h>
#include <omp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "molstep/analysis/partition.hpp"
#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/isomerspace.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "molstep/io/mol2_writer.hpp"
#include "molstep/io/planar_code.hpp"
#include "molstep/io/xyz.hpp"
#include "subcommands.hpp"

namespace molstep::app {

namespace {

namespace fl = molstep::fullerene;

struct FullereneOptions {
  int atoms = 0;
  bool ipr = false;
  bool ipr_whole_search = false;
  int threads = 0;
  std::string format = "planar";
  std::string part = "1/1";
  std::string out;
  std::string spiral;
  std::string input;
  std::uint64_t sample = 0;
  std::uint64_t seed = 42;
  std::uint64_t limit = 0;
  std::uint64_t skip = 0;
  std::string device = "cpu";
  std::string line_search = "wolfe";
  fl::GpuOptions gpu;
};

/// --line-search as the optimiser's (the option's check admits only these two).
fl::LineSearch line_search_of(const FullereneOptions& opt) {
  return opt.line_search == "golden" ? fl::LineSearch::golden : fl::LineSearch::wolfe;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int threads_of(const FullereneOptions& opt) { return opt.threads > 0 ? opt.threads : omp_get_max_threads(); }

/// "--part i/m" (1-based, like BuckyGen's res/mod but counted from 1) as the generator's 0-based part.
std::pair<int, int> parse_part(const std::string& text) {
  int i = 0, m = 0;
  const char* end = text.data() + text.size();
  const auto first = std::from_chars(text.data(), end, i);
  const bool ok = first.ec == std::errc() && first.ptr != end && *first.ptr == '/' &&
                  std::from_chars(first.ptr + 1, end, m).ptr == end && m >= 1 && i >= 1 && i <= m;
  if (!ok) throw Error(fmt::format("--part '{}': expected i/m with 1 <= i <= m, e.g. 2/8", text));
  return {i - 1, m};
}

std::string space_name(int atoms, bool ipr) { return fmt::format("{}C{}", ipr ? "IPR " : "", atoms); }

// --- count, generate ---

int run_count(const FullereneOptions& opt) {
  const int threads = threads_of(opt);
  const auto start = std::chrono::steady_clock::now();
  const auto [part, parts] = parse_part(opt.part);
  fl::GeneratorOptions options{opt.atoms, opt.ipr, part, parts};
  options.ipr_whole_search = opt.ipr_whole_search;
  const std::uint64_t n = fl::count_isomers(options, threads);
  const double s = seconds_since(start);
  std::cout << fmt::format("{} isomers of {}{} in {:.3f} s ({:.4g} isomers/s on {} thread{})\n", n,
                           space_name(opt.atoms, opt.ipr), parts > 1 ? fmt::format(", part {}", opt.part) : "", s,
                           s > 0 ? static_cast<double>(n) / s : 0.0, threads, threads == 1 ? "" : "s");
  return 0;
}

int run_generate(const FullereneOptions& opt) {
  if (opt.format != "planar" && opt.format != "spiral")
    throw Error(fmt::format("--format: unknown format '{}' (known: planar, spiral)", opt.format));
  const auto [part, parts] = parse_part(opt.part);
  fl::Generator generator(fl::GeneratorOptions{opt.atoms, opt.ipr, part, parts});
  if (opt.format == "planar") {
    auto out = opt.out.empty() ? std::make_unique<io::PlanarCodeWriter>(std::cout, "standard output")
                               : std::make_unique<io::PlanarCodeWriter>(opt.out);
    generator.run([&](const fl::PlanarMap& m) { out->write(fl::as_triangulation(m)); });
    out->close();
    return 0;
  }
  std::unique_ptr<core::AtomicFile> file;
  if (!opt.out.empty()) file = std::make_unique<core::AtomicFile>(opt.out);
  std::ostream& out = file ? file->stream() : std::cout;
  generator.run([&](const fl::PlanarMap& m) {
    out << fl::format_spiral(fl::canonical_general_spiral(fl::as_triangulation(m))) << '\n';
  });
  if (file) file->commit();
  return 0;
}

// --- optimize ---

/// Where `optimize --out` puts the optimised geometries, by the file's extension.
class GeometryOutput {
 public:
  explicit GeometryOutput(std::filesystem::path path) : path_(std::move(path)), ext_(path_.extension().string()) {
    if (ext_ != ".xyz" && ext_ != ".mol2" && ext_ != ".json")
      throw Error(fmt::format("--out {}: unknown extension '{}' (known: .xyz, .mol2, .json)", path_.string(), ext_));
  }

  void write(const fl::OptimizedIsomer& isomer) {
    const fl::IsomerResult& r = isomer.result;
    const auto n = static_cast<std::size_t>(r.atoms);
    if (ext_ == ".xyz") {
      if (!xyz_) {
        core::Topology topology;
        topology.element.assign(n, "C");
        xyz_ = io::create_xyz(path_, n, topology);
      }
      core::Frame frame;
      frame.step = static_cast<std::int64_t>(r.index);
      frame.resize(n);
      for (std::size_t a = 0; a < n; ++a) {
        frame.x[a] = isomer.positions[a][0];
        frame.y[a] = isomer.positions[a][1];
        frame.z[a] = isomer.positions[a][2];
      }
      frame.scalars = {{"energy", r.properties.energy},
                       {"iterations", r.iterations},
                       {"bond_rmsd", r.properties.bond_rmsd},
                       {"homo_lumo_gap", r.properties.homo_lumo_gap}};
      xyz_->write(frame);
    } else if (ext_ == ".mol2") {
      if (!mol2_) mol2_ = std::make_unique<io::Mol2Writer>(path_);
      io::Mol2Molecule m;
      m.name = fmt::format("C{} {}", r.atoms, r.spiral);
      m.comment = fmt::format("index {} status {} energy {}", r.index, fl::status_name(r.status), r.properties.energy);
      m.positions = isomer.positions;
      m.atom_types.assign(n, "C.ar");
      for (std::size_t a = 0; a < n; ++a) m.atom_names.push_back("C" + std::to_string(a + 1));
      for (int a = 0; a < isomer.graph.size(); ++a)
        for (const int b : isomer.graph.adj[a])
          if (a < b) m.bonds.push_back({a, b, "ar"});
      mol2_->write(m);
    } else {
      if (!json_) {
        json_ = std::make_unique<core::AtomicFile>(path_);
        json_->stream() << "[\n";
      } else {
        json_->stream() << ",\n";
      }
      nlohmann::json j = fl::isomer_json(r);
      j["positions"] = isomer.positions;
      j["neighbours"] = isomer.graph.adj;
      json_->stream() << j.dump();
    }
  }

  /// Makes the file appear; an output that was never written to is not created.
  void close() {
    if (xyz_) xyz_->close();
    if (mol2_) mol2_->close();
    if (json_) {
      json_->stream() << "\n]\n";
      json_->commit();
    }
  }

 private:
  std::filesystem::path path_;
  std::string ext_;
  std::unique_ptr<io::TrajectoryWriter> xyz_;
  std::unique_ptr<io::Mol2Writer> mol2_;
  std::unique_ptr<core::AtomicFile> json_;
};

/// The isomers `optimize` was asked for: one spiral, a planar_code file (duals or cubic
/// graphs), or every isomer of C_N.
fl::IsomerSource optimize_source(const FullereneOptions& opt) {
  const int given = (opt.spiral.empty() ? 0 : 1) + (opt.input.empty() ? 0 : 1) + (opt.atoms > 0 ? 1 : 0);
  if (given != 1) throw Error("optimize: give exactly one of --spiral SPEC, --input FILE or N");
  if (opt.ipr && opt.atoms == 0) throw Error("optimize: --ipr selects among the isomers of C_N: give N");
  if (!opt.spiral.empty()) {
    const fl::Spiral s = fl::parse_spiral(opt.spiral);
    const fl::Triangulation t = fl::triangulation_from_spiral(s);
    return [t](const auto& take) { take(0, t); };
  }
  if (!opt.input.empty()) {
    auto reader = std::make_shared<io::PlanarCodeReader>(opt.input);
    return [reader](const auto& take) {
      while (const auto g = reader->next()) {
        bool cubic = true;
        for (int v = 0; v < g->size(); ++v) cubic = cubic && g->degree(v) == 3;
        take(static_cast<std::uint64_t>(g->index), cubic ? fl::dualize(io::to_cubic(*g)) : io::to_triangulation(*g));
      }
    };
  }
  fl::check_atom_count(opt.atoms);
  return [atoms = opt.atoms, ipr = opt.ipr](const auto& take) {
    std::uint64_t index = 0;
    fl::Generator(fl::GeneratorOptions{atoms, ipr, 0, 1}).run([&](const fl::PlanarMap& m) {
      take(index++, fl::as_triangulation(m));
    });
  };
}

int run_optimize(const FullereneOptions& opt) {
  const fl::IsomerSource source = optimize_source(opt);
  std::optional<GeometryOutput> geometry;
  if (!opt.out.empty()) geometry.emplace(opt.out);
  std::cout << fmt::format("{:>8} {:<9} {:>5} {:>11} {:>10} {:>10} {:>10} {:>9} {:>7} {:>8} {:>7} {}\n", "index", "status",
                           "iter", "energy", "bond_rmsd", "angle_rmsd", "dihed_rmsd", "volume", "spheric", "radius",
                           "gap", "spiral");
  std::cout << fmt::format("{:>8} {:<9} {:>5} {:>11} {:>10} {:>10} {:>10} {:>9} {:>7} {:>8} {:>7}\n", "", "", "", "",
                           "(A)", "(deg)", "(deg)", "(A^3)", "", "(A)", "(|b|)");
  fl::StreamOptions stream;
  stream.threads = threads_of(opt);
  stream.optimize.line_search = line_search_of(opt);
  fl::optimize_stream(source, stream, [&](std::vector<fl::OptimizedIsomer>& batch) {
    for (const fl::OptimizedIsomer& isomer : batch) {
      const fl::IsomerResult& r = isomer.result;
      const fl::IsomerProperties& p = r.properties;
      std::cout << fmt::format("{:>8} {:<9} {:>5} {:>11.4e} {:>10.3e} {:>10.3e} {:>10.3e} {:>9.2f} {:>7.4f} {:>8.4f} {:>7.4f} {}\n",
                               r.index, fl::status_name(r.status), r.iterations, p.energy, p.bond_rmsd, p.angle_rmsd,
                               p.dihedral_rmsd, p.volume, p.sphericity, p.circumradius, p.homo_lumo_gap, r.spiral);
      if (geometry) geometry->write(isomer);
    }
    std::cout.flush();
  });
  if (geometry) geometry->close();
  return 0;
}

// --- isomerspace ---

int run_isomerspace(const FullereneOptions& opt) {
  fl::IsomerspaceOptions options;
  options.atoms = opt.atoms;
  options.ipr = opt.ipr;
  options.sample = opt.sample;
  options.seed = opt.seed;
  options.limit = opt.limit;
  options.skip = opt.skip;
  options.optimize.line_search = line_search_of(opt);
  options.threads = threads_of(opt);
  options.out = opt.out;
  options.partition = analysis::world_partition();
  options.gpu = opt.gpu;
  options.gpu.enabled = opt.device == "cuda";
  const nlohmann::json summary = fl::run_isomerspace(options);
  if (options.partition.rank != 0) return 0;
  const auto& status = summary.at("status");
  const auto n = [&summary](const char* key) { return summary.at(key).get<std::uint64_t>(); };
  const std::string of = !summary.at("isomers_in_space").is_null()
                             ? (opt.skip > 0 ? fmt::format("the {} isomers after the first {} of {}", n("isomers"),
                                                           opt.skip, n("isomers_in_space"))
                                             : fmt::format("{} isomers", n("isomers_in_space")))
                         : opt.skip > 0 ? fmt::format("isomers {} to {}", opt.skip, opt.skip + opt.limit - 1)
                                        : fmt::format("the first {} isomers", n("limit"));
  std::cout << fmt::format(
      "{}: {} of {} optimised in {:.3f} s ({:.4g} isomers/s on {}{} thread{} x {} rank{}): {} converged, {} "
      "failed, {} invalid; results in {}/\n",
      space_name(opt.atoms, opt.ipr), n("isomers"), of, summary.at("seconds").at("wall").get<double>(),
      summary.at("isomers_per_second").get<double>(), options.gpu.enabled ? "a GPU and " : "", options.threads,
      options.threads == 1 ? "" : "s", options.partition.size, options.partition.size == 1 ? "" : "s",
      status.at("converged").get<std::uint64_t>(), status.at("failed").get<std::uint64_t>(),
      status.at("invalid").get<std::uint64_t>(), opt.out);
  return 0;
}

}  // namespace

std::function<int()> add_fullerene_command(CLI::App& app) {
  auto opt = std::make_shared<FullereneOptions>();
  auto* cmd = app.add_subcommand("fullerene", "Fullerene isomer spaces: count, generate, optimise");
  cmd->require_subcommand(1);
  const auto add_threads = [&](CLI::App* sub) {
    sub->add_option("--threads", opt->threads, "threads (default: all cores)")->check(CLI::PositiveNumber);
  };

  auto* count = cmd->add_subcommand("count", "Count the isomers of C_N");
  count->add_option("N", opt->atoms, "number of carbon atoms")->required();
  count->add_flag("--ipr", opt->ipr, "isolated-pentagon isomers only");
  count->add_flag("--ipr-whole-search", opt->ipr_whole_search,
                  "with --ipr: search the whole space and keep the IPR isomers (for checks and comparisons)");
  count->add_option("--part", opt->part, "only part i of m (1 <= i <= m) of the isomer space, as generate");
  add_threads(count);

  auto* generate = cmd->add_subcommand("generate", "Write every isomer of C_N (its dual triangulation)");
  generate->add_option("N", opt->atoms, "number of carbon atoms")->required();
  generate->add_flag("--ipr", opt->ipr, "isolated-pentagon isomers only");
  generate->add_option("--format", opt->format, "planar (planar_code, as BuckyGen) or spiral (one per line)");
  generate->add_option("--part", opt->part, "only part i of m (1 <= i <= m) of the isomer space");
  generate->add_option("--out,-o", opt->out, "output file (default: standard output)");

  auto* optimize = cmd->add_subcommand("optimize", "Optimise isomers with the Wirz force field and print their properties");
  optimize->add_option("N", opt->atoms, "every isomer of C_N");
  optimize->add_option("--spiral", opt->spiral,
                       "one isomer by its spiral, e.g. 60:1,7,9,11,13,15,18,20,22,24,26,32, or with jumps "
                       "380:110,2;45,70,71,82,83,110,119,120,144,184,185,192");
  optimize->add_option("--input", opt->input, "the isomers of a planar_code file (duals or cubic graphs)");
  optimize->add_flag("--ipr", opt->ipr, "with N: isolated-pentagon isomers only");
  optimize->add_option("--out,-o", opt->out, "optimised geometries: FILE.xyz, FILE.mol2 or FILE.json");
  add_threads(optimize);

  const auto add_line_search = [&](CLI::App* sub) {
    sub->add_option("--line-search", opt->line_search,
                    "the optimiser's line search: wolfe (default; energies and slopes) or golden (the Fullerene "
                    "program's 20-step golden-section search)")
        ->check(CLI::IsMember({"wolfe", "golden"}));
  };
  add_line_search(optimize);

  auto* space = cmd->add_subcommand("isomerspace", "Optimise a whole isomer space or a random sample of it");
  space->add_option("N", opt->atoms, "number of carbon atoms")->required();
  space->add_flag("--ipr", opt->ipr, "isolated-pentagon isomers only");
  auto* sample = space->add_option("--sample", opt->sample, "a uniformly random sample of K isomers")
                     ->check(CLI::PositiveNumber);
  space->add_option("--seed", opt->seed, "seed of the sample (default: 42)")->needs(sample);
  space->add_option("--limit", opt->limit, "only the first K isomers in generator order (the space is not counted)")
      ->check(CLI::PositiveNumber)
      ->excludes(sample);
  space->add_option("--skip", opt->skip,
                    "leave out the first K isomers in generator order (walked past, not optimised); with --limit L, "
                    "the isomers K to K+L-1")
      ->excludes(sample);
  space->add_option("--out,-o", opt->out, "output folder")->required();
  add_threads(space);
  add_line_search(space);
  space->add_option("--device", opt->device, "cpu (default) or cuda: the lockstep GPU pipeline (one GPU per MPI rank)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  space->add_flag("--single", opt->gpu.single, "with --device cuda: float arithmetic in the optimiser");
  space->add_option("--gpu-slots", opt->gpu.slots, "with --device cuda: isomers in the GPU batch (default: four waves of optimiser blocks)")
      ->check(CLI::PositiveNumber);
  space->add_option("--chunk", opt->gpu.chunk, "with --device cuda: CG iterations between refills (default: N)")
      ->check(CLI::PositiveNumber);

  return [opt, count, generate, optimize, space]() -> int {
    try {
      if (count->parsed()) return run_count(*opt);
      if (generate->parsed()) return run_generate(*opt);
      if (optimize->parsed()) return run_optimize(*opt);
      if (space->parsed()) return run_isomerspace(*opt);
      return 1;
    } catch (const Error& e) {
      std::cerr << "error: " << e.what() << '\n';
      if (analysis::world_partition().distributed()) analysis::abort_all(1);
      return 1;
    }
  };
}

}  // namespace molstep::app
