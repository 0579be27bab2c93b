// SPDX-License-Identifier: MIT
#include "molstep/md/lattice.hpp"

#include <cmath>

#include "molstep/core/error.hpp"

namespace molstep::md {

Lattice make_lattice(const std::string& style, double scale, const core::UnitSystem& units) {
  Lattice lat;
  lat.style = style;
  if (style == "sc") {
    lat.basis = {{0.0, 0.0, 0.0}};
  } else if (style == "bcc") {
    lat.basis = {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.5}};
  } else if (style == "fcc") {
    lat.basis = {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 0.0, 0.5}, {0.0, 0.5, 0.5}};
  } else {
    throw Error("unknown lattice style '" + style + "' (known: sc, bcc, fcc)");
  }
  if (!(scale > 0.0)) throw Error("lattice scale must be positive, got " + std::to_string(scale));
  // Same expression as LAMMPS (volume of the unit primitive cell is 1, dimension 3).
  const double nbasis = static_cast<double>(lat.basis.size());
  lat.constant = units.lj_lattice ? std::pow(nbasis / 1.0 / scale, 1.0 / 3.0) : scale;
  return lat;
}

std::size_t create_atoms_on_lattice(const Lattice& lattice, const core::Box& box, int type, core::Atoms& atoms) {
  const double a = lattice.constant;
  // LAMMPS accepts a site up to 1e-6 of a box length below the lower face and rejects one within
  // 2e-6 below the upper face, so a site on a periodic face is created exactly once.
  std::array<double, 3> lo{}, hi{};
  std::array<long, 3> first{}, last{};
  for (int d = 0; d < 3; ++d) {
    const double eps = box.length(d) * 1e-6;
    lo[d] = box.lo[d] - eps;
    hi[d] = box.hi[d] - 2.0 * eps;
    first[d] = static_cast<long>(std::floor(box.lo[d] / a)) - 1;
    last[d] = static_cast<long>(std::ceil(box.hi[d] / a)) + 1;
  }
  std::int64_t next_id = atoms.max_id() + 1;
  std::size_t created = 0;
  for (long k = first[2]; k <= last[2]; ++k)
    for (long j = first[1]; j <= last[1]; ++j)
      for (long i = first[0]; i <= last[0]; ++i)
        for (const auto& b : lattice.basis) {
          const double x = (static_cast<double>(i) + b[0]) * a;
          const double y = (static_cast<double>(j) + b[1]) * a;
          const double z = (static_cast<double>(k) + b[2]) * a;
          if (x < lo[0] || x >= hi[0] || y < lo[1] || y >= hi[1] || z < lo[2] || z >= hi[2]) continue;
          atoms.add(next_id++, type, x, y, z);
          ++created;
        }
  return created;
}

}  // namespace molstep::md
