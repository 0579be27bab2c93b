// SPDX-License-Identifier: MIT
#include "molstep/fullerene/embed.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "molstep/core/error.hpp"

namespace molstep::fullerene {
namespace {

/// The barycentre equations restricted to the free atoms: (L y)_i = 3 y_i - sum of y over the
/// free neighbours of i. `nbr` lists each free atom's neighbours as free indices, -1 for fixed.
struct FreeSystem {
  std::vector<std::array<int, 3>> nbr;

  void apply(const std::vector<double>& y, std::vector<double>& out) const {
    for (std::size_t i = 0; i < nbr.size(); ++i) {
      double s = 3.0 * y[i];
      for (const int j : nbr[i])
        if (j >= 0) s -= y[j];
      out[i] = s;
    }
  }
};

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

/// Conjugate gradients from y = 0; returns false if `max_iterations` did not reach the tolerance.
bool solve(const FreeSystem& m, const std::vector<double>& rhs, std::vector<double>& y, double tolerance,
           int max_iterations) {
  const std::size_t n = rhs.size();
  y.assign(n, 0.0);
  std::vector<double> r = rhs, p = rhs, q(n);
  double rr = dot(r, r);
  const double stop = tolerance * tolerance * rr;
  for (int it = 0; it < max_iterations; ++it) {
    if (rr <= stop) return true;
    m.apply(p, q);
    const double alpha = rr / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rr_new = dot(r, r);
    const double beta = rr_new / rr;
    rr = rr_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
  }
  return rr <= stop;
}

}  // namespace

std::vector<int> outer_face(const CubicGraph& g) {
  std::vector<int> face{0};
  for (int u = 0, v = g.adj[0][0]; v != 0;) {
    if (static_cast<int>(face.size()) >= g.size())
      throw Error("fullerene: the walk around the outer face does not close");
    face.push_back(v);
    const int w = g.next_on_face(u, v);
    u = v;
    v = w;
  }
  return face;
}

std::vector<std::array<double, 2>> tutte_layout(const CubicGraph& g, const TutteOptions& options) {
  const int n = g.size();
  std::vector<std::array<double, 2>> xy(n, {0.0, 0.0});
  std::vector<int> free_index(n, 0);
  const std::vector<int> outer = outer_face(g);
  const int h = static_cast<int>(outer.size());
  for (int k = 0; k < h; ++k) {
    const double t = 2.0 * std::numbers::pi * k / h;
    xy[outer[k]] = {std::sin(t), std::cos(t)};
    free_index[outer[k]] = -1;
  }
  std::vector<int> free_atoms;
  for (int v = 0; v < n; ++v)
    if (free_index[v] >= 0) {
      free_index[v] = static_cast<int>(free_atoms.size());
      free_atoms.push_back(v);
    }

  FreeSystem m;
  m.nbr.resize(free_atoms.size());
  std::array<std::vector<double>, 2> rhs{std::vector<double>(free_atoms.size(), 0.0),
                                         std::vector<double>(free_atoms.size(), 0.0)};
  for (std::size_t i = 0; i < free_atoms.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      const int w = g.adj[free_atoms[i]][k];
      m.nbr[i][k] = free_index[w];
      if (free_index[w] < 0)
        for (int c = 0; c < 2; ++c) rhs[c][i] += xy[w][c];
    }

  const int max_iterations = options.max_iterations > 0 ? options.max_iterations : 10 * n;
  std::vector<double> y;
  for (int c = 0; c < 2; ++c) {
    if (!solve(m, rhs[c], y, options.tolerance, max_iterations))
      throw Error("fullerene: Tutte embedding did not converge in " + std::to_string(max_iterations) +
                  " conjugate-gradient iterations (is the graph a fullerene?)");
    for (std::size_t i = 0; i < free_atoms.size(); ++i) xy[free_atoms[i]][c] = y[i];
  }
  return xy;
}

std::vector<std::array<double, 3>> spherical_projection(const CubicGraph& g,
                                                        std::span<const std::array<double, 2>> layout,
                                                        double mean_bond) {
  const int n = g.size();
  if (static_cast<int>(layout.size()) != n)
    throw Error("fullerene: layout has " + std::to_string(layout.size()) + " points for " + std::to_string(n) +
                " atoms");

  // Multiple-source breadth-first search from the outer face: depth = graph distance to it.
  std::vector<int> depth(n, -1), queue = outer_face(g);
  for (const int v : queue) depth[v] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (const int w : g.adj[queue[head]])
      if (depth[w] < 0) {
        depth[w] = depth[queue[head]] + 1;
        queue.push_back(w);
      }
  if (static_cast<int>(queue.size()) != n) throw Error("fullerene: graph is not connected");
  const int dmax = *std::max_element(depth.begin(), depth.end());

  std::vector<std::array<double, 2>> centroid(dmax + 1, {0.0, 0.0});
  std::vector<int> count(dmax + 1, 0);
  for (int v = 0; v < n; ++v) {
    centroid[depth[v]][0] += layout[v][0];
    centroid[depth[v]][1] += layout[v][1];
    ++count[depth[v]];
  }
  for (int d = 0; d <= dmax; ++d) {
    centroid[d][0] /= count[d];
    centroid[d][1] /= count[d];
  }

  std::vector<std::array<double, 3>> x(n);
  std::array<double, 3> centre{0.0, 0.0, 0.0};
  for (int v = 0; v < n; ++v) {
    const double phi = (depth[v] + 0.5) * std::numbers::pi / (dmax + 1);
    const double theta = std::atan2(layout[v][0] - centroid[depth[v]][0], layout[v][1] - centroid[depth[v]][1]);
    x[v] = {std::cos(theta) * std::sin(phi), std::sin(theta) * std::sin(phi), std::cos(phi)};
    for (int c = 0; c < 3; ++c) centre[c] += x[v][c] / n;
  }
  for (auto& p : x)
    for (int c = 0; c < 3; ++c) p[c] -= centre[c];
  double bond_sum = 0.0;
  for (int v = 0; v < n; ++v)
    for (const int w : g.adj[v]) bond_sum += std::hypot(x[v][0] - x[w][0], x[v][1] - x[w][1], x[v][2] - x[w][2]);
  const double scale = mean_bond / (bond_sum / (3.0 * n));
  for (auto& p : x)
    for (double& c : p) c *= scale;
  return x;
}

}  // namespace molstep::fullerene
