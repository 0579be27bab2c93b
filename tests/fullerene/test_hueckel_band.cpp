// SPDX-License-Identifier: MIT
// The Hueckel band reduction (hueckel_band.hpp): the breadth-first numbering and its bandwidth,
// and the reduction to tridiagonal form, checked against an independent oracle (cyclic Jacobi
// rotations on the full matrix) for random band matrices and fullerene adjacency matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/hueckel_band.hpp"
#include "molstep/fullerene/properties.hpp"
#include "support/fullerene_isomers.hpp"

namespace {

using namespace molstep::fullerene;

/// Eigenvalues of the symmetric n x n matrix `a` (row-major) by cyclic Jacobi rotations,
/// descending.
std::vector<double> jacobi_eigenvalues(std::vector<double> a, int n) {
  const auto at = [&](int i, int j) -> double& { return a[static_cast<std::size_t>(i) * n + j]; };
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i != j) off += at(i, j) * at(i, j);
    if (off < 1e-30) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (at(p, q) == 0.0) continue;
        const double theta = (at(q, q) - at(p, p)) / (2 * at(p, q));
        const double t = std::copysign(1.0, theta) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // columns p, q
          const double kp = at(k, p), kq = at(k, q);
          at(k, p) = c * kp - s * kq;
          at(k, q) = s * kp + c * kq;
        }
        for (int k = 0; k < n; ++k) {  // rows p, q
          const double pk = at(p, k), qk = at(q, k);
          at(p, k) = c * pk - s * qk;
          at(q, k) = s * pk + c * qk;
        }
      }
  }
  std::vector<double> out(n);
  for (int i = 0; i < n; ++i) out[i] = at(i, i);
  std::sort(out.begin(), out.end(), std::greater<>());
  return out;
}

/// Eigenvalues of the tridiagonal left in the band, by Jacobi on it as a full matrix; also
/// checks that nothing beyond the subdiagonal is left.
std::vector<double> tridiagonal_eigenvalues(const hueckel::Band& a, int n, int b) {
  std::vector<double> full(static_cast<std::size_t>(n) * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n && i - j < a.stride; ++i) {
      if (i - j > 1) {
        EXPECT_LT(std::abs(a(i, j)), 1e-13) << "(" << i << ", " << j << "), bandwidth " << b;
      } else { full[static_cast<std::size_t>(i) * n + j] = full[static_cast<std::size_t>(j) * n + i] = a(i, j);
      }
    }
  return jacobi_eigenvalues(full, n);
}

std::vector<int> flat(const CubicGraph& g) {
  std::vector<int> cubic;
  for (int u = 0; u < g.size(); ++u)
    for (int k = 0; k < 3; ++k) cubic.push_back(g.adj[u][k]);
  return cubic;
}

}  // namespace

TEST(FullereneHueckelBand, NumberingIsAPermutationOfTheReportedBandwidth) {
  for (const CubicGraph& g : {molstep::test::c20(), molstep::test::c60()}) {
    const int n = g.size();
    const std::vector<int> cubic = flat(g);
    std::vector<int> order(n), pos(n);
    const int b = hueckel::band_order(cubic, order, pos);
    int widest = 0;
    for (int u = 0; u < n; ++u) {
      EXPECT_EQ(order[pos[u]], u);
      for (const int v : g.adj[u]) widest = std::max(widest, std::abs(pos[u] - pos[v]));
    }
    EXPECT_EQ(b, widest);
    if (n >= 60) {
      EXPECT_LT(b, n / 4) << "C" << n << ": breadth-first order should give a narrow band";
    }
  }
}

TEST(FullereneHueckelBand, BrokenGraphsHaveNoBand) {
  const CubicGraph c20 = molstep::test::c20();
  std::vector<int> two = flat(c20), order(40), pos(40);
  for (int u = 0; u < 20; ++u)  // a second, disconnected copy
    for (int k = 0; k < 3; ++k) two.push_back(c20.adj[u][k] + 20);
  EXPECT_EQ(hueckel::band_order(two, order, pos), -1);
  std::vector<int> bad = flat(c20);
  bad[7] = 20;  // out of range
  order.resize(20);
  pos.resize(20);
  EXPECT_EQ(hueckel::band_order(bad, order, pos), -1);
}

TEST(FullereneHueckelBand, RandomBandMatricesKeepTheirEigenvalues) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& [n, b] : std::vector<std::pair<int, int>>{{12, 1}, {12, 2}, {30, 5}, {41, 7}, {25, 24}, {64, 13}}) {
    // The band exactly 2b wide, so a write past it would land in the next column.
    std::vector<double> band(static_cast<std::size_t>(n) * 2 * b, 0.0), full(static_cast<std::size_t>(n) * n, 0.0);
    const hueckel::Band a{band.data(), 2 * b};
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n && i - j <= b; ++i)
        full[static_cast<std::size_t>(i) * n + j] = full[static_cast<std::size_t>(j) * n + i] = a(i, j) = u(rng);
    hueckel::band_reduce(a, n, b);
    const std::vector<double> want = jacobi_eigenvalues(full, n), got = tridiagonal_eigenvalues(a, n, b);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "n " << n << " b " << b << " eigenvalue " << i;
  }
}

TEST(FullereneHueckelBand, FullereneSpectraMatchTheDenseOracle) {
  std::vector<CubicGraph> graphs{molstep::test::c60()};
  for (const Triangulation& t : molstep::test::every_nth_isomer(100, 6, 97)) graphs.push_back(dualize(t));
  for (const CubicGraph& g : graphs) {
    const int n = g.size();
    std::vector<double> full(static_cast<std::size_t>(n) * n, 0.0);
    for (int u = 0; u < n; ++u)
      for (const int v : g.adj[u]) full[static_cast<std::size_t>(u) * n + v] = 1.0;
    const std::vector<double> want = jacobi_eigenvalues(full, n), got = adjacency_spectrum(g);
    ASSERT_EQ(got.size(), want.size());
    for (int i = 0; i < n; ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "C" << n << " eigenvalue " << i;
  }
}
