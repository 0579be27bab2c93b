// SPDX-License-Identifier: MIT
#include "molstep/fullerene/properties.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/hueckel_band.hpp"

namespace molstep::fullerene {
namespace {

using Vec = std::array<double, 3>;

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// Eigenvalues of the symmetric tridiagonal (d, e) by the implicit QL method with Wilkinson
/// shifts (EISPACK's tql1); d is overwritten with them, unordered.
void tridiagonal_ql(std::vector<double>& d, std::vector<double>& e) {
  const int n = static_cast<int>(d.size());
  for (int l = 0; l < n; ++l) {
    for (int iteration = 0;; ++iteration) {
      int m = l;
      for (; m + 1 < n; ++m) {
        const double dd = std::abs(d[m]) + std::abs(d[m + 1]);
        if (std::abs(e[m]) <= std::numeric_limits<double>::epsilon() * dd) break;
      }
      if (m == l) break;
      if (iteration == 60) throw Error("Hueckel spectrum: QL iteration did not converge");
      // Shift: the eigenvalue of the leading 2x2 block nearer d[l].
      double g = (d[l + 1] - d[l]) / (2.0 * e[l]);
      double r = std::hypot(g, 1.0);
      g = d[m] - d[l] + e[l] / (g + std::copysign(r, g));
      double s = 1, c = 1, p = 0;
      bool deflated = false;
      for (int i = m - 1; i >= l; --i) {
        const double f = s * e[i], b = c * e[i];
        r = std::hypot(f, g);
        e[i + 1] = r;
        if (r == 0) {  // underflow: the matrix splits here
          d[i + 1] -= p;
          e[m] = 0;
          deflated = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * s + 2.0 * c * b;
        p = s * r;
        d[i + 1] = g + p;
        g = c * r - b;
      }
      if (deflated) continue;
      d[l] -= p;
      e[l] = g;
      e[m] = 0;
    }
  }
}

}  // namespace

std::vector<double> adjacency_spectrum(const CubicGraph& g) {
  // The band of the matrix in a breadth-first numbering, reduced to tridiagonal form
  // (hueckel_band.hpp), then QL. The GPU reduces the dense matrix (its lower triangle) instead:
  // the band reduction's long chain of small steps ran 1.5 to 2 times slower there
  // (bench/RESULTS.md, issue 7 run 14).
  const int n = g.size();
  std::vector<int> cubic(3 * static_cast<std::size_t>(n)), order(n), pos(n);
  for (int u = 0; u < n; ++u)
    for (int k = 0; k < 3; ++k) cubic[3 * u + k] = g.adj[u][k];
  const int b = hueckel::band_order(cubic, order, pos);
  if (b < 0) throw Error("Hueckel spectrum: the graph is not connected");
  const int stride = std::max(2 * b, 1);
  std::vector<double> band(static_cast<std::size_t>(n) * stride);
  const hueckel::Band a = hueckel::adjacency_band(cubic, pos, band, stride);
  hueckel::band_reduce(a, n, b);
  std::vector<double> d(n), e(n, 0.0);
  for (int i = 0; i < n; ++i) d[i] = a(i, i);
  for (int i = 0; i + 1 < n; ++i) e[i] = a(i + 1, i);
  tridiagonal_ql(d, e);
  std::sort(d.begin(), d.end(), std::greater<>());
  return d;
}

double homo_lumo_gap(std::span<const double> spectrum) {
  const std::size_t homo = spectrum.size() / 2 - 1;
  return spectrum[homo] - spectrum[homo + 1];
}

IsomerProperties isomer_properties(const ForceField& ff, std::span<const Vec> x) {
  const int n = ff.size();
  IsomerProperties p;
  p.energy = ff.energy(x);

  double bond2 = 0, bond0 = 0, angle2 = 0, angle0 = 0, dih2 = 0, dih0 = 0;
  for (int a = 0; a < n; ++a) {
    const AtomTerms& t = ff.atoms()[a];
    const std::array<ArcGeometry, 3> arcs = ff.atom_geometry(a, x);
    for (int k = 0; k < 3; ++k) {
      const ArcGeometry& arc = arcs[k];
      const double angle = std::acos(std::clamp(arc.cos_angle, -1.0, 1.0));
      const double angle_eq = std::acos(t.arc[k].cos_angle0);
      const double dih = std::acos(std::clamp(arc.cos_dihedral, -1.0, 1.0));
      const double dih_eq = std::acos(t.arc[k].cos_dihedral0);
      bond2 += (arc.bond - t.arc[k].r0) * (arc.bond - t.arc[k].r0);
      bond0 += t.arc[k].r0 * t.arc[k].r0;
      angle2 += (angle - angle_eq) * (angle - angle_eq);
      angle0 += angle_eq * angle_eq;
      dih2 += (dih - dih_eq) * (dih - dih_eq);
      dih0 += dih_eq * dih_eq;
    }
  }
  const double arcs = 3.0 * n, degrees = 180.0 / std::numbers::pi;
  p.bond_rmsd = std::sqrt(bond2 / arcs);
  p.angle_rmsd = std::sqrt(angle2 / arcs) * degrees;
  p.dihedral_rmsd = std::sqrt(dih2 / arcs) * degrees;
  p.bond_rrmse = std::sqrt(bond2 / bond0 / arcs);
  p.angle_rrmse = std::sqrt(angle2 / angle0 / arcs);
  p.dihedral_rrmse = std::sqrt(dih2 / dih0 / arcs);

  Vec centre{0, 0, 0};
  for (const Vec& q : x)
    for (int c = 0; c < 3; ++c) centre[c] += q[c] / n;
  for (const Vec& q : x) {
    const double r = std::sqrt(dot(sub(q, centre), sub(q, centre)));
    p.circumradius = std::max(p.circumradius, r);
    p.mean_radius += r / n;
  }

  // Divergence theorem: V = sum over triangles of (1/6) c . (p_i x p_{i+1}), relative to the
  // atoms' centroid; faces are walked in one orientation, so the sign is common to all.
  double volume = 0;
  for (const Face& f : ff.faces()) {
    Vec c{0, 0, 0};
    for (int i = 0; i < f.size; ++i)
      for (int k = 0; k < 3; ++k) c[k] += x[f.atoms[i]][k] / f.size;
    for (int i = 0; i < f.size; ++i) {
      const Vec u = sub(x[f.atoms[i]], c), v = sub(x[f.atoms[(i + 1) % f.size]], c);
      const Vec area = cross(u, v);
      p.area += 0.5 * std::sqrt(dot(area, area));
      volume += dot(sub(c, centre), area) / 6.0;
    }
  }
  p.volume = std::abs(volume);
  p.sphericity = std::cbrt(std::numbers::pi) * std::pow(6.0 * p.volume, 2.0 / 3.0) / p.area;

  CubicGraph g;
  g.adj.resize(n);
  for (int a = 0; a < n; ++a) g.adj[a] = ff.atoms()[a].nbr;
  p.homo_lumo_gap = homo_lumo_gap(adjacency_spectrum(g));
  return p;
}

}  // namespace molstep::fullerene
