// SPDX-License-Identifier: MIT
// The graph stages as lockstep kernels: one block per isomer slot (grid-stride over the slots),
// one thread per atom, every intermediate in shared memory or registers. Each kernel computes
// what its CPU counterpart in dual.cpp or embed.cpp computes, in the same numbering.
#include "molstep/fullerene/cuda/graph_stages.cuh"
#include "molstep/fullerene/cuda/graph_stages.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/block_reduce.cuh"
#include "molstep/fullerene/embed.hpp"
#include "molstep/gpu/cuda_check.cuh"

namespace molstep::fullerene::cuda {

namespace {

/// Largest block the collectives of block_reduce.cuh handle (32 warps).
constexpr int kMaxThreads = 1024;

/// Dynamic shared memory of every kernel here; each carves it into its own arrays.
extern __shared__ __align__(16) unsigned char shared_bytes[];

/// Position of v in the three neighbours at `row`, or -1.
__device__ inline int arc3(const std::int32_t* row, int v) {
  for (int j = 0; j < 3; ++j)
    if (row[j] == v) return j;
  return -1;
}

/// Walks the face of the arc 0 -> adj[0][0] as outer_face() does, calling mark(atom, k) for its
/// k-th atom. Returns the face's size, or -1 if the walk leaves 0..n-1, meets a one-sided arc, or
/// does not close within n atoms (where outer_face() throws). `adj` is n rows of 3 (shared or
/// global memory). For one thread.
template <class Mark>
__device__ int walk_outer_face(const std::int32_t* adj, int n, Mark mark) {
  mark(0, 0);
  int h = 1;
  for (int u = 0, v = adj[0]; v != 0;) {
    if (h >= n || v < 0 || v >= n) return -1;
    mark(v, h++);
    const int j = arc3(adj + 3 * v, u);  // next_on_face(u, v) = prev(v, u)
    if (j < 0) return -1;
    const int w = adj[3 * v + (j + 2) % 3];
    u = v;
    v = w;
  }
  return h;
}

// Calls work(slot) for each slot of the batch still to work on (status kNew: block-uniform), the
// slots strided over the grid, each after a barrier (the previous slot is done with shared
// memory). work gives up on a slot by marking it and returning.
template <class Work>
__device__ inline void for_each_new_slot(const BatchView& b, Work work) {
  for (int slot = blockIdx.x; slot < b.capacity; slot += gridDim.x) {
    if (b.status[slot] != kNew) continue;
    __syncthreads();
    work(slot);
  }
}

// ---------------------------------------------------------------------------------------------
// Dualise. Thread u < faces handles dual vertex u, thread i < atoms triangle (atom) i.

/// Degree of dual vertex u as stored, 0 when it is not a usable row (so a broken dual cannot
/// send a thread outside its row).
__device__ inline int dual_degree(const int* degree, int u) {
  const int d = degree[u];
  return d <= 6 ? d : 0;
}

/// Position of w in dual vertex v's neighbour list, or -1 (also for v out of range).
__device__ inline int dual_arc(const int* dual, const int* degree, int faces, int v, int w) {
  if (v < 0 || v >= faces) return -1;
  for (int j = 0, d = dual_degree(degree, v); j < d; ++j)
    if (dual[6 * v + j] == w) return j;
  return -1;
}

__global__ void dualize_kernel(BatchView b) {
  const int n = b.atoms, faces = b.faces, tid = static_cast<int>(threadIdx.x);
  int* dual = reinterpret_cast<int*>(shared_bytes);  // [faces][6]
  int* degree = dual + 6 * faces;                    // [faces]
  int* triangle = degree + faces;                    // [faces][6]: arc -> triangle id, -1 none
  int* canonical = triangle + 6 * faces;             // [atoms]: triangle id -> 6 u + j of its canonical arc
  __shared__ BlockScratch<int> scratch;

  for_each_new_slot(b, [&](int slot) {
    const std::size_t s = static_cast<std::size_t>(slot);
    for (int k = tid; k < 6 * faces; k += blockDim.x) {
      dual[k] = b.dual[s * 6 * faces + k];
      triangle[k] = -1;
    }
    for (int f = tid; f < faces; f += blockDim.x) degree[f] = b.degree[s * faces + f];
    __syncthreads();

    // The triangle (u, v, w = next(u, v)) of arc u -> v is counted at u when u is its smallest
    // vertex (dualize's `u > v || u > w` skip); u's triangles are numbered after those of 0..u-1.
    const int d = tid < faces ? dual_degree(degree, tid) : 0;
    const auto owns = [&](int j) {
      const int v = dual[6 * tid + j], w = dual[6 * tid + (j + 1) % d];
      return tid < v && tid < w && v < faces && w < faces;
    };
    int count = 0;
    for (int j = 0; j < d; ++j) count += owns(j);
    int total = 0;
    int id = block_exclusive_scan(count, scratch, &total);
    for (int j = 0; j < d; ++j) {
      if (!owns(j)) continue;
      const int v = dual[6 * tid + j], w = dual[6 * tid + (j + 1) % d];
      if (id < n) canonical[id] = 6 * tid + j;
      triangle[6 * tid + j] = id;
      if (const int k = dual_arc(dual, degree, faces, v, w); k >= 0) triangle[6 * v + k] = id;
      if (const int k = dual_arc(dual, degree, faces, w, tid); k >= 0) triangle[6 * w + k] = id;
      ++id;
    }
    __syncthreads();

    // Atom i: the triangles across the edges uv, vw, wu of its triangle read at the canonical arc.
    if (tid < n) {
      int out[3] = {-1, -1, -1};
      if (tid < total) {
        const int u = canonical[tid] / 6, j = canonical[tid] % 6, du = dual_degree(degree, u);
        const int v = dual[6 * u + j], w = dual[6 * u + (j + 1) % du];
        const int kv = dual_arc(dual, degree, faces, v, u), kw = dual_arc(dual, degree, faces, w, v);
        out[0] = kv >= 0 ? triangle[6 * v + kv] : -1;
        out[1] = kw >= 0 ? triangle[6 * w + kw] : -1;
        out[2] = triangle[6 * u + (j + 1) % du];
      }
      for (int k = 0; k < 3; ++k) b.cubic[(s * n + tid) * 3 + k] = out[k];
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Tutte embedding. Thread i < atoms handles atom i.

/// Loads slot s's neighbour rows into `adj` (shared) and this thread's into `nb`; whether the
/// graph is cubic with neighbour lists that agree (every neighbour in range, distinct, not the
/// atom itself, listing the atom back). Block-uniform; every thread must call it.
__device__ bool load_cubic(const BatchView& b, std::size_t s, int* adj, int (&nb)[3], BlockScratch<int>& scratch) {
  const int n = b.atoms, tid = static_cast<int>(threadIdx.x);
  if (tid < n)
    for (int k = 0; k < 3; ++k) adj[3 * tid + k] = nb[k] = b.cubic[(s * n + tid) * 3 + k];
  __syncthreads();
  int bad = 0;
  if (tid < n) {
    bad = nb[0] == nb[1] || nb[1] == nb[2] || nb[0] == nb[2];
    for (int k = 0; k < 3; ++k) {
      const int v = nb[k];
      bad |= v < 0 || v >= n || v == tid;
      if (!bad) bad |= arc3(adj + 3 * v, tid) < 0;
    }
  }
  return block_sum(bad, scratch) == 0;
}

__global__ void tutte_kernel(BatchView b, double tolerance, int max_iterations) {
  const int n = b.atoms, tid = static_cast<int>(threadIdx.x);
  const bool atom = tid < n;
  double* p = reinterpret_cast<double*>(shared_bytes);  // [atoms][2]: search direction (fixed atoms: 0)
  int* adj = reinterpret_cast<int*>(p + 2 * n);          // [atoms][3]
  int* outer = adj + 3 * n;                              // [atoms]: position on the outer face, -1 free
  __shared__ int outer_size;
  __shared__ BlockScratch<int> iscratch;
  __shared__ BlockScratch<double> scratch;

  for_each_new_slot(b, [&](int slot) {
    const std::size_t s = static_cast<std::size_t>(slot);
    int nb[3] = {0, 0, 0};
    if (atom) outer[tid] = -1;
    const bool cubic = load_cubic(b, s, adj, nb, iscratch);  // its barriers publish `outer` too
    if (cubic && tid == 0) outer_size = walk_outer_face(adj, n, [&](int v, int k) { outer[v] = k; });
    __syncthreads();
    const int h = cubic ? outer_size : -1;
    if (h < 0) {
      if (tid == 0) b.status[slot] = kInvalid;
      return;
    }

    // Fixed atoms on the unit circle, published in p for the right-hand sides of their free
    // neighbours; free neighbours by index (-1 for fixed ones) for the products.
    const int k_outer = atom ? outer[tid] : -1;
    const bool free_atom = atom && k_outer < 0;
    double fixed[2] = {0.0, 0.0};
    if (k_outer >= 0) {
      const double t = 2.0 * std::numbers::pi * k_outer / h;
      fixed[0] = sin(t);
      fixed[1] = cos(t);
    }
    if (atom) {
      p[2 * tid] = fixed[0];
      p[2 * tid + 1] = fixed[1];
    }
    __syncthreads();
    double r[2] = {0.0, 0.0};
    int free_nb[3] = {-1, -1, -1};
    if (free_atom)
      for (int k = 0; k < 3; ++k) {
        if (outer[nb[k]] < 0) {
          free_nb[k] = nb[k];
        } else {
          r[0] += p[2 * nb[k]];
          r[1] += p[2 * nb[k] + 1];
        }
      }
    __syncthreads();  // every right-hand side read before p becomes the search direction

    // Conjugate gradients from y = 0 on (3 I - A) y = rhs over the free atoms, as embed.cpp's
    // solve(), one coordinate per column; a coordinate stops when its residual is small enough.
    double y[2] = {0.0, 0.0}, dir[2] = {r[0], r[1]}, rr[2], stop[2];
    if (atom) {
      p[2 * tid] = dir[0];
      p[2 * tid + 1] = dir[1];
    }
    for (int c = 0; c < 2; ++c) {
      rr[c] = block_sum(r[c] * r[c], scratch);  // its barriers also publish p
      stop[c] = tolerance * tolerance * rr[c];
    }
    for (int it = 0; it < max_iterations; ++it) {
      const bool active[2] = {!(rr[0] <= stop[0]), !(rr[1] <= stop[1])};
      if (!active[0] && !active[1]) break;
      double q[2] = {0.0, 0.0};
      if (free_atom)
        for (int c = 0; c < 2; ++c) {
          double v = 3.0 * dir[c];
          for (int k = 0; k < 3; ++k)
            if (free_nb[k] >= 0) v -= p[2 * free_nb[k] + c];
          q[c] = v;
        }
      for (int c = 0; c < 2; ++c) {
        if (!active[c]) continue;
        const double alpha = rr[c] / block_sum(dir[c] * q[c], scratch);
        y[c] += alpha * dir[c];
        r[c] -= alpha * q[c];
      }
      for (int c = 0; c < 2; ++c) {
        if (!active[c]) continue;
        const double rr_new = block_sum(r[c] * r[c], scratch);
        const double beta = rr_new / rr[c];
        rr[c] = rr_new;
        dir[c] = r[c] + beta * dir[c];
      }
      // The block sums above separate the products' reads of p from this write.
      if (atom) {
        p[2 * tid] = dir[0];
        p[2 * tid + 1] = dir[1];
      }
      __syncthreads();
    }
    if (!(rr[0] <= stop[0] && rr[1] <= stop[1])) {
      if (tid == 0) b.status[slot] = kInvalid;
      return;
    }
    if (atom)
      for (int c = 0; c < 2; ++c) b.layout[(s * n + tid) * 2 + c] = free_atom ? y[c] : fixed[c];
  });
}

// ---------------------------------------------------------------------------------------------
// Spherical projection. Thread i < atoms handles atom i; thread d <= dmax sums depth d.

__global__ void projection_kernel(BatchView b, double mean_bond) {
  const int n = b.atoms, tid = static_cast<int>(threadIdx.x);
  const bool atom = tid < n;
  // [atoms][2] layout then [atoms][2] centroids by depth; later [atoms][3] positions.
  double* buffer = reinterpret_cast<double*>(shared_bytes);
  int* depth = reinterpret_cast<int*>(buffer + 4 * n);  // [atoms]
  __shared__ BlockScratch<int> iscratch;
  __shared__ BlockScratch<double> scratch;

  for_each_new_slot(b, [&](int slot) {
    const std::size_t s = static_cast<std::size_t>(slot);
    const std::int32_t* cubic = b.cubic + s * n * 3;
    int nb[3] = {0, 0, 0};
    double xy[2] = {0.0, 0.0};
    int bad = 0;
    if (atom) {
      for (int k = 0; k < 3; ++k) {
        nb[k] = cubic[3 * tid + k];
        bad |= nb[k] < 0 || nb[k] >= n;
      }
      xy[0] = b.layout[(s * n + tid) * 2];
      xy[1] = b.layout[(s * n + tid) * 2 + 1];
      depth[tid] = -1;
    }
    __syncthreads();
    if (tid == 0 && walk_outer_face(cubic, n, [&](int v, int) { depth[v] = 0; }) < 0) bad = 1;
    if (block_sum(bad, iscratch) != 0) {  // its barriers publish the outer face's depths
      if (tid == 0) b.status[slot] = kInvalid;
      return;
    }

    // Breadth-first search from the outer face in lockstep, one level per round: depth = graph
    // distance to the outer face; dmax = the last level reached.
    int my_depth = atom ? depth[tid] : 0, dmax = 0;
    for (;; ++dmax) {
      const bool reached = my_depth < 0 && (depth[nb[0]] == dmax || depth[nb[1]] == dmax || depth[nb[2]] == dmax);
      __syncthreads();  // this level read everywhere before it grows
      if (reached) depth[tid] = my_depth = dmax + 1;
      if (block_sum(static_cast<int>(reached), iscratch) == 0) break;
    }
    if (block_sum(static_cast<int>(my_depth < 0), iscratch) != 0) {  // not connected
      if (tid == 0) b.status[slot] = kInvalid;
      return;
    }

    // Centroid of each depth's layout points, summed in atom order as spherical_projection does.
    double* layout = buffer;
    double* centroid = buffer + 2 * n;
    if (atom) {
      layout[2 * tid] = xy[0];
      layout[2 * tid + 1] = xy[1];
    }
    __syncthreads();
    if (tid <= dmax) {
      double sum[2] = {0.0, 0.0};
      int count = 0;
      for (int v = 0; v < n; ++v)
        if (depth[v] == tid) {
          sum[0] += layout[2 * v];
          sum[1] += layout[2 * v + 1];
          ++count;
        }
      centroid[2 * tid] = sum[0] / count;
      centroid[2 * tid + 1] = sum[1] / count;
    }
    __syncthreads();

    double x[3] = {0.0, 0.0, 0.0};
    if (atom) {
      const double phi = (my_depth + 0.5) * std::numbers::pi / (dmax + 1);
      const double theta = atan2(xy[0] - centroid[2 * my_depth], xy[1] - centroid[2 * my_depth + 1]);
      x[0] = cos(theta) * sin(phi);
      x[1] = sin(theta) * sin(phi);
      x[2] = cos(phi);
    }
    double centre[3];
    for (int c = 0; c < 3; ++c) centre[c] = block_sum(atom ? x[c] / n : 0.0, scratch);
    // The block sums above separate the centroid reads from this reuse of the buffer.
    double* position = buffer;
    if (atom)
      for (int c = 0; c < 3; ++c) {
        x[c] -= centre[c];
        position[3 * tid + c] = x[c];
      }
    __syncthreads();
    double bonds = 0.0;
    if (atom)
      for (int k = 0; k < 3; ++k) {
        const double* w = position + 3 * nb[k];
        bonds += norm3d(x[0] - w[0], x[1] - w[1], x[2] - w[2]);
      }
    const double scale = mean_bond / (block_sum(bonds, scratch) / (3.0 * n));
    if (atom)
      for (int c = 0; c < 3; ++c) b.x[(s * n + tid) * 3 + c] = x[c] * scale;
  });
}

/// Launches `kernel` over b's slots: b.threads_per_block() threads and `shared` bytes of dynamic
/// shared memory per block, as many blocks as the device holds at once (at most one per slot).
template <class... Args>
void launch_lockstep(void (*kernel)(BatchView, Args...), const BatchView& b, std::size_t shared, cudaStream_t s,
                     Args... args) {
  if (b.capacity <= 0 || b.atoms <= 0) return;
  const int threads = b.threads_per_block();
  if (threads > kMaxThreads)
    throw Error("the lockstep fullerene kernels run one thread per atom, at most " + std::to_string(kMaxThreads) +
                " atoms: C" + std::to_string(b.atoms) + " is too large");
  if (shared > 48 * 1024)
    MOLSTEP_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  int device = 0, sms = 0, per_sm = 0;
  MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
  MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MOLSTEP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  if (per_sm < 1)
    throw Error("a lockstep fullerene kernel for C" + std::to_string(b.atoms) + " (" + std::to_string(threads) +
                " threads, " + std::to_string(shared) + " bytes of shared memory) does not fit on the GPU");
  const int blocks = std::min(b.capacity, per_sm * sms);
  kernel<<<blocks, threads, shared, s>>>(b, args...);
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_dualize(const BatchView& b, cudaStream_t s) {
  const auto n = static_cast<std::size_t>(b.atoms), faces = static_cast<std::size_t>(b.faces);
  launch_lockstep(dualize_kernel, b, (13 * faces + n) * sizeof(int), s);
}

void launch_tutte(const BatchView& b, cudaStream_t s) {
  const TutteOptions options;  // the CPU's defaults
  const int max_iterations = options.max_iterations > 0 ? options.max_iterations : 10 * b.atoms;
  const auto n = static_cast<std::size_t>(b.atoms);
  launch_lockstep(tutte_kernel, b, n * (2 * sizeof(double) + 4 * sizeof(int)), s, options.tolerance, max_iterations);
}

void launch_projection(const BatchView& b, cudaStream_t s) {
  const auto n = static_cast<std::size_t>(b.atoms);
  launch_lockstep(projection_kernel, b, n * (4 * sizeof(double) + sizeof(int)), s, kProjectionMeanBond);
}

GraphStagesOutput run_graph_stages(const std::vector<Triangulation>& duals, std::span<const int> status) {
  GraphStagesOutput out;
  if (duals.empty()) return out;
  if (!status.empty() && status.size() != duals.size())
    throw Error("run_graph_stages: " + std::to_string(status.size()) + " statuses for " +
                std::to_string(duals.size()) + " duals");
  const int faces = duals[0].size(), atoms = duals[0].atoms();
  for (std::size_t i = 0; i < duals.size(); ++i)
    if (duals[i].size() != faces || duals[i].degree.size() != duals[i].adj.size())
      throw Error("run_graph_stages: dual " + std::to_string(i) + " has " + std::to_string(duals[i].size()) +
                  " vertices and " + std::to_string(duals[i].degree.size()) + " degrees; dual 0 has " +
                  std::to_string(faces) + " vertices");
  if (atoms < 1) throw Error("run_graph_stages: duals of " + std::to_string(faces) + " vertices have no atoms");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    throw Error("run_graph_stages: no CUDA device");
  }

  const int capacity = static_cast<int>(duals.size());
  const auto slots = static_cast<std::size_t>(capacity), n = static_cast<std::size_t>(atoms);
  std::vector<std::int32_t> dual(slots * faces * 6);
  std::vector<std::uint8_t> degree(slots * faces);
  for (std::size_t i = 0; i < slots; ++i)
    for (int f = 0; f < faces; ++f) {
      degree[i * faces + f] = duals[i].degree[f];
      for (int j = 0; j < 6; ++j) dual[(i * faces + f) * 6 + j] = duals[i].adj[f][j];
    }
  std::vector<std::int32_t> state(slots, kNew);
  if (!status.empty()) std::copy(status.begin(), status.end(), state.begin());

  DeviceBatch batch(atoms, capacity);
  const BatchView& b = batch.view();
  MOLSTEP_CUDA_CHECK(cudaMemcpy(b.dual, dual.data(), dual.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(b.degree, degree.data(), degree.size(), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(b.status, state.data(), slots * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  // All bits set: -1 neighbours, NaN coordinates.
  MOLSTEP_CUDA_CHECK(cudaMemset(b.cubic, 0xff, slots * n * 3 * sizeof(std::int32_t)));
  MOLSTEP_CUDA_CHECK(cudaMemset(b.layout, 0xff, slots * n * 2 * sizeof(double)));
  MOLSTEP_CUDA_CHECK(cudaMemset(b.x, 0xff, slots * n * 3 * sizeof(double)));

  launch_dualize(b, nullptr);
  launch_tutte(b, nullptr);
  launch_projection(b, nullptr);
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<std::int32_t> cubic(slots * n * 3);
  std::vector<double> layout(slots * n * 2), x(slots * n * 3);
  MOLSTEP_CUDA_CHECK(cudaMemcpy(cubic.data(), b.cubic, cubic.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(layout.data(), b.layout, layout.size() * sizeof(double), cudaMemcpyDeviceToHost));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(x.data(), b.x, x.size() * sizeof(double), cudaMemcpyDeviceToHost));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(state.data(), b.status, slots * sizeof(std::int32_t), cudaMemcpyDeviceToHost));

  out.graphs.resize(slots);
  out.layouts.resize(slots);
  out.positions.resize(slots);
  out.status.assign(state.begin(), state.end());
  for (std::size_t i = 0; i < slots; ++i) {
    out.graphs[i].adj.resize(n);
    out.layouts[i].resize(n);
    out.positions[i].resize(n);
    for (std::size_t a = 0; a < n; ++a) {
      for (int k = 0; k < 3; ++k) out.graphs[i].adj[a][k] = cubic[(i * n + a) * 3 + k];
      for (int c = 0; c < 2; ++c) out.layouts[i][a][c] = layout[(i * n + a) * 2 + c];
      for (int c = 0; c < 3; ++c) out.positions[i][a][c] = x[(i * n + a) * 3 + c];
    }
  }
  return out;
}

}  // namespace molstep::fullerene::cuda
