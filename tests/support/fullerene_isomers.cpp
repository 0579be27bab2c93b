// SPDX-License-Identifier: MIT
#include "support/fullerene_isomers.hpp"

#include "molstep/fullerene/generator.hpp"

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

}  // namespace molstep::test
