// SPDX-License-Identifier: MIT
// fullerene::isomer_properties in lockstep: one block per isomer, one thread per atom (and per
// face), double precision; two threads per atom where the Hueckel matrix leaves room for only
// one block per SM, the second half working only in the Hueckel reduction. The per-atom
// arithmetic is wirz_terms.hpp's, shared with the CPU; the sums are block reductions. The
// Hueckel gap reduces the adjacency matrix (its lower triangle, in shared memory up to about
// C220) to tridiagonal form by Householder reflections, and then finds just the HOMO and LUMO
// eigenvalues by Sturm-sequence multisection, a warp each (the CPU runs QL on the whole
// spectrum).
#include "molstep/fullerene/cuda/properties_cuda.cuh"

#include <algorithm>
#include <cfloat>
#include <map>
#include <mutex>
#include <numbers>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/block_reduce.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/fullerene/cuda/properties_cuda.hpp"
#include "molstep/fullerene/wirz_terms.hpp"
#include "molstep/gpu/cuda_check.cuh"

namespace molstep::fullerene::cuda {
namespace {

/// Threads per block at most: one per atom, atoms rounded up to a warp (C400 takes 416).
constexpr int kMaxThreads = 512;
/// Global scratch for the Hueckel matrices at most, when they do not fit in shared memory: it
/// caps the grid (each block reuses its own matrix for every slot it handles).
constexpr std::size_t kScratchBudget = std::size_t{512} << 20;

/// Doubles in the packed lower triangle of a symmetric n x n matrix (packed_index).
__host__ __device__ inline std::size_t packed_size(int n) {
  return static_cast<std::size_t>(n) * (static_cast<std::size_t>(n) + 1) / 2;
}
/// Element (r, c), c <= r, of a packed lower triangle: row r's columns 0..r follow rows 0..r-1.
/// For a fixed row, consecutive columns are consecutive: the threads of a block, one per
/// column, then read and write one row together without bank conflicts.
__device__ inline int packed_index(int r, int c) { return r * (r + 1) / 2 + c; }

/// Byte offsets of a block's dynamic shared memory: the doubles first, then the integers.
struct SharedLayout {
  std::size_t x, v, w, d, e, p, partial, matrix, cubic, face_arc, total;

  __host__ __device__ SharedLayout(int n, int faces, bool matrix_in_shared) {
    const auto up = [](std::size_t b) { return (b + 15) / 16 * 16; };
    const auto nn = static_cast<std::size_t>(n);
    x = 0;
    v = up(x + 3 * nn * sizeof(double));
    w = up(v + nn * sizeof(double));
    d = up(w + nn * sizeof(double));
    e = up(d + nn * sizeof(double));
    p = up(e + nn * sizeof(double));
    partial = up(p + nn * sizeof(double));
    matrix = up(partial + nn * sizeof(double));
    cubic = up(matrix + (matrix_in_shared ? packed_size(n) : 0) * sizeof(double));
    face_arc = up(cubic + 3 * nn * sizeof(int));
    total = up(face_arc + static_cast<std::size_t>(faces) * sizeof(int));
  }
};

/// The atom after v on the face walked u -> v (CubicGraph::next_on_face), or -1 when v does
/// not list u.
__device__ inline int next_on_face(const int* cubic, int u, int v) {
  const int* nv = cubic + 3 * v;
  const int j = nv[0] == u ? 0 : nv[1] == u ? 1 : nv[2] == u ? 2 : -1;
  return j < 0 ? -1 : nv[(j + 2) % 3];
}

/// Walks the face of the arc u -> v (CubicGraph::face_size's walk) and returns its size, or -1
/// unless it closes within 6 atoms. `lowest` gets its smallest atom; `atoms` (if given) its
/// atoms in walk order from u.
__device__ inline int walk_face(const int* cubic, int u, int v, int& lowest, int* atoms) {
  int size = 1, a = u, b = v;
  lowest = u;
  if (atoms) atoms[0] = u;
  while (b != u) {
    if (b < 0 || size == 6) return -1;
    if (atoms) atoms[size] = b;
    lowest = min(lowest, b);
    ++size;
    const int c = next_on_face(cubic, a, b);
    a = b;
    b = c;
  }
  return size;
}

__device__ inline wirz::V3 load(const double* x, int a) { return {x[3 * a], x[3 * a + 1], x[3 * a + 2]}; }

/// std::clamp's semantics (NaN passes through), so a degenerate geometry gives NaN as on the CPU.
__device__ inline double clamp_unit(double c) { return c < -1.0 ? -1.0 : (1.0 < c ? 1.0 : c); }

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

/// Every field NaN: what a slot whose graph is not a fullerene gets.
__device__ inline IsomerProperties nan_properties() {
  const double nan = __longlong_as_double(0x7ff8000000000000LL);
  IsomerProperties p;
  p.energy = p.bond_rmsd = p.angle_rmsd = p.dihedral_rmsd = nan;
  p.bond_rrmse = p.angle_rrmse = p.dihedral_rrmse = nan;
  p.volume = p.area = p.sphericity = p.circumradius = p.mean_radius = p.homo_lumo_gap = nan;
  return p;
}

/// The sum of x over the lanes of a warp, in every lane (the same tree in every warp, so warps
/// that sum the same numbers get the same bits).
__device__ inline double warp_sum(double x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

/// The Householder reduction of the symmetric n x n matrix `a` (its packed lower triangle,
/// packed_index) to tridiagonal form: the diagonal goes to d, the subdiagonal to e. Every thread
/// of the block must call it; thread c < n forms element c of v, p and w, and the rank-2 update
/// is shared by all the warps. The triangle holds half the full matrix (C200: 157 KiB, which fits in
/// shared memory up to about C220 on an H100) and the symmetric rank-2 correction is applied
/// once per pair instead of twice. The two dot products of a step (|x|^2 and v . p) are summed by
/// every warp for itself, so a step has four block barriers instead of ten. Ends with a barrier.
__device__ void householder_tridiagonalise(double* a, int n, double* v, double* w, double* d, double* e, double* p,
                                           double* partial) {
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32;
  const bool owner = tid < n;
  // With two threads per column (a block of twice the columns, rounded to warps) thread c sums
  // p_c = (A v)_c over j up to the middle of the trailing rows into p, thread half + c the rest
  // into `partial`.
  const int half = static_cast<int>(blockDim.x) / 2;
  const bool split = half >= n, second = split && tid >= half;
  const int col = second ? tid - half : tid;
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
    // p = A v: A(c, j) from row c of the triangle below the diagonal, A(j, c) from row j on and
    // above it (where the threads of a warp read one row together).
    const int mid = split ? (k + 1 + n) / 2 : n;
    if (col < n && col > k) {
      double part = 0.0;
      const int first = second ? mid : k + 1, end = second ? n : mid;
      const double* row = a + packed_index(col, 0);
      for (int j = first; j < min(end, col); ++j) part += row[j] * v[j];
      for (int j = max(first, col); j < end; ++j) part += a[packed_index(j, col)] * v[j];
      (second ? partial : p)[col] = part;
    }
    __syncthreads();
    // w = p - (v . p) v.
    sum = 0.0;
    for (int c = k + 1 + lane; c < n; c += 32) sum += v[c] * (p[c] + (split ? partial[c] : 0.0));
    const double vp = warp_sum(sum);
    if (owner) w[tid] = tid > k ? p[tid] + (split ? partial[tid] : 0.0) - vp * v[tid] : 0.0;
    __syncthreads();
    // A -= 2 (v w^T + w v^T) on the trailing triangle (rows j >= columns c > k), a warp per row,
    // its lanes on consecutive elements. The rows go to the warps in pairs, the i-th shortest
    // (i + 1 elements) with the i-th longest (m - i), so every pair holds m + 1 elements and the
    // warps get nearly equal shares. (Dealing single elements in storage order balanced as well
    // but spent most of the step walking each thread's position from row to row.)
    {
      const int m = n - k - 1, warps = static_cast<int>(blockDim.x) / 32;
      for (int i = tid / 32; i < (m + 1) / 2; i += warps)
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

/// The properties of every finished slot of b. `scratch` holds gridDim.x packed triangles of
/// atoms x atoms matrices (packed_size), or is null when the matrix is in shared memory (SharedLayout::matrix).
__global__ void __launch_bounds__(kMaxThreads) properties_kernel(BatchView b, bool flatness, double* scratch) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ BlockScratch<double> red;
  __shared__ BlockScratch<int> ired;
  __shared__ double frontier[2];  // the LUMO and HOMO eigenvalues

  const int n = b.atoms, nf = b.faces, tid = static_cast<int>(threadIdx.x);
  const bool atom = tid < n;
  const SharedLayout at(n, nf, scratch == nullptr);
  double* x = reinterpret_cast<double*>(smem + at.x);
  double* v = reinterpret_cast<double*>(smem + at.v);
  double* w = reinterpret_cast<double*>(smem + at.w);
  double* d = reinterpret_cast<double*>(smem + at.d);
  double* e = reinterpret_cast<double*>(smem + at.e);
  double* p = reinterpret_cast<double*>(smem + at.p);
  double* partial = reinterpret_cast<double*>(smem + at.partial);
  double* matrix = scratch ? scratch + static_cast<std::size_t>(blockIdx.x) * packed_size(n)
                           : reinterpret_cast<double*>(smem + at.matrix);
  int* cubic = reinterpret_cast<int*>(smem + at.cubic);
  int* face_arc = reinterpret_cast<int*>(smem + at.face_arc);  // face f's canonical arc, 3 u + k

  for (int slot = static_cast<int>(blockIdx.x); slot < b.capacity; slot += static_cast<int>(gridDim.x)) {
    if (!finished(b.status[slot])) continue;  // block-uniform
    __syncthreads();                          // the previous slot is done with shared memory

    // The slot's graph and coordinates; a neighbour out of range marks a broken graph.
    const std::size_t base = static_cast<std::size_t>(slot) * 3 * n;
    int bad = 0;
    for (int i = tid; i < 3 * n; i += static_cast<int>(blockDim.x)) {
      x[i] = b.x[base + i];
      const int nb = b.cubic[base + i];
      cubic[i] = nb;
      bad |= nb < 0 || nb >= n;
    }
    if (block_max(bad, ired)) {  // block-uniform; the barriers also publish the loads
      if (tid == 0) b.properties[slot] = nan_properties();
      continue;
    }

    // Each atom's faces (F1 of arc k is the face walked from the arc a -> nbr[k], as in
    // ForceField) and the faces it numbers: those whose smallest atom it is, in arc order, which
    // is dual.hpp's faces() order.
    int nbr[3] = {0, 0, 0}, hex[3] = {0, 0, 0}, owned = 0;
    bool canonical[3] = {false, false, false};
    if (atom)
      for (int k = 0; k < 3; ++k) {
        nbr[k] = cubic[3 * tid + k];
        int lowest = 0;
        const int size = walk_face(cubic, tid, nbr[k], lowest, nullptr);
        bad |= size != 5 && size != 6;
        hex[k] = size == 6 ? 1 : 0;
        canonical[k] = lowest == tid;
        owned += canonical[k];
      }
    int faces = 0;
    int id = block_exclusive_scan(owned, ired, &faces);
    if (block_max(bad, ired) || faces != nf) {  // block-uniform
      if (tid == 0) b.properties[slot] = nan_properties();
      continue;
    }
    for (int k = 0; k < 3; ++k)
      if (canonical[k]) face_arc[id++] = 3 * tid + k;

    // Centroid of the atoms (the first block_sum's barriers publish face_arc).
    double centre_c[3];
    for (int c = 0; c < 3; ++c) centre_c[c] = block_sum(atom ? x[3 * tid + c] / n : 0.0, red);
    const wirz::V3 centre{centre_c[0], centre_c[1], centre_c[2]};

    // Per atom: its Wirz energy and, per arc, the squared deviations isomer_properties sums.
    double energy = 0, bond2 = 0, bond0 = 0, angle2 = 0, angle0 = 0, dih2 = 0, dih0 = 0, radius = 0;
    if (atom) {
      const wirz::V3 xa = load(x, tid);
      wirz::V3 bonds[3];
      wirz::ArcParams p[3];
      for (int k = 0; k < 3; ++k) {
        bonds[k] = load(x, nbr[k]) - xa;
        p[k] = wirz::arc_params(hex[k], hex[(k + 1) % 3], hex[(k + 2) % 3]);
      }
      energy = wirz::atom_energy(bonds, p);
      for (int k = 0; k < 3; ++k) {
        const wirz::ArcGeometry arc = wirz::arc_geometry(bonds, k);
        const double angle = acos(clamp_unit(arc.cos_angle)), angle_eq = acos(p[k].cos_angle0);
        const double dih = acos(clamp_unit(arc.cos_dihedral)), dih_eq = acos(p[k].cos_dihedral0);
        bond2 += (arc.bond - p[k].r0) * (arc.bond - p[k].r0);
        bond0 += p[k].r0 * p[k].r0;
        angle2 += (angle - angle_eq) * (angle - angle_eq);
        angle0 += angle_eq * angle_eq;
        dih2 += (dih - dih_eq) * (dih - dih_eq);
        dih0 += dih_eq * dih_eq;
      }
      radius = wirz::norm(xa - centre);
    }

    // Per face: the triangles fanned from its centroid (area and signed volume about the atoms'
    // centroid) and its flatness energy.
    double area = 0, volume = 0;
    if (tid < nf) {
      const int arc = face_arc[tid];
      int atoms[6], lowest = 0;
      const int size = walk_face(cubic, arc / 3, cubic[arc], lowest, atoms);
      wirz::V3 pts[6];
      wirz::V3 c{0, 0, 0};
      for (int i = 0; i < size; ++i) {
        pts[i] = load(x, atoms[i]);
        c.x += pts[i].x / size;
        c.y += pts[i].y / size;
        c.z += pts[i].z / size;
      }
      for (int i = 0; i < size; ++i) {
        const wirz::V3 tri = wirz::cross(pts[i] - c, pts[(i + 1) % size] - c);
        area += 0.5 * sqrt(wirz::dot(tri, tri));
        volume += wirz::dot(c - centre, tri) / 6.0;
      }
      if (flatness) energy += 0.5 * wirz::constants().flatness_force * wirz::face_plane(pts, size).lambda;
    }

    IsomerProperties out;
    energy = block_sum(energy, red);
    bond2 = block_sum(bond2, red);
    bond0 = block_sum(bond0, red);
    angle2 = block_sum(angle2, red);
    angle0 = block_sum(angle0, red);
    dih2 = block_sum(dih2, red);
    dih0 = block_sum(dih0, red);
    out.circumradius = block_max(radius, red);
    out.mean_radius = block_sum(atom ? radius / n : 0.0, red);
    out.area = block_sum(area, red);
    out.volume = fabs(block_sum(volume, red));

    // Hueckel: the 0/1 adjacency matrix, arc by arc, then tridiagonal, then the two
    // frontier eigenvalues (ascending indices n/2 - 1 and n/2), each on its own warp if there
    // are two.
    for (int i = tid; i < static_cast<int>(packed_size(n)); i += static_cast<int>(blockDim.x)) matrix[i] = 0.0;
    __syncthreads();
    if (atom)  // both atoms of an arc write its 1
      for (int k = 0; k < 3; ++k) matrix[packed_index(max(tid, nbr[k]), min(tid, nbr[k]))] = 1.0;
    __syncthreads();
    householder_tridiagonalise(matrix, n, v, w, d, e, p, partial);
    // HOMO on warp 0, LUMO on warp 1 (both on warp 0 when there is only one).
    const int warp = tid / 32;
    if (warp == 0) {
      const double homo = kth_eigenvalue(d, e, n, n / 2 - 1);
      if (tid == 0) frontier[0] = homo;
    }
    if (warp == (blockDim.x > 32 ? 1 : 0)) {
      const double lumo = kth_eigenvalue(d, e, n, n / 2);
      if (tid % 32 == 0) frontier[1] = lumo;
    }
    __syncthreads();

    if (tid == 0) {
      constexpr double kDegrees = 180.0 / std::numbers::pi;
      const double arcs = 3.0 * n;
      out.energy = energy;
      out.bond_rmsd = sqrt(bond2 / arcs);
      out.angle_rmsd = sqrt(angle2 / arcs) * kDegrees;
      out.dihedral_rmsd = sqrt(dih2 / arcs) * kDegrees;
      out.bond_rrmse = sqrt(bond2 / bond0 / arcs);
      out.angle_rrmse = sqrt(angle2 / angle0 / arcs);
      out.dihedral_rrmse = sqrt(dih2 / dih0 / arcs);
      out.sphericity = cbrt(std::numbers::pi) * pow(6.0 * out.volume, 2.0 / 3.0) / out.area;
      out.homo_lumo_gap = frontier[1] - frontier[0];
      b.properties[slot] = out;
    }
  }
}

/// Lets the kernel take `bytes` of dynamic shared memory on the current device (needed above
/// 48 KiB). The attribute belongs to the kernel, which stages of every size share, so it only
/// ever grows; it is set here, when a stage is made, never at a launch (which may be captured
/// into a CUDA graph).
void allow_shared(std::size_t bytes) {
  static std::mutex mutex;
  static std::map<int, std::size_t> allowed;  // by device
  int device = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard lock(mutex);
  std::size_t& current = allowed[device];
  if (bytes <= current) return;  // (the 48 KiB default counts static shared memory too)
  MOLSTEP_CUDA_CHECK(
      cudaFuncSetAttribute(properties_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  current = bytes;
}

}  // namespace

PropertiesStage::PropertiesStage(int atoms, int capacity, bool flatness)
    : atoms_(atoms), capacity_(capacity), flatness_(flatness) {
  if (atoms < 20 || atoms % 2 != 0 || capacity < 1)
    throw Error("PropertiesStage: C" + std::to_string(atoms) + " with " + std::to_string(capacity) +
                " slots is not a batch of fullerenes");
  threads_ = (atoms + 31) / 32 * 32;
  if (threads_ > kMaxThreads)
    throw Error("PropertiesStage: one thread per atom, at most " + std::to_string(kMaxThreads) + " threads: C" +
                std::to_string(atoms) + " is too large");
  const int faces = atoms / 2 + 2;
  int device = 0, optin = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attributes{};
  MOLSTEP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, properties_kernel));
  const std::size_t available = static_cast<std::size_t>(optin) - attributes.sharedSizeBytes;
  shared_bytes_ = SharedLayout(atoms, faces, true).total;
  shared_matrix_ = shared_bytes_ <= available;
  if (!shared_matrix_) shared_bytes_ = SharedLayout(atoms, faces, false).total;
  allow_shared(shared_bytes_);
  // Two threads per atom where the matrix leaves room for only one block per SM (C200: 175 KiB
  // of 228): the Householder reduction, latency-bound with a single 7-warp block, then has twice
  // the warps (properties of 60,000 C200 0.77 -> 0.68 s); the other stages leave the second half
  // idle. Where two blocks fit, doubling the threads halved the blocks and was slower (C100
  // 0.026 -> 0.040 s, C140 0.077 -> 0.12 s per 20,000; bench/RESULTS.md, issue 7 run 13).
  int per_sm = 0;
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  if (shared_matrix_ && 2 * (shared_bytes_ + attributes.sharedSizeBytes) > static_cast<std::size_t>(per_sm) &&
      2 * threads_ <= kMaxThreads)
    threads_ *= 2;
  grid_ = gpu::resident_grid(properties_kernel, threads_, shared_bytes_, capacity);
  if (!shared_matrix_) {
    const std::size_t matrix = packed_size(atoms);
    grid_ = std::max(1, std::min(grid_, static_cast<int>(kScratchBudget / (matrix * sizeof(double)))));
    scratch_.resize(static_cast<std::size_t>(grid_) * matrix);
  }
}

void PropertiesStage::launch(const BatchView& b, cudaStream_t s) {
  if (b.atoms != atoms_ || b.faces != atoms_ / 2 + 2 || b.capacity != capacity_)
    throw Error("PropertiesStage for C" + std::to_string(atoms_) + " x " + std::to_string(capacity_) +
                " launched on a batch of C" + std::to_string(b.atoms) + " x " + std::to_string(b.capacity));
  properties_kernel<<<grid_, threads_, shared_bytes_, s>>>(b, flatness_, shared_matrix_ ? nullptr : scratch_.data());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

std::vector<IsomerProperties> properties_on_gpu(const std::vector<CubicGraph>& graphs,
                                                const std::vector<std::vector<std::array<double, 3>>>& positions,
                                                bool flatness) {
  if (graphs.size() != positions.size())
    throw Error("properties_on_gpu: " + std::to_string(graphs.size()) + " graphs and " +
                std::to_string(positions.size()) + " sets of positions");
  if (graphs.empty()) return {};
  const int n = graphs[0].size();
  for (std::size_t i = 0; i < graphs.size(); ++i)
    if (graphs[i].size() != n || static_cast<int>(positions[i].size()) != n)
      throw Error("properties_on_gpu: isomer " + std::to_string(i) + " has " + std::to_string(graphs[i].size()) +
                  " atoms and " + std::to_string(positions[i].size()) + " positions; isomer 0 has " +
                  std::to_string(n) + " atoms");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();  // not sticky: clear it
    throw Error("properties_on_gpu: no CUDA device");
  }

  const int capacity = static_cast<int>(graphs.size());
  const auto slots = static_cast<std::size_t>(capacity), nn = static_cast<std::size_t>(n);
  std::vector<std::int32_t> cubic(slots * nn * 3);
  std::vector<double> x(slots * nn * 3);
  for (std::size_t i = 0; i < slots; ++i)
    for (std::size_t a = 0; a < nn; ++a)
      for (int k = 0; k < 3; ++k) {
        cubic[(i * nn + a) * 3 + k] = graphs[i].adj[a][k];
        x[(i * nn + a) * 3 + k] = positions[i][a][k];
      }
  const std::vector<std::int32_t> status(slots, kConverged);

  PropertiesStage stage(n, capacity, flatness);
  DeviceBatch batch(n, capacity);
  const BatchView& view = batch.view();
  MOLSTEP_CUDA_CHECK(cudaMemcpy(view.cubic, cubic.data(), cubic.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(view.x, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(
      cudaMemcpy(view.status, status.data(), status.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  stage.launch(view, nullptr);
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<IsomerProperties> out(slots);
  MOLSTEP_CUDA_CHECK(
      cudaMemcpy(out.data(), view.properties, slots * sizeof(IsomerProperties), cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace molstep::fullerene::cuda
