// SPDX-License-Identifier: MIT
// Prints the irreducible IPR fullerenes of C_first..C_last (every other N even), one canonical
// face spiral per line with its N, found exhaustively: every IPR isomer of the whole search, tested
// against every one of its reductions. This is how src/molstep/fullerene/ipr_roots.cpp was made:
//   molstep_irreducible_ipr 60 140 16
// (the third argument: threads, one N each; C140 alone takes about 8 minutes on one core).
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/ipr_roots.hpp"
#include "molstep/fullerene/spiral.hpp"

namespace fl = molstep::fullerene;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FIRST_N LAST_N [THREADS]\n", argv[0]);
    return 2;
  }
  const int first = std::atoi(argv[1]);
  const int last = std::atoi(argv[2]);
  const int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  std::vector<int> sizes;
  for (int n = first + first % 2; n <= last; n += 2)
    if (n != 22 && n >= 20) sizes.push_back(n);
  std::vector<std::vector<std::string>> found(sizes.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    fl::GeneratorOptions options{sizes[i], true, 0, 1};
    options.ipr_whole_search = true;
    fl::Generator(options).run([&](const fl::PlanarMap& g) {
      if (!fl::reduces_to_smaller_ipr(g))
        found[i].push_back(fl::format_spiral(fl::canonical_general_spiral(fl::as_triangulation(g))));
    });
  }
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (const std::string& spiral : found[i]) std::printf("%s\n", spiral.c_str());
  return 0;
}
