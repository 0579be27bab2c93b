// SPDX-License-Identifier: MIT
// Spatial distance histogram throughput: every pair of N uniform random atoms (the seed's mock
// data), on the CPU and/or the GPU backend of the analysis engine. Prints one JSON line per
// measurement and checks that every histogram holds exactly N(N-1)/2 pairs and that CPU and GPU
// histograms are identical where both ran.
//
//   molstep_bench_sdh [--device cpu|cuda|both] [--bins B] [--pbc yes|no] [--repeat R] N...
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "molstep/analysis/backend.hpp"
#include "molstep/core/error.hpp"

using namespace molstep;
using namespace molstep::analysis;

namespace {

struct Measurement {
  std::vector<std::uint64_t> counts;
  double seconds = 0;
};

Measurement measure(Backend& backend, const core::Frame& frame, int repeat) {
  backend.submit(frame);  // warm-up: allocation, first launch
  backend.collect();
  const auto before = backend.pair_totals();
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r) {
    backend.submit(frame);
    backend.collect();
  }
  auto after = backend.pair_totals();  // waits for the device
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / repeat;
  for (std::size_t k = 0; k < after[0].size(); ++k) after[0][k] = (after[0][k] - before[0][k]) / static_cast<std::uint64_t>(repeat);
  return {after[0], s};
}

}  // namespace

int main(int argc, char** argv) {
  std::string device = "both";
  int bins = 256;
  bool pbc = false;
  int repeat = 1;
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) device = argv[++i];
    else if (a == "--bins" && i + 1 < argc) bins = std::atoi(argv[++i]);
    else if (a == "--pbc" && i + 1 < argc) pbc = std::string(argv[++i]) == "yes";
    else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else sizes.push_back(std::stoul(a));
  }
  if (sizes.empty()) {
    std::cerr << "usage: molstep_bench_sdh [--device cpu|cuda|both] [--bins B] [--pbc yes|no] [--repeat R] N...\n";
    return 2;
  }
  try {
    for (const auto n : sizes) {
      // Uniform atoms in a cube of the density of liquid water (0.1 per A^3).
      const double box = std::cbrt(static_cast<double>(n) / 0.1);
      core::Frame frame;
      frame.resize(n);
      std::mt19937_64 rng(n);
      std::uniform_real_distribution<double> u(0.0, box);
      for (std::size_t i = 0; i < n; ++i) {
        frame.x[i] = u(rng);
        frame.y[i] = u(rng);
        frame.z[i] = u(rng);
      }
      frame.box = {{{box, 0, 0}, {0, box, 0}, {0, 0, box}}};
      SelectionSet sel(core::Topology{}, n);
      Requests requests;
      const int all = sel.resolve("all");
      const double rmax = (pbc ? 0.5 : 1.0) * box * std::sqrt(3.0) * (1 + 1e-9);
      requests.pairs(PairSpec{all, all, rmax, bins, pbc});
      const Plan plan(sel, requests, std::vector<double>(n, 1.0), std::vector<double>(n, 0.0));
      const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
      std::vector<std::uint64_t> reference;
      for (const std::string dev : {"cpu", "cuda"}) {
        if (device != "both" && device != dev) continue;
        auto backend = dev == "cpu" ? make_cpu_backend(plan) : make_cuda_backend(plan);
        const auto m = measure(*backend, frame, dev == "cpu" ? 1 : repeat);
        std::uint64_t total = 0;
        for (const auto c : m.counts) total += c;
        const bool exact = total == static_cast<std::uint64_t>(pairs);
        const bool same = reference.empty() || reference == m.counts;
        if (reference.empty()) reference = m.counts;
        std::cout << fmt::format(
                         "{{\"device\": \"{}\", \"atoms\": {}, \"bins\": {}, \"pbc\": {}, \"seconds\": {:.6g}, "
                         "\"pairs_per_second\": {:.4g}, \"total_exact\": {}, \"matches_first_device\": {}}}",
                         dev, n, bins, pbc, m.seconds, pairs / m.seconds, exact, same)
                  << std::endl;
        if (!exact || !same) return 1;
      }
    }
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
