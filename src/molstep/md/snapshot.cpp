// SPDX-License-Identifier: MIT
#include "molstep/md/snapshot.hpp"

#include <fmt/format.h>

#include "molstep/core/error.hpp"

namespace molstep::md {

std::vector<std::size_t> id_order(const System& system) {
  const auto& a = system.atoms;
  std::vector<std::size_t> order(a.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto id = a.id[i];
    if (id < 1 || static_cast<std::size_t>(id) > a.size() || order[static_cast<std::size_t>(id - 1)] != a.size()) {
      throw Error(fmt::format("atom ids must be 1..{} without gaps to write trajectories or analyze in situ "
                              "(found id {})",
                              a.size(), id));
    }
    order[static_cast<std::size_t>(id - 1)] = i;
  }
  return order;
}

core::Frame snapshot_meta(const System& system, long step, double dt) {
  core::Frame f;
  f.step = step;
  const double t = static_cast<double>(step) * dt;
  f.time = system.units.name == "real" ? t * 1e-3 : t;  // fs -> ps; metal is in ps already
  for (int d = 0; d < 3; ++d) f.box[d][d] = system.box.length(d);
  return f;
}

core::Frame snapshot(const System& system, long step, double dt, bool velocities) {
  auto f = snapshot_meta(system, step, dt);
  const auto order = id_order(system);
  const auto& a = system.atoms;
  f.resize(order.size());
  if (velocities) f.resize_velocities(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto i = order[k];
    f.x[k] = a.x[i];
    f.y[k] = a.y[i];
    f.z[k] = a.z[i];
    if (velocities) {
      f.vx[k] = a.vx[i];
      f.vy[k] = a.vy[i];
      f.vz[k] = a.vz[i];
    }
  }
  return f;
}

core::Topology topology_of(const System& system) {
  const auto order = id_order(system);
  core::Topology t;
  t.type.resize(order.size());
  t.mass.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    t.type[k] = system.atoms.type[order[k]];
    t.mass[k] = system.mass_of(order[k]);
  }
  return t;
}

}  // namespace molstep::md
