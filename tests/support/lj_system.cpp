// SPDX-License-Identifier: MIT
#include "support/lj_system.hpp"

#include "molstep/core/counter_rng.hpp"
#include "molstep/md/lattice.hpp"

namespace molstep::test {

md::System disordered_lj_system(int cells, double jitter) {
  md::System s;
  s.units = core::unit_system("lj");
  const auto lat = md::make_lattice("fcc", 0.8442, s.units);
  core::Box box;
  box.hi = {cells * lat.constant, cells * lat.constant, cells * lat.constant};
  s.define_box(box, 2);
  s.mass = {0.0, 1.0, 2.0};
  s.mass_set = {false, true, true};
  md::create_atoms_on_lattice(lat, box, 1, s.atoms);
  const core::CounterRng rng(2024);
  for (std::size_t i = 0; i < s.atoms.size(); ++i) {
    const auto id = static_cast<std::uint64_t>(s.atoms.id[i]);
    s.atoms.x[i] += jitter * (2.0 * rng.uniform(id, 0, 0) - 1.0);
    s.atoms.y[i] += jitter * (2.0 * rng.uniform(id, 0, 1) - 1.0);
    s.atoms.z[i] += jitter * (2.0 * rng.uniform(id, 0, 2) - 1.0);
    s.atoms.vx[i] = rng.uniform(id, 1, 0) - 0.5;
    s.atoms.vy[i] = rng.uniform(id, 1, 1) - 0.5;
    s.atoms.vz[i] = rng.uniform(id, 1, 2) - 0.5;
    if (i % 3 == 2) s.atoms.type[i] = 2;
  }
  return s;
}

md::potentials::PairLjCut two_type_lj(bool shift) {
  md::potentials::PairLjCut pair;
  const SourceLoc loc{"test", 1};
  pair.settings(core::ArgReader("pair_style", {"2.5"}, loc));
  pair.coeff(core::ArgReader("pair_coeff", {"1", "1", "1.0", "1.0"}, loc), 2);
  pair.coeff(core::ArgReader("pair_coeff", {"2", "2", "0.5", "1.2", "2.2"}, loc), 2);
  md::potentials::PairModify mod;
  mod.shift = shift;
  pair.init(2, mod);
  return pair;
}

md::potentials::EnergyVirial compute_pair(md::System& system, md::potentials::PairStyle& pair,
                                          md::neighbor::Neighbor& neighbor) {
  neighbor.rebuild(system, pair.cutoff());
  auto& f = neighbor.clear_forces();
  const auto ev = pair.compute({neighbor.list(), neighbor.packed(), neighbor.ghost_map()}, f, true);
  neighbor.store_forces(system);
  return ev;
}

std::size_t index_of(const md::System& system, std::int64_t id) {
  for (std::size_t i = 0; i < system.atoms.size(); ++i)
    if (system.atoms.id[i] == id) return i;
  return system.atoms.size();
}

}  // namespace molstep::test
