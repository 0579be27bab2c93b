// SPDX-License-Identifier: MIT
// The properties stage's Hueckel gap (HueckelGap): the dense Householder reduction of the
// adjacency matrix's packed lower triangle by a block, then Sturm multisection for the HOMO and
// LUMO (the CPU reduces the matrix's band instead and runs QL on the whole spectrum).
#include "molstep/fullerene/cuda/hueckel_gap.cuh"

#include <algorithm>
#include <cfloat>
#include <map>
#include <mutex>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/stream.cuh"

namespace molstep::fullerene::cuda {
namespace {

/// Threads per block at most (atoms rounded up to a warp, times the threads per atom).
constexpr int kMaxThreads = 1024;
/// Threads per atom at most.
constexpr int kMaxParts = 4;
/// Global scratch for the matrices at most, when they do not fit in shared memory: it caps the
/// grid (each block reuses its own matrix for every slot it handles).
constexpr std::size_t kScratchBudget = std::size_t{512} << 20;

/// Doubles in the packed lower triangle of a symmetric n x n matrix (packed_index).
__host__ __device__ inline std::size_t packed_size(int n) {
  return static_cast<std::size_t>(n) * (static_cast<std::size_t>(n) + 1) / 2;
}
/// Element (r, c), c <= r, of a packed lower triangle: row r's columns 0..r follow rows 0..r-1.
/// For a fixed row, consecutive columns are consecutive: the lanes of a warp then read and write
/// one row together without bank conflicts.
__device__ inline int packed_index(int r, int c) { return r * (r + 1) / 2 + c; }

/// Byte offsets of a block's dynamic shared memory: the vectors, the partial sums of A v (one
/// row of n per thread per atom), then the matrix (when in shared memory).
struct SharedLayout {
  std::size_t v, w, d, e, partial, matrix, total;

  __host__ __device__ SharedLayout(int n, int parts, bool matrix_in_shared) {
    const auto up = [](std::size_t b) { return (b + 15) / 16 * 16; };
    const auto nn = static_cast<std::size_t>(n);
    v = 0;
    w = up(v + nn * sizeof(double));
    d = up(w + nn * sizeof(double));
    e = up(d + nn * sizeof(double));
    partial = up(e + nn * sizeof(double));
    matrix = up(partial + static_cast<std::size_t>(parts) * nn * sizeof(double));
    total = up(matrix + (matrix_in_shared ? packed_size(n) : 0) * sizeof(double));
  }
};

/// Number of eigenvalues below x of the symmetric tridiagonal matrix with diagonal d and
/// subdiagonal e (e[i] couples i and i+1): the negative pivots of the LDL^T factorisation of
/// T - x I (Sylvester's law of inertia). A pivot smaller than pivmin is taken as -pivmin.
__device__ inline int eigenvalues_below(const double* d, const double* e, int n, double x, double pivmin) {
  double q = d[0] - x;
  if (fabs(q) < pivmin) q = -pivmin;
  int count = q < 0.0;
  for (int i = 1; i < n; ++i) {
    q = d[i] - x - e[i - 1] * e[i - 1] / q;
    if (fabs(q) < pivmin) q = -pivmin;
    count += q < 0.0;
  }
  return count;
}

/// The k-th smallest eigenvalue (from 0) of the tridiagonal (d, e) by multisection of its
/// Gerschgorin interval, down to eps ||T||: the accuracy the Householder reduction leaves. The
/// 32 lanes of a warp, which must all call it, count the eigenvalues below 32 points evenly
/// inside the interval at once, which cuts it 33-fold per round instead of halving it: about
/// 11 rounds of Sturm counts instead of 53 bisections, each a chain of n dependent divisions.
__device__ inline double kth_eigenvalue(const double* d, const double* e, int n, int k) {
  const int lane = static_cast<int>(threadIdx.x % 32u);
  double lo = d[0], hi = d[0], e2max = 0.0;
  for (int i = 0; i < n; ++i) {
    const double r = (i > 0 ? fabs(e[i - 1]) : 0.0) + (i + 1 < n ? fabs(e[i]) : 0.0);
    lo = fmin(lo, d[i] - r);
    hi = fmax(hi, d[i] + r);
    if (i + 1 < n) e2max = fmax(e2max, e[i] * e[i]);
  }
  const double tnorm = fmax(fabs(lo), fabs(hi));
  const double pivmin = DBL_MIN * fmax(1.0, e2max);
  const double widen = 2.0 * DBL_EPSILON * tnorm * n + 2.0 * pivmin;
  lo -= widen;
  hi += widen;
  // Invariant: fewer than k+1 eigenvalues below lo, at least k+1 below hi.
  const double tolerance = DBL_EPSILON * tnorm;
  for (int round = 0; round < 64 && hi - lo > tolerance; ++round) {
    const double step = (hi - lo) / 33.0;
    const double x = lo + (lane + 1) * step;
    const unsigned above = __ballot_sync(0xffffffffu, eigenvalues_below(d, e, n, x, pivmin) > k);
    // The first point with k+1 below is the new hi, the one before it the new lo.
    const int first = above ? __ffs(static_cast<int>(above)) - 1 : 32;
    const double new_lo = first == 0 ? lo : lo + first * step;
    const double new_hi = first == 32 ? hi : lo + (first + 1) * step;
    if (!(new_lo >= lo && new_hi <= hi && new_hi - new_lo < hi - lo)) break;  // down to rounding
    lo = new_lo;
    hi = new_hi;
  }
  return 0.5 * (lo + hi);
}

/// The sum of x over the lanes of a warp, in every lane (the same tree in every warp, so warps
/// that sum the same numbers get the same bits).
__device__ inline double warp_sum(double x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

/// The Householder reduction of the symmetric n x n matrix `a` (its packed lower triangle,
/// packed_index) to tridiagonal form: the diagonal goes to d, the subdiagonal to e. Every thread
/// of the block must call it, `parts` threads per atom (the block is parts x `width` threads,
/// width >= n): thread c < n of each part sums its share of p_c = (A v)_c into its row of
/// `partial`; thread c < n of the first part forms v_c and w_c; the rank-2 update goes a warp per
/// row. The triangle holds half the full matrix (C200: 157 KiB, which fits in shared memory up
/// to about C220 on an H100) and the symmetric rank-2 correction is applied once per pair instead
/// of twice. Five block barriers a step; |x|^2 is summed by every warp for itself. Ends with a
/// barrier.
__device__ void householder_tridiagonalise(double* a, int n, int width, int parts, double* v, double* w, double* d,
                                           double* e, double* partial, double* warp_sums) {
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const int part = tid / width, col = tid % width;
  const bool owner = tid < n;  // first part, an atom
  for (int k = 0; k + 2 < n; ++k) {
    __syncthreads();  // the last update is done: column k (x) and the rows (p) belong to others
    // x = A(k+1.., k).
    double sum = 0.0;
    for (int i = k + 1 + lane; i < n; i += 32) {
      const double xi = a[packed_index(i, k)];
      sum += xi * xi;
    }
    const double sigma = warp_sum(sum);
    if (sigma == 0.0) {  // block-uniform: every warp summed the same numbers the same way
      if (tid == 0) e[k] = 0.0;
      continue;
    }
    const double norm_x = sqrt(sigma);
    const double x1 = a[packed_index(k + 1, k)];
    const double alpha = x1 > 0 ? -norm_x : norm_x;
    // v = (x - alpha e_1) / |x - alpha e_1|, with |x - alpha e_1|^2 = 2 (sigma + |x1| |x|).
    const double inv = 1.0 / sqrt(2.0 * (sigma + norm_x * fabs(x1)));
    if (owner) v[tid] = tid > k ? (tid == k + 1 ? x1 - alpha : a[packed_index(tid, k)]) * inv : 0.0;
    __syncthreads();
    // p = A v, part q summing j over the q-th of `parts` stretches of the trailing rows: A(c, j)
    // from row c of the triangle below the diagonal, A(j, c) from row j on and above it (where
    // the lanes of a warp read one row together).
    if (col < n && col > k && part < parts) {
      const int len = n - k - 1, first = k + 1 + part * len / parts, end = k + 1 + (part + 1) * len / parts;
      const double* row = a + packed_index(col, 0);
      double p = 0.0;
      for (int j = first; j < min(end, col); ++j) p += row[j] * v[j];
      for (int j = max(first, col); j < end; ++j) p += a[packed_index(j, col)] * v[j];
      partial[part * n + col] = p;
    }
    __syncthreads();
    // v . p, over the first part's warps; then w = p - (v . p) v.
    double pc = 0.0;
    if (owner && tid > k)
      for (int q = 0; q < parts; ++q) pc += partial[q * n + tid];
    const int owner_warps = (n + 31) / 32;
    if (warp < owner_warps) {
      const double vp_warp = warp_sum(owner ? v[tid] * pc : 0.0);
      if (lane == 0) warp_sums[warp] = vp_warp;
    }
    __syncthreads();
    double vp = 0.0;
    for (int q = 0; q < owner_warps; ++q) vp += warp_sums[q];
    if (owner) w[tid] = tid > k ? pc - vp * v[tid] : 0.0;
    __syncthreads();
    // A -= 2 (v w^T + w v^T) on the trailing triangle (rows j >= columns c > k), a warp per row,
    // its lanes on consecutive elements. The rows go to the warps in pairs, the i-th shortest
    // (i + 1 elements) with the i-th longest (m - i), so every pair holds m + 1 elements and the
    // warps get nearly equal shares. (Dealing single elements in storage order balanced as well
    // but spent most of the step walking each thread's position from row to row.)
    {
      const int m = n - k - 1, warps = static_cast<int>(blockDim.x) / 32;
      for (int i = warp; i < (m + 1) / 2; i += warps)
        for (int side = 0; side < 2; ++side) {
          const int j = side == 0 ? k + 1 + i : n - 1 - i;
          if (side == 1 && j == k + 1 + i) break;  // the middle row when m is odd
          const double vj = v[j], wj = w[j];
          double* row = a + packed_index(j, 0);
          for (int c = k + 1 + lane; c <= j; c += 32) row[c] -= 2.0 * (__dmul_rn(vj, w[c]) + __dmul_rn(wj, v[c]));
        }
    }
    if (tid == 0) e[k] = alpha;
  }
  __syncthreads();
  if (owner) d[tid] = a[packed_index(tid, tid)];
  if (tid == n - 1) e[n - 2] = a[packed_index(n - 1, n - 2)];
  if (tid == n - 1) e[n - 1] = 0.0;
  __syncthreads();
}

/// gaps[slot] for every finished slot of b. `scratch` holds gridDim.x packed triangles of atoms x
/// atoms matrices (packed_size), or is null when the matrix is in shared memory.
__global__ void __launch_bounds__(kMaxThreads) hueckel_kernel(BatchView b, int parts, double* gaps, double* scratch) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ double warp_sums[32];
  __shared__ double frontier[2];  // the eigenvalues below and above the gap
  __shared__ int bad;
  const int n = b.atoms, tid = static_cast<int>(threadIdx.x);
  const int width = static_cast<int>(blockDim.x) / parts;
  const SharedLayout at(n, parts, scratch == nullptr);
  double* v = reinterpret_cast<double*>(smem + at.v);
  double* w = reinterpret_cast<double*>(smem + at.w);
  double* d = reinterpret_cast<double*>(smem + at.d);
  double* e = reinterpret_cast<double*>(smem + at.e);
  double* partial = reinterpret_cast<double*>(smem + at.partial);
  double* matrix = scratch ? scratch + static_cast<std::size_t>(blockIdx.x) * packed_size(n)
                           : reinterpret_cast<double*>(smem + at.matrix);

  for (int slot = static_cast<int>(blockIdx.x); slot < b.capacity; slot += static_cast<int>(gridDim.x)) {
    if (!finished(b.status[slot])) continue;  // block-uniform
    __syncthreads();                          // the previous slot is done with shared memory
    if (tid == 0) bad = 0;
    for (int i = tid; i < static_cast<int>(packed_size(n)); i += static_cast<int>(blockDim.x)) matrix[i] = 0.0;
    __syncthreads();
    // The 0/1 adjacency matrix, arc by arc (both atoms of a bond write its 1).
    if (tid < n) {
      const int* nbr = b.cubic + static_cast<std::size_t>(slot) * 3 * n + 3 * tid;
      for (int k = 0; k < 3; ++k) {
        const int u = nbr[k];
        if (u < 0 || u >= n)
          bad = 1;
        else
          matrix[packed_index(max(tid, u), min(tid, u))] = 1.0;
      }
    }
    __syncthreads();
    if (bad) {  // block-uniform
      if (tid == 0) gaps[slot] = __longlong_as_double(0x7ff8000000000000LL);
      continue;
    }
    householder_tridiagonalise(matrix, n, width, parts, v, w, d, e, partial, warp_sums);
    // Ascending eigenvalues n/2 - 1 and n/2, on warps 0 and 1 (both on warp 0 when alone).
    const int warp = tid / 32;
    if (warp == 0) {
      const double below = kth_eigenvalue(d, e, n, n / 2 - 1);
      if (tid == 0) frontier[0] = below;
    }
    if (warp == (blockDim.x > 32 ? 1 : 0)) {
      const double above = kth_eigenvalue(d, e, n, n / 2);
      if (tid % 32 == 0) frontier[1] = above;
    }
    __syncthreads();
    if (tid == 0) gaps[slot] = frontier[1] - frontier[0];
  }
}

/// Lets the kernel take `bytes` of dynamic shared memory on the current device. The attribute
/// belongs to the kernel, which stages of every size share, so it only ever grows; it is set
/// here, when a stage is made, never at a launch (which may be captured into a CUDA graph).
void allow_shared(std::size_t bytes) {
  static std::mutex mutex;
  static std::map<int, std::size_t> allowed;  // by device
  int device = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard lock(mutex);
  std::size_t& current = allowed[device];
  if (bytes <= current) return;  // (the 48 KiB default counts static shared memory too)
  MOLSTEP_CUDA_CHECK(
      cudaFuncSetAttribute(hueckel_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  current = bytes;
}

}  // namespace

HueckelGap::HueckelGap(int atoms, int capacity) : atoms_(atoms), capacity_(capacity) {
  const int width = (atoms + 31) / 32 * 32;
  if (atoms < 4 || capacity < 1 || width > kMaxThreads)
    throw Error("HueckelGap: C" + std::to_string(atoms) + " with " + std::to_string(capacity) +
                " slots (at most " + std::to_string(kMaxThreads) + " atoms)");
  int device = 0, optin = 0, per_sm = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  cudaFuncAttributes attributes{};
  MOLSTEP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, hueckel_kernel));
  const std::size_t available = static_cast<std::size_t>(optin) - attributes.sharedSizeBytes;
  shared_matrix_ = SharedLayout(atoms, kMaxParts, true).total <= available;
  // Threads per atom: about 32 warps on an SM in all, counting the blocks its shared memory
  // holds (C200: one block, four threads per atom; C60: one thread per atom).
  const std::size_t one = SharedLayout(atoms, 1, shared_matrix_).total + attributes.sharedSizeBytes + 1024;
  const int blocks = std::max(1, static_cast<int>(static_cast<std::size_t>(per_sm) / one));
  const int parts = std::clamp(32 / (blocks * (width / 32)), 1, std::min(kMaxParts, kMaxThreads / width));
  threads_ = parts * width;
  shared_bytes_ = SharedLayout(atoms, parts, shared_matrix_).total;
  allow_shared(shared_bytes_);
  grid_ = gpu::resident_grid(hueckel_kernel, threads_, shared_bytes_, static_cast<std::size_t>(capacity));
  if (!shared_matrix_) {
    const std::size_t matrix = packed_size(atoms);
    grid_ = std::max(1, std::min(grid_, static_cast<int>(kScratchBudget / (matrix * sizeof(double)))));
    scratch_.resize(static_cast<std::size_t>(grid_) * matrix);
  }
  gaps_.resize(static_cast<std::size_t>(capacity));
}

void HueckelGap::launch(const BatchView& b, cudaStream_t s) {
  if (b.atoms != atoms_ || b.capacity != capacity_)
    throw Error("HueckelGap for C" + std::to_string(atoms_) + " x " + std::to_string(capacity_) +
                " launched on a batch of C" + std::to_string(b.atoms) + " x " + std::to_string(b.capacity));
  const int width = (atoms_ + 31) / 32 * 32;
  hueckel_kernel<<<grid_, threads_, shared_bytes_, s>>>(b, threads_ / width, gaps_.data(),
                                                       shared_matrix_ ? nullptr : scratch_.data());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace molstep::fullerene::cuda
