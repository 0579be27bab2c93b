// SPDX-License-Identifier: MIT
#include "molstep/fullerene/forcefield.hpp"

#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/lockstep_sum.hpp"

namespace molstep::fullerene {
namespace {

using Vec = std::array<double, 3>;

wirz::V3 v3(const Vec& a) { return {a[0], a[1], a[2]}; }

wirz::Plane face_plane(const Face& f, std::span<const Vec> x) {
  wirz::V3 pts[6];
  for (int i = 0; i < f.size; ++i) pts[i] = v3(x[f.atoms[i]]);
  return wirz::face_plane(pts, f.size);
}

}  // namespace

ForceField::ForceField(const CubicGraph& g, const ForceFieldOptions& options) : options_(options) {
  validate(g);
  const int n = g.size();
  atoms_.resize(n);
  for (const std::vector<int>& walk : fullerene::faces(g)) {
    const int id = static_cast<int>(faces_.size());
    Face& f = faces_.emplace_back();
    f.size = static_cast<int>(walk.size());
    for (int i = 0; i < f.size; ++i) {
      const int u = walk[i], v = walk[(i + 1) % f.size];
      f.atoms[i] = u;
      atoms_[u].face[g.arc_index(u, v)] = id;
    }
  }
  for (int a = 0; a < n; ++a) {
    AtomTerms& t = atoms_[a];
    std::array<int, 3> hex{};
    for (int k = 0; k < 3; ++k) hex[k] = faces_[t.face[k]].size - 5;
    for (int k = 0; k < 3; ++k) {
      t.nbr[k] = g.adj[a][k];
      t.back[k] = g.arc_index(t.nbr[k], a);
      t.arc[k] = wirz::arc_params(hex[k], hex[(k + 1) % 3], hex[(k + 2) % 3]);
    }
  }
}

void ForceField::gather(int a, std::span<const Vec> x, wirz::V3 e[3], wirz::ArcParams p[3]) const {
  const AtomTerms& t = atoms_[a];
  for (int k = 0; k < 3; ++k) {
    e[k] = v3(x[t.nbr[k]]) - v3(x[a]);
    p[k] = t.arc[k];
  }
}

std::array<ArcGeometry, 3> ForceField::atom_geometry(int a, std::span<const Vec> x) const {
  wirz::V3 e[3];
  wirz::ArcParams p[3];
  gather(a, x, e, p);
  return {wirz::arc_geometry(e, 0), wirz::arc_geometry(e, 1), wirz::arc_geometry(e, 2)};
}

double ForceField::energy(std::span<const Vec> x) const {
  // Atom a's terms, plus face a's flatness term, summed as the GPU does (lockstep_sum.hpp).
  std::vector<double> e(atoms_.size());
  wirz::V3 bonds[3];
  wirz::ArcParams p[3];
  for (int a = 0; a < size(); ++a) {
    gather(a, x, bonds, p);
    e[a] = wirz::atom_energy(bonds, p);
  }
  if (options_.flatness)
    for (std::size_t f = 0; f < faces_.size(); ++f)
      e[f] += 0.5 * wirz::constants().flatness_force * face_plane(faces_[f], x).lambda;
  return lockstep_sum(e);
}

double ForceField::energy_and_gradient(std::span<const Vec> x, std::span<Vec> gradient) const {
  std::vector<std::array<wirz::V3, 3>> local(atoms_.size());
  std::vector<double> e(atoms_.size());
  wirz::V3 bonds[3];
  wirz::ArcParams p[3];
  for (int a = 0; a < size(); ++a) {
    gather(a, x, bonds, p);
    e[a] = wirz::atom_local_gradient(bonds, p, local[a].data());
  }
  // x[a] enters a's bond vectors with a minus sign and neighbour b's bond vector to a with a plus.
  for (int a = 0; a < size(); ++a) {
    const AtomTerms& t = atoms_[a];
    wirz::V3 g = -1.0 * (local[a][0] + local[a][1] + local[a][2]);
    for (int k = 0; k < 3; ++k) g += local[t.nbr[k]][t.back[k]];
    gradient[a] = {g.x, g.y, g.z};
  }
  if (options_.flatness) {
    std::vector<wirz::Plane> planes(faces_.size());
    for (std::size_t f = 0; f < faces_.size(); ++f) {
      planes[f] = face_plane(faces_[f], x);
      e[f] += 0.5 * wirz::constants().flatness_force * planes[f].lambda;
    }
    for (int a = 0; a < size(); ++a)
      for (const int f : atoms_[a].face) {
        const wirz::V3 g = wirz::flatness_gradient(v3(x[a]), planes[f]);
        gradient[a][0] += g.x;
        gradient[a][1] += g.y;
        gradient[a][2] += g.z;
      }
  }
  return lockstep_sum(e);
}

}  // namespace molstep::fullerene
