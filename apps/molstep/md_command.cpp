// SPDX-License-Identifier: MIT
#include <omp.h>

#include <iostream>
#include <memory>
#include <optional>

#include "molstep/core/error.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "molstep/md/script/interpreter.hpp"
#include "molstep/md/simulation.hpp"
#include "subcommands.hpp"

namespace molstep::app {

namespace {

struct MdOptions {
  std::string deck;
  std::vector<std::string> vars;
  int threads = 0;
  std::string log = "log.molstep";
  std::string thermo;
  std::string device = "auto";
  std::string precision = "double";
  bool quiet = false;
};

// "--var NAME V1 V2 ..." arrives as one flat list; names are the words that follow "--var".
std::vector<std::pair<std::string, std::vector<std::string>>> group_vars(const std::vector<std::string>& flat,
                                                                         const std::vector<std::size_t>& starts) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t b = starts[k], e = k + 1 < starts.size() ? starts[k + 1] : flat.size();
    out.push_back({flat[b], std::vector<std::string>(flat.begin() + static_cast<long>(b) + 1,
                                                     flat.begin() + static_cast<long>(e))});
  }
  return out;
}

}  // namespace

std::function<int()> add_md_command(CLI::App& app) {
  auto opt = std::make_shared<MdOptions>();
  auto starts = std::make_shared<std::vector<std::size_t>>();
  auto* md = app.add_subcommand("md", "Run a LAMMPS-style input deck");
  md->add_option("deck", opt->deck, "input deck")->required()->check(CLI::ExistingFile);
  md->add_option_function<std::vector<std::string>>(
         "--var",
         [opt, starts](const std::vector<std::string>& v) {
           if (v.size() < 2) throw CLI::ValidationError("--var", "needs a NAME and at least one VALUE");
           starts->push_back(opt->vars.size());
           opt->vars.insert(opt->vars.end(), v.begin(), v.end());
         },
         "define index variable NAME with VALUE(s) (-var works too)")
      ->allow_extra_args()
      ->expected(2, -1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->trigger_on_parse();
  md->add_option("--threads", opt->threads, "OpenMP threads (default: all cores)")->check(CLI::PositiveNumber);
  md->add_option("--device", opt->device, "cpu or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  md->add_option("--precision", opt->precision, "double, or mixed (single-precision pair terms; GPU only)")
      ->check(CLI::IsMember({"double", "mixed"}));
  md->add_option("--log", opt->log, "log file, or 'none' (default: log.molstep)");
  md->add_option("--thermo", opt->thermo, "JSON-lines copy of thermo output (default: LOG.thermo.jsonl)");
  md->add_flag("--quiet", opt->quiet, "do not echo to the screen");
  return [opt, starts]() -> int {
    if (opt->threads > 0) omp_set_num_threads(opt->threads);
    std::unique_ptr<md::Output> out;
    try {
      std::optional<std::filesystem::path> log, thermo;
      if (opt->log != "none") log = opt->log;
      if (!opt->thermo.empty()) thermo = opt->thermo;
      else if (log) thermo = opt->log + ".thermo.jsonl";
      out = std::make_unique<md::Output>(opt->quiet ? nullptr : &std::cout, log, thermo);
      md::Simulation sim(*out);
      const bool gpu = opt->device == "cuda" || (opt->device == "auto" && md::cuda::device_count() > 0);
      if (gpu) {
        if (md::cuda::device_count() == 0)
          throw Error("--device cuda: no CUDA device is available (or molstep was built without CUDA)");
        sim.device = md::Device::cuda;
        out->line("Device: " + md::cuda::device_summary());
      }
      if (opt->precision == "mixed") sim.precision = md::Precision::mixed;
      md::script::Interpreter interp(sim, *out);
      for (const auto& [name, values] : group_vars(opt->vars, *starts)) interp.vars.define_index(name, values);
      interp.run_file(opt->deck);
      sim.finish();
      return 0;
    } catch (const Error& e) {
      std::cerr << "error: " << e.what() << '\n';
      if (out) out->log_only(std::string("error: ") + e.what());
      return 1;
    }
  };
}

}  // namespace molstep::app
