// SPDX-License-Identifier: MIT
#include "molstep/fullerene/forcefield.hpp"

#include <cmath>

#include "molstep/fullerene/dual.hpp"

namespace molstep::fullerene {
namespace {

using Vec = std::array<double, 3>;

Vec operator+(const Vec& a, const Vec& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec operator-(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec operator*(double s, const Vec& a) { return {s * a[0], s * a[1], s * a[2]}; }
Vec& operator+=(Vec& a, const Vec& b) {
  a = a + b;
  return a;
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Vec& a) { return std::sqrt(dot(a, a)); }

/// Centroid, unit normal and smallest eigenvalue of a face's covariance sum (x - c)(x - c)^T.
struct Plane {
  Vec centroid;
  Vec normal;
  double lambda;
};

/// Smallest eigenpair of a symmetric 3x3 matrix by cyclic Jacobi rotations: robust for the
/// (near-)degenerate in-plane pair of a regular face, and accurate for a tiny lambda_0.
void smallest_eigenpair(std::array<std::array<double, 3>, 3> m, double& lambda, Vec& vector) {
  std::array<std::array<double, 3>, 3> v{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  for (int sweep = 0; sweep < 16; ++sweep) {
    const double off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
    const double diag = m[0][0] * m[0][0] + m[1][1] * m[1][1] + m[2][2] * m[2][2];
    if (off <= 1e-32 * diag) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (m[p][q] == 0.0) continue;
        const double theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) {  // m <- m J (columns p, q)
          const double mkp = m[k][p], mkq = m[k][q];
          m[k][p] = c * mkp - s * mkq;
          m[k][q] = s * mkp + c * mkq;
        }
        for (int k = 0; k < 3; ++k) {  // m <- J^T m (rows p, q)
          const double mpk = m[p][k], mqk = m[q][k];
          m[p][k] = c * mpk - s * mqk;
          m[q][k] = s * mpk + c * mqk;
        }
        for (int k = 0; k < 3; ++k) {  // eigenvectors are the columns of v
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
  }
  int best = 0;
  for (int k = 1; k < 3; ++k)
    if (m[k][k] < m[best][best]) best = k;
  lambda = m[best][best];
  vector = {v[0][best], v[1][best], v[2][best]};
}

Plane face_plane(const Face& f, std::span<const Vec> x) {
  Vec c{0, 0, 0};
  for (int i = 0; i < f.size; ++i) c += x[f.atoms[i]];
  c = (1.0 / f.size) * c;
  std::array<std::array<double, 3>, 3> m{};
  for (int i = 0; i < f.size; ++i) {
    const Vec r = x[f.atoms[i]] - c;
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) m[p][q] += r[p] * r[q];
  }
  Plane plane{c, {0, 0, 0}, 0};
  smallest_eigenpair(m, plane.lambda, plane.normal);
  return plane;
}

double harmonic(double k, double value, double value0) { return 0.5 * k * (value - value0) * (value - value0); }

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
      const int f1 = hex[k], f2 = hex[(k + 1) % 3], f3 = hex[(k + 2) % 3];
      t.nbr[k] = g.adj[a][k];
      t.back[k] = g.arc_index(t.nbr[k], a);
      t.r0[k] = kBondLength[f1 + f3];
      t.k_bond[k] = kBondForce[f1 + f3];
      t.cos_angle0[k] = kCornerCos[f1];
      t.k_angle[k] = kCornerForce[f1];
      t.cos_dihedral0[k] = kDihedralCos[4 * f1 + 2 * f2 + f3];
      t.k_dihedral[k] = kDihedralForce[f1 + f2 + f3];
    }
  }
}

std::array<ArcGeometry, 3> ForceField::atom_geometry(int a, std::span<const Vec> x) const {
  const AtomTerms& t = atoms_[a];
  std::array<Vec, 3> e;  // a -> neighbour k
  std::array<double, 3> r;
  for (int k = 0; k < 3; ++k) {
    e[k] = x[t.nbr[k]] - x[a];
    r[k] = norm(e[k]);
  }
  std::array<ArcGeometry, 3> arcs;
  for (int k = 0; k < 3; ++k) {
    const Vec& eb = e[k];
    const Vec& ec = e[(k + 1) % 3];
    const Vec& ed = e[(k + 2) % 3];
    // Plane normals along (a - b) x (c - b) = ec x eb and (b - c) x (d - c).
    const Vec n_abc = cross(ec, eb), n_bcd = cross(eb - ec, ed - ec);
    arcs[k] = {r[k], dot(eb, ec) / (r[k] * r[(k + 1) % 3]),
               dot(n_abc, n_bcd) / std::sqrt(dot(n_abc, n_abc) * dot(n_bcd, n_bcd))};
  }
  return arcs;
}

double ForceField::atom_energy(int a, std::span<const Vec> x) const {
  const AtomTerms& t = atoms_[a];
  const std::array<ArcGeometry, 3> arcs = atom_geometry(a, x);
  double e = 0;
  for (int k = 0; k < 3; ++k) {
    // Each bond is seen from both of its atoms: half the bond energy per arc.
    e += 0.5 * harmonic(t.k_bond[k], arcs[k].bond, t.r0[k]);
    e += harmonic(t.k_angle[k], arcs[k].cos_angle, t.cos_angle0[k]);
    e += harmonic(t.k_dihedral[k], arcs[k].cos_dihedral, t.cos_dihedral0[k]);
  }
  return e;
}

double ForceField::atom_local_gradient(int a, std::span<const Vec> x, std::array<Vec, 3>& local) const {
  const AtomTerms& t = atoms_[a];
  std::array<Vec, 3> e, u;  // bond vectors a -> nbr[k] and their unit vectors
  std::array<double, 3> r;
  for (int k = 0; k < 3; ++k) {
    e[k] = x[t.nbr[k]] - x[a];
    r[k] = norm(e[k]);
    u[k] = (1.0 / r[k]) * e[k];
    local[k] = {0, 0, 0};
  }
  double energy = 0;
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const Vec& eb = e[k];
    const Vec& ec = e[k1];
    const Vec& ed = e[k2];

    energy += 0.5 * harmonic(t.k_bond[k], r[k], t.r0[k]);
    local[k] += (0.5 * t.k_bond[k] * (r[k] - t.r0[k])) * u[k];

    // cos = u_b . u_c; d cos / d e_b = (u_c - cos u_b) / r_b, and likewise for c.
    const double cs = dot(u[k], u[k1]);
    energy += harmonic(t.k_angle[k], cs, t.cos_angle0[k]);
    const double fa = t.k_angle[k] * (cs - t.cos_angle0[k]);
    local[k] += (fa / r[k]) * (u[k1] - cs * u[k]);
    local[k1] += (fa / r[k1]) * (u[k] - cs * u[k1]);

    // cos beta = A^ . B^ with A = e_c x e_b and B = s x t, s = e_b - e_c, t = e_d - e_c.
    // d cos / dA = (B^ - cos A^) / |A|, likewise for B; then through the cross products.
    const Vec s = eb - ec, tt = ed - ec;
    const Vec av = cross(ec, eb), bv = cross(s, tt);
    const double inv_a = 1.0 / norm(av), inv_b = 1.0 / norm(bv);
    const Vec ah = inv_a * av, bh = inv_b * bv;
    const double cb = dot(ah, bh);
    energy += harmonic(t.k_dihedral[k], cb, t.cos_dihedral0[k]);
    const double fd = t.k_dihedral[k] * (cb - t.cos_dihedral0[k]);
    const Vec ga = (fd * inv_a) * (bh - cb * ah), gb = (fd * inv_b) * (ah - cb * bh);
    const Vec d_s = cross(tt, gb), d_t = cross(gb, s);
    local[k] += cross(ga, ec) + d_s;
    local[k1] += cross(eb, ga) - (d_s + d_t);
    local[k2] += d_t;
  }
  return energy;
}

double ForceField::energy(std::span<const Vec> x) const {
  double e = 0;
  for (int a = 0; a < size(); ++a) e += atom_energy(a, x);
  if (options_.flatness)
    for (const Face& f : faces_) e += 0.5 * kFlatnessForce * face_plane(f, x).lambda;
  return e;
}

double ForceField::energy_and_gradient(std::span<const Vec> x, std::span<Vec> gradient) const {
  std::vector<std::array<Vec, 3>> local(atoms_.size());
  double e = 0;
  for (int a = 0; a < size(); ++a) e += atom_local_gradient(a, x, local[a]);
  // x[a] enters a's bond vectors with a minus sign and neighbour b's bond vector to a with a plus.
  for (int a = 0; a < size(); ++a) {
    const AtomTerms& t = atoms_[a];
    Vec g = -1.0 * (local[a][0] + local[a][1] + local[a][2]);
    for (int k = 0; k < 3; ++k) g += local[t.nbr[k]][t.back[k]];
    gradient[a] = g;
  }
  if (options_.flatness) {
    // d lambda_0 / d x_a = 2 ((x_a - c) . n) n: the centroid's and the normal's own motion
    // drop out (sum of (x_i - c) . n is 0; n is a stationary point of n^T A n).
    std::vector<Plane> planes(faces_.size());
    for (std::size_t f = 0; f < faces_.size(); ++f) {
      planes[f] = face_plane(faces_[f], x);
      e += 0.5 * kFlatnessForce * planes[f].lambda;
    }
    for (int a = 0; a < size(); ++a)
      for (const int f : atoms_[a].face) {
        const Plane& p = planes[f];
        gradient[a] += (kFlatnessForce * dot(x[a] - p.centroid, p.normal)) * p.normal;
      }
  }
  return e;
}

}  // namespace molstep::fullerene
