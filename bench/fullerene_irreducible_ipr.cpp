// SPDX-License-Identifier: MIT
// Prints the irreducible IPR fullerenes of C_first..C_last (every even N), one canonical face
// spiral per line, found exhaustively: every IPR isomer of the whole search, tested against every
// one of its reductions. This is how src/molstep/fullerene/ipr_roots.cpp was made:
//   molstep_irreducible_ipr 60 140 2     (then 142 150 16 16, 152 156 16 16, 158 160 16 16)
// Arguments: FIRST_N LAST_N [THREADS [PARTS]]. With PARTS, each N is searched in that many parts
// (Generator --part), and the threads take (N, part) pairs; a pair's spirals are printed as soon
// as it ends (so lines of different N may interleave: sort them), with its time on stderr.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ipr_roots.hpp"
#include "molstep/fullerene/spiral.hpp"

namespace fl = molstep::fullerene;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FIRST_N LAST_N [THREADS [PARTS]]\n", argv[0]);
    return 2;
  }
  const int first = std::atoi(argv[1]);
  const int last = std::atoi(argv[2]);
  const int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  const int parts = argc > 4 ? std::atoi(argv[4]) : 1;
  std::vector<std::pair<int, int>> tasks;
  for (int n = last - last % 2; n >= std::max(first, 20); n -= 2)  // largest first: they take longest
    if (n != 22)
      for (int part = 0; part < parts; ++part) tasks.emplace_back(n, part);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto [n, part] = tasks[i];
    const auto start = std::chrono::steady_clock::now();
    fl::GeneratorOptions options{n, true, part, parts};
    options.ipr_whole_search = true;
    std::vector<std::string> found;
    std::uint64_t isomers = 0;
    fl::Generator(options).run([&](const fl::PlanarMap& g) {
      ++isomers;
      if (!fl::reduces_to_smaller_ipr(g))
        found.push_back(fl::format_spiral(fl::canonical_general_spiral(fl::as_triangulation(g))));
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
#pragma omp critical
    {
      for (const std::string& spiral : found) std::printf("%s\n", spiral.c_str());
      std::fflush(stdout);
      std::fprintf(stderr, "C%d part %d/%d: %llu IPR isomers, %zu irreducible, %.1f s\n", n, part + 1, parts,
                   static_cast<unsigned long long>(isomers), found.size(), seconds);
    }
  }
  return 0;
}
