// SPDX-License-Identifier: MIT
#include "molstep/fullerene/hueckel_band.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace molstep::fullerene::hueckel {

int band_order(std::span<const int> cubic, std::span<int> order, std::span<int> pos) {
  const int n = static_cast<int>(order.size());
  if (n == 0 || pos.size() != order.size() || cubic.size() != 3 * order.size()) return -1;
  for (const int v : cubic)
    if (v < 0 || v >= n) return -1;
  int start = 0;
  for (int pass = 0; pass < 2; ++pass) {
    std::fill(pos.begin(), pos.end(), -1);
    int tail = 0;
    order[tail++] = start;
    pos[start] = 0;
    for (int head = 0; head < tail; ++head)
      for (int k = 0; k < 3; ++k) {
        const int v = cubic[3 * order[head] + k];
        if (pos[v] < 0) {
          pos[v] = tail;
          order[tail++] = v;
        }
      }
    if (tail != n) return -1;
    start = order[n - 1];
  }
  int b = 0;
  for (int u = 0; u < n; ++u)
    for (int k = 0; k < 3; ++k) b = std::max(b, std::abs(pos[u] - pos[cubic[3 * u + k]]));
  return b;
}

void band_reduce(Band a, int n, int b) {
  std::vector<double> v(std::max(b, 1)), w(std::max(b, 1));
  for (int s = 0; s + 2 < n && b > 1; ++s) {
    int c = s;       // the column to annihilate below row r0
    int r0 = s + 1;  // the reflector's first row
    for (; r0 < n; c = r0, r0 += b) {
      const int m = std::min(b, n - r0);
      if (m < 2) break;
      // H = I - tau v v^T maps x = a(r0 .. r0+m-1, c) to beta e_1 (LAPACK's dlarfg).
      const double alpha = a(r0, c);
      double xn = 0.0;
      for (int k = 1; k < m; ++k) xn += a(r0 + k, c) * a(r0 + k, c);
      if (xn == 0.0) continue;
      const double beta = -std::copysign(std::sqrt(alpha * alpha + xn), alpha);
      const double tau = (beta - alpha) / beta, scale = 1.0 / (alpha - beta);
      v[0] = 1.0;
      for (int k = 1; k < m; ++k) {
        v[k] = a(r0 + k, c) * scale;
        a(r0 + k, c) = 0.0;
      }
      a(r0, c) = beta;
      // The rows r0 .. r0+m-1 left of the diagonal block: X <- H X = X - v (tau v^T X).
      for (int j = c + 1; j < r0; ++j) {
        double sum = 0.0;
        for (int k = 0; k < m; ++k) sum += v[k] * a(r0 + k, j);
        sum *= tau;
        for (int k = 0; k < m; ++k) a(r0 + k, j) -= sum * v[k];
      }
      // The diagonal block: A - v w^T - w v^T with w = tau A v - (tau^2 / 2) (v^T A v) v.
      double vw = 0.0;
      for (int k = 0; k < m; ++k) {
        double sum = 0.0;
        for (int l = 0; l <= k; ++l) sum += a(r0 + k, r0 + l) * v[l];
        for (int l = k + 1; l < m; ++l) sum += a(r0 + l, r0 + k) * v[l];
        w[k] = tau * sum;
        vw += v[k] * w[k];
      }
      const double half = -0.5 * tau * vw;
      for (int k = 0; k < m; ++k) w[k] += half * v[k];
      for (int l = 0; l < m; ++l)
        for (int k = l; k < m; ++k) a(r0 + k, r0 + l) -= v[k] * w[l] + w[k] * v[l];
      // The rows below that the bulge reaches: X <- X H = X - (tau X v) v^T.
      for (int i = r0 + m, end = std::min(n, r0 + m + b); i < end; ++i) {
        double sum = 0.0;
        for (int k = 0; k < m; ++k) sum += a(i, r0 + k) * v[k];
        sum *= tau;
        for (int k = 0; k < m; ++k) a(i, r0 + k) -= sum * v[k];
      }
    }
  }
}

Band adjacency_band(std::span<const int> cubic, std::span<const int> pos, std::span<double> storage, int stride) {
  std::fill(storage.begin(), storage.end(), 0.0);
  const Band a{storage.data(), stride};
  const int n = static_cast<int>(pos.size());
  for (int u = 0; u < n; ++u)
    for (int k = 0; k < 3; ++k) {
      const int i = pos[u], j = pos[cubic[3 * u + k]];
      if (i > j) a(i, j) = 1.0;  // each bond once, from its later end
    }
  return a;
}

}  // namespace molstep::fullerene::hueckel
