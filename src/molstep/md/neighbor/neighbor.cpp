// SPDX-License-Identifier: MIT
#include "molstep/core/parallel.hpp"
#include "molstep/md/neighbor/neighbor.hpp"

#include <algorithm>

#include "molstep/core/error.hpp"

namespace molstep::md::neighbor {

void Neighbor::wrap(System& s) const {
  auto& a = s.atoms;
  const auto& box = s.box;
  const auto wrap1 = [](double& x, int& image, double lo, double hi) {
    const double L = hi - lo;
    if (x < lo) {
      x += L;
      --image;
    }
    if (x >= hi) {
      x -= L;
      x = std::max(x, lo);
      ++image;
    }
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    wrap1(a.x[i], a.ix[i], box.lo[0], box.hi[0]);
    wrap1(a.y[i], a.iy[i], box.lo[1], box.hi[1]);
    wrap1(a.z[i], a.iz[i], box.lo[2], box.hi[2]);
    if (!box.contains(a.x[i], a.y[i], a.z[i]))
      throw Error("atom " + std::to_string(a.id[i]) +
                  " moved more than a box length between neighbour list builds (the system is unstable: "
                  "check the timestep, the initial overlaps and the neigh_modify settings)");
  }
}

void Neighbor::sort_by_cell(System& s) const {
  auto& a = s.atoms;
  const std::size_t n = a.size();
  std::vector<int> cell(n);
  std::vector<std::size_t> start(static_cast<std::size_t>(grid_.ncells()) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    cell[i] = grid_.cell(a.x[i], a.y[i], a.z[i]);
    ++start[static_cast<std::size_t>(cell[i]) + 1];
  }
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[start[cell[i]]++] = i;
  a.permute(order);
}

void Neighbor::rebuild(System& s, double cutoff) {
  const double rl = cutoff + settings.skin;
  for (int d = 0; d < 3; ++d)
    if (2.0 * rl > s.box.length(d))
      throw Error("pair cutoff plus skin (" + std::to_string(rl) + ") is more than half the box length in " +
                  std::string(1, "xyz"[d]) + " (box length " + std::to_string(s.box.length(d)) +
                  "); molstep needs a box at least twice the neighbour cutoff");
  wrap(s);
  grid_ = CellGrid(s.box, rl);
  sort_by_cell(s);
  const auto& a = s.atoms;
  const std::size_t n = a.size();
  packed_.resize(n);
  for (std::size_t i = 0; i < n; ++i) packed_[i] = PackedAtom{a.x[i], a.y[i], a.z[i], a.type[i], 0};
  ghosts_.build(packed_, n, s.box, rl);
  build_neighbor_list(packed_, n, grid_, rl, settings.full, settings.newton, list_);
  xhold_ = a.x;
  yhold_ = a.y;
  zhold_ = a.z;
  ago_ = 0;
  ++builds_;
}

bool Neighbor::due(const System& s) {
  ++ago_;
  if (ago_ < settings.delay || ago_ % settings.every != 0) return false;
  if (!settings.check) return true;
  const auto& a = s.atoms;
  const double trigger = 0.25 * settings.skin * settings.skin;
  bool moved = false;
#pragma omp parallel for reduction(|| : moved) schedule(static) if (a.size() >= core::kParallelMinAtoms)
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double dx = a.x[i] - xhold_[i], dy = a.y[i] - yhold_[i], dz = a.z[i] - zhold_[i];
    if (dx * dx + dy * dy + dz * dz > trigger) moved = true;
  }
  return moved;
}

void Neighbor::refresh(const System& s) {
  const auto& a = s.atoms;
  const std::size_t n = a.size();
#pragma omp parallel for schedule(static) if (n >= core::kParallelMinAtoms)
  for (std::size_t i = 0; i < n; ++i) {
    packed_[i].x = a.x[i];
    packed_[i].y = a.y[i];
    packed_[i].z = a.z[i];
  }
  ghosts_.update(packed_, n);
}

std::vector<PackedForce>& Neighbor::clear_forces() {
  forces_.assign(packed_.size(), PackedForce{0.0, 0.0, 0.0, 0.0});
  return forces_;
}

void Neighbor::store_forces(System& s) {
  auto& a = s.atoms;
  const std::size_t n = a.size();
  if (settings.newton && !settings.full) ghosts_.fold(forces_, n);
  a.fx.resize(n);
  a.fy.resize(n);
  a.fz.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    a.fx[i] = forces_[i].x;
    a.fy[i] = forces_[i].y;
    a.fz[i] = forces_[i].z;
  }
}

}  // namespace molstep::md::neighbor
