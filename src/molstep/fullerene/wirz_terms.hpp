// SPDX-License-Identifier: MIT
#pragma once

// The Wirz force field's per-atom arithmetic, written once for the CPU (ForceField) and the GPU
// (the lockstep optimiser and properties kernels): plain structs and inline functions that nvcc
// compiles for both sides. Nothing here allocates or touches a graph; callers gather an atom's
// three bond vectors and its per-arc parameters, and these functions do the rest.

#include <cmath>

#if defined(__CUDACC__)
#define MOLSTEP_WIRZ_HD __host__ __device__
#define MOLSTEP_WIRZ_UNROLL _Pragma("unroll")
#else
#define MOLSTEP_WIRZ_HD
#define MOLSTEP_WIRZ_UNROLL
#endif

namespace molstep::fullerene::wirz {

/// The constants of the Fullerene program's CUDA code (Wirz et al., J. Comput. Chem. 37, 2016).
/// Lengths in Angstrom; angle and dihedral terms are harmonic in the cosine.
struct Constants {
  /// Equilibrium bond length and force constant, indexed by the hexagons among the bond's faces.
  double bond_length[3];
  double bond_force[3];
  /// Cosine of the equilibrium corner angle (108 and 120 degrees) and force constant, indexed by
  /// the corner's face (0 pentagon, 1 hexagon).
  double corner_cos[2];
  double corner_force[2];
  /// Cosine of the equilibrium dihedral at an atom, indexed 4 F1 + 2 F2 + F3 by the faces around
  /// it in arc order (ppp, pph, php, phh, hpp, hph, hhp, hhh).
  double dihedral_cos[8];
  /// Dihedral force constant, indexed by the number of hexagons around the atom.
  double dihedral_force[4];
  /// Face-flatness force constant (optional term).
  double flatness_force;
};

[[nodiscard]] MOLSTEP_WIRZ_HD constexpr Constants constants() {
  return Constants{{1.479, 1.458, 1.401},
                   {260.0, 390.0, 450.0},
                   {-0.30901699437494734, -0.5},
                   {100.0, 100.0},
                   {0.7946545571495363, 0.872903607049519, 0.872903607049519, 0.9410338472965512,
                    0.8162879359966257, 0.9139497166300941, 0.9139497166300941, 1.0},
                   {35.0, 65.0, 85.0, 270.0},
                   1e2};
}

/// The parameters of one arc a -> b of an atom a: half the bond a-b, the corner b-a-c and the
/// dihedral between the planes (a, b, c) and (b, c, d), c and d the arcs that follow clockwise.
template <class T>
struct ArcParamsT {
  T r0 = 0, k_bond = 0;
  T cos_angle0 = 0, k_angle = 0;
  T cos_dihedral0 = 0, k_dihedral = 0;
};
using ArcParams = ArcParamsT<double>;

/// An arc's parameters from its faces (1 for a hexagon, 0 for a pentagon): F1 holds the corner
/// b-a-c, F2 the corner c-a-d, F3 the corner d-a-b; the bond a-b separates F1 and F3.
template <class T = double>
[[nodiscard]] MOLSTEP_WIRZ_HD inline ArcParamsT<T> arc_params(int f1, int f2, int f3) {
  const Constants c = constants();
  ArcParamsT<T> p;
  p.r0 = static_cast<T>(c.bond_length[f1 + f3]);
  p.k_bond = static_cast<T>(c.bond_force[f1 + f3]);
  p.cos_angle0 = static_cast<T>(c.corner_cos[f1]);
  p.k_angle = static_cast<T>(c.corner_force[f1]);
  p.cos_dihedral0 = static_cast<T>(c.dihedral_cos[4 * f1 + 2 * f2 + f3]);
  p.k_dihedral = static_cast<T>(c.dihedral_force[f1 + f2 + f3]);
  return p;
}

/// A 3-vector of the working precision T (double by default; float for the GPU's single mode).
template <class T>
struct Vec3 {
  T x = 0, y = 0, z = 0;
};
using V3 = Vec3<double>;
template <class T>
MOLSTEP_WIRZ_HD inline Vec3<T> operator+(Vec3<T> a, Vec3<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T>
MOLSTEP_WIRZ_HD inline Vec3<T> operator-(Vec3<T> a, Vec3<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T>
MOLSTEP_WIRZ_HD inline Vec3<T> operator*(T s, Vec3<T> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T>
MOLSTEP_WIRZ_HD inline Vec3<T>& operator+=(Vec3<T>& a, Vec3<T> b) {
  a = a + b;
  return a;
}
template <class T>
[[nodiscard]] MOLSTEP_WIRZ_HD inline T dot(Vec3<T> a, Vec3<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T>
[[nodiscard]] MOLSTEP_WIRZ_HD inline Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/// sqrt of the working precision (float stays float on both sides).
[[nodiscard]] MOLSTEP_WIRZ_HD inline double root(double v) { return sqrt(v); }
[[nodiscard]] MOLSTEP_WIRZ_HD inline float root(float v) { return sqrtf(v); }
template <class T>
[[nodiscard]] MOLSTEP_WIRZ_HD inline T norm(Vec3<T> a) { return root(dot(a, a)); }

/// Bond length, corner cosine and dihedral cosine of an arc, as the energy sees them.
template <class T>
struct ArcGeometryT {
  T bond = 0;          ///< |ab|
  T cos_angle = 0;     ///< corner b-a-c
  T cos_dihedral = 0;  ///< planes (a, b, c) and (b, c, d)
};
using ArcGeometry = ArcGeometryT<double>;

/// The geometry of arc k of an atom whose bond vectors (atom -> neighbour j) are e[0..2].
template <class T>
[[nodiscard]] MOLSTEP_WIRZ_HD inline ArcGeometryT<T> arc_geometry(const Vec3<T> e[3], int k) {
  const Vec3<T> eb = e[k], ec = e[(k + 1) % 3], ed = e[(k + 2) % 3];
  // Plane normals along (a - b) x (c - b) = ec x eb and (b - c) x (d - c).
  const Vec3<T> n_abc = cross(ec, eb), n_bcd = cross(eb - ec, ed - ec);
  const T rb = norm(eb), rc = norm(ec);
  return {rb, dot(eb, ec) / (rb * rc), dot(n_abc, n_bcd) / root(dot(n_abc, n_abc) * dot(n_bcd, n_bcd))};
}

template <class T>
[[nodiscard]] MOLSTEP_WIRZ_HD inline T harmonic(T k, T value, T value0) {
  return T(0.5) * k * (value - value0) * (value - value0);
}

/// The energy of the terms an atom owns (half of each of its bonds, its three corners and its
/// three dihedrals); summed over atoms this is the whole Wirz energy, each term once.
template <class T>
[[nodiscard]] MOLSTEP_WIRZ_HD inline T atom_energy(const Vec3<T> e[3], const ArcParamsT<T> p[3]) {
  T energy = 0;
  MOLSTEP_WIRZ_UNROLL
  for (int k = 0; k < 3; ++k) {
    const ArcGeometryT<T> arc = arc_geometry(e, k);
    // Each bond is seen from both of its atoms: half the bond energy per arc.
    energy += T(0.5) * harmonic(p[k].k_bond, arc.bond, p[k].r0);
    energy += harmonic(p[k].k_angle, arc.cos_angle, p[k].cos_angle0);
    energy += harmonic(p[k].k_dihedral, arc.cos_dihedral, p[k].cos_dihedral0);
  }
  return energy;
}

/// atom_energy and its derivatives local[k] with respect to the bond vectors e[k]. The gradient
/// of atom a is then -(local_a[0] + local_a[1] + local_a[2]) + sum over neighbours b of
/// local_b[position of a in b's list]: Pedersen's outer terms included, every term evaluated once.
template <class T>
MOLSTEP_WIRZ_HD inline T atom_local_gradient(const Vec3<T> e[3], const ArcParamsT<T> p[3], Vec3<T> local[3]) {
  Vec3<T> u[3];
  T r[3];
  MOLSTEP_WIRZ_UNROLL
  for (int k = 0; k < 3; ++k) {
    r[k] = norm(e[k]);
    u[k] = (T(1) / r[k]) * e[k];
    local[k] = {0, 0, 0};
  }
  T energy = 0;
  MOLSTEP_WIRZ_UNROLL
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const Vec3<T> eb = e[k], ec = e[k1], ed = e[k2];

    energy += T(0.5) * harmonic(p[k].k_bond, r[k], p[k].r0);
    local[k] += (T(0.5) * p[k].k_bond * (r[k] - p[k].r0)) * u[k];

    // cos = u_b . u_c; d cos / d e_b = (u_c - cos u_b) / r_b, and likewise for c.
    const T cs = dot(u[k], u[k1]);
    energy += harmonic(p[k].k_angle, cs, p[k].cos_angle0);
    const T fa = p[k].k_angle * (cs - p[k].cos_angle0);
    local[k] += (fa / r[k]) * (u[k1] - cs * u[k]);
    local[k1] += (fa / r[k1]) * (u[k] - cs * u[k1]);

    // cos beta = A^ . B^ with A = e_c x e_b and B = s x t, s = e_b - e_c, t = e_d - e_c.
    // d cos / dA = (B^ - cos A^) / |A|, likewise for B; then through the cross products.
    const Vec3<T> s = eb - ec, t = ed - ec;
    const Vec3<T> av = cross(ec, eb), bv = cross(s, t);
    const T inv_a = T(1) / norm(av), inv_b = T(1) / norm(bv);
    const Vec3<T> ah = inv_a * av, bh = inv_b * bv;
    const T cb = dot(ah, bh);
    energy += harmonic(p[k].k_dihedral, cb, p[k].cos_dihedral0);
    const T fd = p[k].k_dihedral * (cb - p[k].cos_dihedral0);
    const Vec3<T> ga = (fd * inv_a) * (bh - cb * ah), gb = (fd * inv_b) * (ah - cb * bh);
    const Vec3<T> d_s = cross(t, gb), d_t = cross(gb, s);
    local[k] += cross(ga, ec) + d_s;
    local[k1] += cross(eb, ga) - (d_s + d_t);
    local[k2] += d_t;
  }
  return energy;
}

/// Centroid, unit normal and smallest eigenvalue lambda_0 of a face's covariance sum
/// (x - c)(x - c)^T: lambda_0 is the sum of squared distances of its atoms from their
/// least-squares plane.
struct Plane {
  V3 centroid;
  V3 normal;
  double lambda = 0;
};

/// Smallest eigenpair of the symmetric 3x3 matrix m by cyclic Jacobi rotations: robust for the
/// (near-)degenerate in-plane pair of a regular face, and accurate for a tiny lambda_0.
MOLSTEP_WIRZ_HD inline void smallest_eigenpair(double m[3][3], double& lambda, V3& vector) {
  double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int sweep = 0; sweep < 16; ++sweep) {
    const double off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
    const double diag = m[0][0] * m[0][0] + m[1][1] * m[1][1] + m[2][2] * m[2][2];
    if (off <= 1e-32 * diag) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (m[p][q] == 0.0) continue;
        const double theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
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

/// The least-squares plane of a face's atoms pts[0..size-1].
[[nodiscard]] MOLSTEP_WIRZ_HD inline Plane face_plane(const V3* pts, int size) {
  V3 c{0, 0, 0};
  for (int i = 0; i < size; ++i) c += pts[i];
  c = (1.0 / size) * c;
  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (int i = 0; i < size; ++i) {
    const V3 r = pts[i] - c;
    const double rv[3] = {r.x, r.y, r.z};
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) m[p][q] += rv[p] * rv[q];
  }
  Plane plane;
  plane.centroid = c;
  smallest_eigenpair(m, plane.lambda, plane.normal);
  return plane;
}

/// The flatness term's gradient at atom position xa of a face with plane `p`:
/// d lambda_0 / d x_a = 2 ((x_a - c) . n) n (the centroid's and the normal's own motion drop
/// out), times k_flat / 2.
[[nodiscard]] MOLSTEP_WIRZ_HD inline V3 flatness_gradient(V3 xa, const Plane& p) {
  return (constants().flatness_force * dot(xa - p.centroid, p.normal)) * p.normal;
}

}  // namespace molstep::fullerene::wirz
