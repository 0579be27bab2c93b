// SPDX-License-Identifier: MIT
#include "support/fullerene_isomers.hpp"

#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/generator.hpp"
#include "molstep/fullerene/spiral.hpp"

namespace molstep::test {

std::vector<fullerene::Triangulation> every_nth_isomer(int atoms, std::size_t limit, std::size_t stride) {
  struct Enough {};  // the generator has no stop: leave its walk by unwinding
  std::vector<fullerene::Triangulation> duals;
  std::size_t seen = 0;
  fullerene::Generator generator(fullerene::GeneratorOptions{atoms, false, 0, 1});
  try {
    generator.run([&](const fullerene::PlanarMap& m) {
      if (seen++ % stride == 0) duals.push_back(fullerene::as_triangulation(m));
      if (seen == limit) throw Enough{};
    });
  } catch (const Enough&) {
  }
  return duals;
}

std::vector<fullerene::Triangulation> first_isomers(int atoms, std::size_t limit) {
  return every_nth_isomer(atoms, limit, 1);
}

fullerene::CubicGraph from_spiral(int atoms, const std::array<int, 12>& pentagons) {
  return fullerene::dualize(fullerene::triangulation_from_spiral(atoms, pentagons));
}

fullerene::CubicGraph c20() { return from_spiral(20, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }
fullerene::CubicGraph c60() { return from_spiral(60, {1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32}); }

}  // namespace molstep::test
