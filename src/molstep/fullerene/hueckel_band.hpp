// SPDX-License-Identifier: MIT
#pragma once

// The Hueckel spectrum's reduction to tridiagonal form through the adjacency matrix's band
// (adjacency_spectrum). A fullerene's atoms numbered in breadth-first order from a far atom give
// an adjacency matrix of small bandwidth b (C200: 10-26, mean 16); Householder reflections of
// length b then chase the band down to a tridiagonal (successive band reduction: each sweep
// annihilates one column and pushes the bulge it makes down the band, b rows at a time), O(N^2 b)
// work in N x 2b numbers instead of the dense reduction's O(N^3) in N^2. Orthogonal throughout,
// so as accurate as the dense reduction (eigenvalues to about N eps).

#include <span>

namespace molstep::fullerene::hueckel {

/// Numbers the n atoms of the cubic graph `cubic` (3 neighbours per atom, atom-major) in
/// breadth-first order from an atom at the far end of a first breadth-first walk (a
/// pseudo-peripheral atom, as in Cuthill-McKee): order[p] is the atom numbered p and pos[a] the
/// number of atom a. Returns the adjacency matrix's bandwidth in that numbering (the largest
/// |pos[u] - pos[v]| over bonds), or -1 when a neighbour is out of range or the graph is not
/// connected.
[[nodiscard]] int band_order(std::span<const int> cubic, std::span<int> order, std::span<int> pos);

/// The lower band of a symmetric n x n matrix, column by column: element (i, j), 0 <= i - j <
/// stride, at a[j * stride + i - j]. Reducing bandwidth b fills the band out to 2b - 1 below
/// the diagonal, so band_reduce needs stride >= 2b.
struct Band {
  double* a;
  int stride;
  [[nodiscard]] double& operator()(int i, int j) const { return a[j * stride + (i - j)]; }
};

/// Reduces the symmetric n x n matrix of bandwidth b held in `a` (stride >= 2b, everything beyond
/// the bandwidth zero) to tridiagonal form by orthogonal similarity, overwriting it: afterwards
/// a(i, i) is the diagonal and a(i + 1, i) the subdiagonal.
///
/// Sweep s annihilates column s below its subdiagonal with a reflector H on rows s+1 .. s+b. H A H
/// changes the rows s+1 .. s+b left of the diagonal block, the block itself (both sides) and,
/// below it, the next b rows' columns s+1 .. s+b, which fill in out to 2b - 1 below the diagonal
/// (the bulge). The next reflector, on those b rows, annihilates the bulge's first column below
/// its top element, and so on down the band; the bulge's other columns are each annihilated by a
/// later sweep, whose chase runs one column further on.
void band_reduce(Band a, int n, int b);

/// The 0/1 adjacency matrix of `cubic` in the numbering `pos`, as a Band of the given stride
/// over `storage` (n * stride doubles, overwritten).
[[nodiscard]] Band adjacency_band(std::span<const int> cubic, std::span<const int> pos, std::span<double> storage,
                                  int stride);

}  // namespace molstep::fullerene::hueckel
