// SPDX-License-Identifier: MIT
// The Wirz force field and its Polak-Ribiere+ optimiser in lockstep: one block per isomer, one
// thread per atom. The arithmetic per atom is wirz_terms.hpp's, shared with the CPU; the
// algorithm is fullerene::optimize's step for step, with block reductions for its sums.
#include "molstep/fullerene/cuda/optimize_cuda.cuh"
#include "molstep/fullerene/cuda/optimize_cuda.hpp"

#include <algorithm>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/block_reduce.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/fullerene/line_search.hpp"
#include "molstep/fullerene/wirz_terms.hpp"
#include "molstep/gpu/cuda_check.cuh"

namespace molstep::fullerene::cuda {
namespace {

template <class T>
using V = wirz::Vec3<T>;

/// Offsets of the block's dynamic shared memory, in bytes: the T vectors first, then the
/// face planes (double, flatness only), then the integer tables.
struct SharedLayout {
  std::size_t x, y, local, planes, cubic, arc_face, face_atoms, face_size, total;

  __host__ __device__ SharedLayout(int n, int nf, bool flatness, std::size_t vec_bytes) {
    const auto up = [](std::size_t v) { return (v + 15) / 16 * 16; };
    const std::size_t nn = static_cast<std::size_t>(n), ff = flatness ? static_cast<std::size_t>(nf) : 0;
    x = 0;
    y = up(x + nn * vec_bytes);
    local = up(y + nn * vec_bytes);
    planes = up(local + 3 * nn * vec_bytes);
    cubic = up(planes + ff * sizeof(wirz::Plane));
    arc_face = up(cubic + 3 * nn * sizeof(int));
    face_atoms = up(arc_face + (flatness ? 3 * nn : 0) * sizeof(int));
    face_size = up(face_atoms + 6 * ff * sizeof(int));
    total = up(face_size + ff * sizeof(int));
  }
};

/// One block's view of its isomer: the thread's atom, its neighbours and arc parameters in
/// registers, the coordinates and gradient pieces in shared memory.
template <class T>
struct Block {
  int n, nf, tid;
  bool active, flatness;
  int nbr[3], back[3], face[3];
  wirz::ArcParamsT<T> p[3];
  V<T>* X;      ///< current coordinates
  V<T>* Y;      ///< line-search trial coordinates
  V<T>* L;      ///< per atom, d(own energy)/d(bond vector k)
  wirz::Plane* planes;
  int* cubic;
  int* arc_face;  ///< face id of each arc (flatness)
  int* face_atoms;
  int* face_size;
  BlockScratch<T>* red;
  BlockScratch<int>* ired;
};

__device__ inline int arc_index(const int* cubic, int u, int v) {
  return cubic[3 * u] == v ? 0 : cubic[3 * u + 1] == v ? 1 : 2;
}
/// The atom after v on the face walked u -> v (CubicGraph::next_on_face).
__device__ inline int next_on_face(const int* cubic, int u, int v) { return cubic[3 * v + (arc_index(cubic, v, u) + 2) % 3]; }

/// Loads slot's graph into shared memory and fills the thread's registers; with flatness, also
/// numbers the faces (by their smallest atom, in atom order) and records every arc's face.
template <class T>
__device__ void setup(Block<T>& k, const BatchView& b, int slot, unsigned char* smem, bool flatness,
                      BlockScratch<T>* red, BlockScratch<int>* ired) {
  k.n = b.atoms;
  k.nf = b.faces;
  k.tid = static_cast<int>(threadIdx.x);
  k.active = k.tid < k.n;
  k.flatness = flatness;
  k.red = red;
  k.ired = ired;
  const SharedLayout at(k.n, k.nf, flatness, sizeof(V<T>));
  k.X = reinterpret_cast<V<T>*>(smem + at.x);
  k.Y = reinterpret_cast<V<T>*>(smem + at.y);
  k.L = reinterpret_cast<V<T>*>(smem + at.local);
  k.planes = reinterpret_cast<wirz::Plane*>(smem + at.planes);
  k.cubic = reinterpret_cast<int*>(smem + at.cubic);
  k.arc_face = reinterpret_cast<int*>(smem + at.arc_face);
  k.face_atoms = reinterpret_cast<int*>(smem + at.face_atoms);
  k.face_size = reinterpret_cast<int*>(smem + at.face_size);

  const int* g = b.cubic + static_cast<std::size_t>(slot) * k.n * 3;
  for (int i = k.tid; i < 3 * k.n; i += blockDim.x) k.cubic[i] = g[i];
  __syncthreads();

  int owned = 0;
  int size[3] = {5, 5, 5};
  bool owner[3] = {false, false, false};
  if (k.active) {
    for (int j = 0; j < 3; ++j) {
      k.nbr[j] = k.cubic[3 * k.tid + j];
      k.back[j] = arc_index(k.cubic, k.nbr[j], k.tid);
    }
    for (int j = 0; j < 3; ++j) {
      int u = k.tid, v = k.nbr[j], len = 1, smallest = k.tid;
      while (v != k.tid && len < 6) {
        smallest = min(smallest, v);
        const int w = next_on_face(k.cubic, u, v);
        u = v;
        v = w;
        ++len;
      }
      size[j] = len;
      owner[j] = smallest == k.tid;
      owned += owner[j];
    }
    for (int j = 0; j < 3; ++j)
      k.p[j] = wirz::arc_params<T>(size[j] - 5, size[(j + 1) % 3] - 5, size[(j + 2) % 3] - 5);
  }
  if (!flatness) return;
  int id = block_exclusive_scan(owned, *ired);
  if (k.active)
    for (int j = 0; j < 3; ++j) {
      if (!owner[j]) continue;
      int u = k.tid, v = k.nbr[j];
      k.face_size[id] = size[j];
      for (int i = 0; i < size[j]; ++i) {
        k.face_atoms[6 * id + i] = u;
        k.arc_face[3 * u + arc_index(k.cubic, u, v)] = id;
        const int w = next_on_face(k.cubic, u, v);
        u = v;
        v = w;
      }
      ++id;
    }
  __syncthreads();
  if (k.active)
    for (int j = 0; j < 3; ++j) k.face[j] = k.arc_face[3 * k.tid + j];
}

template <class T>
__device__ wirz::V3 as_double(V<T> v) {
  return {static_cast<double>(v.x), static_cast<double>(v.y), static_cast<double>(v.z)};
}
template <class T>
__device__ V<T> as_real(wirz::V3 v) {
  return {static_cast<T>(v.x), static_cast<T>(v.y), static_cast<T>(v.z)};
}

/// The plane of face f at coordinates P (double precision whatever T is).
template <class T>
__device__ wirz::Plane plane_of(const Block<T>& k, const V<T>* P, int f) {
  wirz::V3 pts[6];
  const int size = k.face_size[f];
  for (int i = 0; i < size; ++i) pts[i] = as_double(P[k.face_atoms[6 * f + i]]);
  return wirz::face_plane(pts, size);
}

/// The energy at coordinates P, to every thread. P must be written and synchronised.
template <class T>
__device__ T energy(const Block<T>& k, const V<T>* P) {
  T e = 0;
  if (k.active) {
    V<T> bonds[3];
    for (int j = 0; j < 3; ++j) bonds[j] = P[k.nbr[j]] - P[k.tid];
    e = wirz::atom_energy(bonds, k.p);
  }
  if (k.flatness && k.tid < k.nf) e += static_cast<T>(0.5 * wirz::constants().flatness_force * plane_of(k, P, k.tid).lambda);
  return block_sum(e, *k.red);
}

/// The energy at P (to every thread) and the thread's atom's gradient in g.
template <class T>
__device__ T energy_gradient(const Block<T>& k, const V<T>* P, V<T>& g) {
  T e = 0;
  V<T> loc[3];
  if (k.active) {
    V<T> bonds[3];
    for (int j = 0; j < 3; ++j) bonds[j] = P[k.nbr[j]] - P[k.tid];
    e = wirz::atom_local_gradient(bonds, k.p, loc);
    for (int j = 0; j < 3; ++j) k.L[3 * k.tid + j] = loc[j];
  }
  if (k.flatness && k.tid < k.nf) {
    const wirz::Plane plane = plane_of(k, P, k.tid);
    k.planes[k.tid] = plane;
    e += static_cast<T>(0.5 * wirz::constants().flatness_force * plane.lambda);
  }
  __syncthreads();
  g = {0, 0, 0};
  if (k.active) {
    // x[a] enters a's bond vectors with a minus sign and neighbour b's bond vector to a with a plus.
    g = T(-1) * (loc[0] + loc[1] + loc[2]);
    for (int j = 0; j < 3; ++j) g += k.L[3 * k.nbr[j] + k.back[j]];
    if (k.flatness)
      for (int j = 0; j < 3; ++j) g += as_real<T>(wirz::flatness_gradient(as_double(P[k.tid]), k.planes[k.face[j]]));
  }
  return block_sum(e, *k.red);  // its barriers also end every thread's reads of L and planes
}

template <class T>
__device__ V<T> load(const double* p) {
  return {static_cast<T>(p[0]), static_cast<T>(p[1]), static_cast<T>(p[2])};
}
template <class T>
__device__ void store(double* p, V<T> v) {
  p[0] = static_cast<double>(v.x);
  p[1] = static_cast<double>(v.y);
  p[2] = static_cast<double>(v.z);
}

// Registers per thread of the optimiser. Uncapped, nvcc gives it 214 in double (the Wirz terms'
// temporaries), so a C200 block of 224 threads leaves no room for a second on an SM: 132
// isomers in flight on an H100, each a latency-bound chain of barriers. With the golden-section
// search (energies only) a cap of 72 (spilling to L1, four C200 blocks per SM) was best in both
// precisions: C200 double, first 20,000 isomers, GPU optimiser 4.99 -> 3.18 s; caps of 160,
// 128, 96, 80 and 64 measured 5.05, 3.50, 3.74, 3.46 and 3.23 s (bench/RESULTS.md, run 12).
// The Wolfe search evaluates gradients at every probe, whose spills cost more: C200 double,
// first 60,000 isomers, caps of 64, 72, 96, 128 and 168 measured 3.89, 3.68, 2.74, 2.27 and
// 3.34 GPU s, single 1.18, 1.11, 1.43, 1.35 and 2.26 s (run 13). The golden-section search,
// now opt-in, runs with the same caps. The arithmetic is the same whatever the cap.
template <class T>
constexpr int kOptimiseRegisters = sizeof(T) == sizeof(double) ? 128 : 72;

template <class T, bool kFlatness>
__global__ void __maxnreg__(kOptimiseRegisters<T>) optimise_kernel(BatchView b, OptimiseSettings s) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ BlockScratch<T> red;
  __shared__ BlockScratch<int> ired;
  const int n = b.atoms;
  const int max_iterations = s.max_iterations > 0 ? s.max_iterations : 5 * n;
  const int chunk = s.chunk > 0 ? s.chunk : n;  // OptimiseSettings::chunk
  for (int slot = blockIdx.x; slot < b.capacity; slot += gridDim.x) {
    const int status = b.status[slot];
    if (status != kNew && status != kOptimising) continue;
    Block<T> k;
    setup(k, b, slot, smem, kFlatness, &red, &ired);
    k.flatness = kFlatness;  // a constant: the kernel without the term carries none of its code
    const std::size_t base = (static_cast<std::size_t>(slot) * n + k.tid) * 3;
    if (k.active) k.X[k.tid] = load<T>(b.x + base);
    __syncthreads();

    V<T> g;
    T e = energy_gradient(k, k.X, g);
    V<T> dir{0, 0, 0};
    const auto steepest_descent = [&] {
      if (k.active) dir = T(-1) * g;
      const T dd = block_sum(k.active ? dot(dir, dir) : T(0), red);
      dir = (T(1) / wirz::root(dd)) * dir;
    };
    bool steepest = true;
    int it = 0;
    T last_decrease = 0;  // the last step's alpha times its slope (Wolfe search)
    if (status == kNew) {
      steepest_descent();
    } else {
      if (k.active) dir = load<T>(b.direction + base);
      steepest = b.steepest[slot] != 0;
      it = b.iterations[slot];
      last_decrease = static_cast<T>(b.decrease[slot]);
    }

    int result = kOptimising;
    for (int step = 0;; ++step) {
      const T gg = block_sum(k.active ? dot(g, g) : T(0), red);
      const double grad_norm = sqrt(static_cast<double>(gg)) / n;
      if (!isfinite(grad_norm) || !isfinite(static_cast<double>(e))) {
        result = kInvalid;
        break;
      }
      T worst = 0;
      if (k.active)
        for (int j = 0; j < 3; ++j) {
          const T r = wirz::norm(k.X[k.nbr[j]] - k.X[k.tid]);
          worst = max(worst, fabs(r - k.p[j].r0) / k.p[j].r0);
        }
      worst = block_max(worst, red);
      if (grad_norm < s.gradient_tolerance && worst < s.bond_tolerance) {
        result = kConverged;
        break;
      }
      if (it >= max_iterations) {
        result = kFailed;
        break;
      }
      if (step >= chunk) break;

      T alpha = 0;
      bool at_trial = false;  // Y and g_trial hold X + alpha dir and its gradient ...
      T trial_energy = 0;     // ... and this its energy
      V<T> g_trial{0, 0, 0};
      if (s.line_search == LineSearch::golden) {
        alpha = golden_section(
            [&](T alpha_probe) {
              if (k.active) k.Y[k.tid] = k.X[k.tid] + alpha_probe * dir;
              __syncthreads();
              return energy(k, k.Y);
            },
            e);
      } else {
        T slope = block_sum(k.active ? dot(g, dir) : T(0), red);
        if (!(slope < 0)) {  // after an inexact step the CG direction may not descend: restart
          steepest_descent();
          steepest = true;
          slope = block_sum(k.active ? dot(g, dir) : T(0), red);
        }
        const LineStep<T> ls = wolfe_search(
            [&](T alpha_probe, T& e_probe, T& slope_probe) {
              if (k.active) k.Y[k.tid] = k.X[k.tid] + alpha_probe * dir;
              __syncthreads();
              e_probe = energy_gradient(k, k.Y, g_trial);
              slope_probe = block_sum(k.active ? dot(g_trial, dir) : T(0), red);
            },
            e, slope, first_step(last_decrease, slope), static_cast<T>(kMaxLineStep));
        alpha = ls.alpha;
        at_trial = ls.at_last_probe;
        trial_energy = ls.energy;
        if (alpha > 0) last_decrease = alpha * slope;
      }
      // No step along steepest descent: every later iteration would repeat this one.
      if (alpha == 0 && steepest) {
        result = kFailed;
        break;
      }
      T beta = 0;
      if (alpha > 0) {
        V<T> g_new;
        if (at_trial) {  // the search's last probe: its coordinates and gradient, as computed
          if (k.active) k.X[k.tid] = k.Y[k.tid];
          __syncthreads();
          g_new = g_trial;
          e = trial_energy;
        } else {
          if (k.active) k.X[k.tid] = k.X[k.tid] + alpha * dir;
          __syncthreads();
          e = energy_gradient(k, k.X, g_new);
        }
        const T gy = block_sum(k.active ? dot(g_new - g, g_new) : T(0), red);
        if (s.line_search == LineSearch::golden) {
          beta = polak_ribiere(gy, gg);
        } else {
          const T dy = block_sum(k.active ? dot(dir, g_new - g) : T(0), red);
          beta = hestenes_stiefel(gy, dy);
        }
        g = g_new;
      }
      dir = T(-1) * g + beta * dir;
      const T dd = block_sum(k.active ? dot(dir, dir) : T(0), red);
      dir = (T(1) / wirz::root(dd)) * dir;
      steepest = beta == 0;
      ++it;
    }

    if (k.active) {
      store(b.x + base, k.X[k.tid]);
      if (result == kOptimising) store(b.direction + base, dir);
    }
    if (k.tid == 0) {
      b.status[slot] = result;
      b.iterations[slot] = it;
      b.steepest[slot] = steepest ? 1 : 0;
      b.decrease[slot] = static_cast<double>(last_decrease);
    }
    __syncthreads();  // the next slot reuses shared memory
  }
}

__global__ void energy_gradient_kernel(BatchView b, bool flatness, double* energy_out, double* gradient) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ BlockScratch<double> red;
  __shared__ BlockScratch<int> ired;
  const int n = b.atoms;
  for (int slot = blockIdx.x; slot < b.capacity; slot += gridDim.x) {
    const int status = b.status[slot];
    if (status != kNew && status != kOptimising) continue;
    Block<double> k;
    setup(k, b, slot, smem, flatness, &red, &ired);
    const std::size_t base = (static_cast<std::size_t>(slot) * n + k.tid) * 3;
    if (k.active) k.X[k.tid] = load<double>(b.x + base);
    __syncthreads();
    V<double> g;
    const double e = energy_gradient(k, k.X, g);
    if (k.active) store(gradient + base, g);
    if (k.tid == 0) energy_out[slot] = e;
    __syncthreads();
  }
}

template <class Kernel, class... Args>
void launch(Kernel kernel, const BatchView& b, std::size_t vec_bytes, bool flatness, cudaStream_t stream, Args... args) {
  const std::size_t smem = SharedLayout(b.atoms, b.faces, flatness, vec_bytes).total;
  const int threads = b.threads_per_block();
  MOLSTEP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  const int grid = gpu::resident_grid(kernel, threads, smem, b.capacity);
  kernel<<<grid, threads, smem, stream>>>(b, args...);
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_optimise(const BatchView& b, const OptimiseSettings& s, cudaStream_t stream) {
  if (s.single) {
    if (s.flatness)
      launch(optimise_kernel<float, true>, b, sizeof(V<float>), true, stream, s);
    else
      launch(optimise_kernel<float, false>, b, sizeof(V<float>), false, stream, s);
  } else {
    if (s.flatness)
      launch(optimise_kernel<double, true>, b, sizeof(V<double>), true, stream, s);
    else
      launch(optimise_kernel<double, false>, b, sizeof(V<double>), false, stream, s);
  }
}

int optimise_resident_blocks(int atoms, const OptimiseSettings& s) {
  const int threads = (atoms + 31) / 32 * 32, faces = atoms / 2 + 2;
  const std::size_t vec = s.single ? sizeof(V<float>) : sizeof(V<double>);
  const std::size_t smem = SharedLayout(atoms, faces, s.flatness, vec).total;
  const int huge = 1 << 30;
  auto grid = [&](auto kernel) {
    MOLSTEP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    return gpu::resident_grid(kernel, threads, smem, huge);
  };
  if (s.single) return s.flatness ? grid(optimise_kernel<float, true>) : grid(optimise_kernel<float, false>);
  return s.flatness ? grid(optimise_kernel<double, true>) : grid(optimise_kernel<double, false>);
}

void launch_energy_gradient(const BatchView& b, bool flatness, double* energy, double* gradient,
                            cudaStream_t stream) {
  launch(energy_gradient_kernel, b, sizeof(V<double>), flatness, stream, flatness, energy, gradient);
}

}  // namespace molstep::fullerene::cuda

// --- host entry points (optimize_cuda.hpp) ---

namespace molstep::fullerene::cuda {
namespace {

/// A batch holding graphs[i] and positions[i] in slot i, every slot kNew.
DeviceBatch batch_of(const std::vector<CubicGraph>& graphs, const std::vector<std::vector<std::array<double, 3>>>& x) {
  if (graphs.empty() || graphs.size() != x.size()) throw Error("GPU optimiser: need as many coordinate sets as graphs");
  const int n = graphs.front().size();
  DeviceBatch batch(n, static_cast<int>(graphs.size()));
  std::vector<std::int32_t> cubic;
  std::vector<double> pos;
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    if (graphs[i].size() != n || static_cast<int>(x[i].size()) != n)
      throw Error("GPU optimiser: every graph and coordinate set of a batch must have the same size");
    for (const auto& row : graphs[i].adj) cubic.insert(cubic.end(), row.begin(), row.end());
    for (const auto& p : x[i]) pos.insert(pos.end(), p.begin(), p.end());
  }
  const BatchView& b = batch.view();
  MOLSTEP_CUDA_CHECK(cudaMemcpy(b.cubic, cubic.data(), cubic.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(b.x, pos.data(), pos.size() * sizeof(double), cudaMemcpyHostToDevice));
  const std::vector<std::int32_t> fresh(graphs.size(), kNew);
  MOLSTEP_CUDA_CHECK(cudaMemcpy(b.status, fresh.data(), fresh.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  return batch;
}

std::vector<std::array<double, 3>> rows_of(const std::vector<double>& flat, std::size_t slot, int n) {
  std::vector<std::array<double, 3>> out(static_cast<std::size_t>(n));
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < 3; ++c) out[static_cast<std::size_t>(a)][c] = flat[(slot * n + a) * 3 + c];
  return out;
}

}  // namespace

std::vector<EnergyGradient> energy_gradient_on_gpu(const std::vector<CubicGraph>& graphs,
                                                   const std::vector<std::vector<std::array<double, 3>>>& positions,
                                                   bool flatness) {
  DeviceBatch batch = batch_of(graphs, positions);
  const BatchView& b = batch.view();
  gpu::DeviceArray<double> energy(graphs.size()), gradient(graphs.size() * b.atoms * 3);
  launch_energy_gradient(b, flatness, energy.data(), gradient.data(), nullptr);
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> e, g;
  energy.download(e);
  gradient.download(g);
  std::vector<EnergyGradient> out(graphs.size());
  for (std::size_t i = 0; i < graphs.size(); ++i) out[i] = {e[i], rows_of(g, i, b.atoms)};
  return out;
}

std::vector<GpuOptimized> optimize_on_gpu(const std::vector<CubicGraph>& graphs,
                                          const std::vector<std::vector<std::array<double, 3>>>& positions,
                                          const OptimizeOptions& options, bool single, int chunk) {
  DeviceBatch batch = batch_of(graphs, positions);
  const BatchView& b = batch.view();
  const OptimiseSettings settings{options.max_iterations, chunk,  options.gradient_tolerance, options.bond_tolerance,
                                  options.flatness,       single, options.line_search};
  std::vector<std::int32_t> status(graphs.size()), iterations(graphs.size());
  for (;;) {
    launch_optimise(b, settings, nullptr);
    MOLSTEP_CUDA_CHECK(cudaMemcpy(status.data(), b.status, status.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
    if (std::all_of(status.begin(), status.end(), [](std::int32_t s) { return finished(s); })) break;
  }
  MOLSTEP_CUDA_CHECK(
      cudaMemcpy(iterations.data(), b.iterations, iterations.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  std::vector<double> x(graphs.size() * b.atoms * 3);
  MOLSTEP_CUDA_CHECK(cudaMemcpy(x.data(), b.x, x.size() * sizeof(double), cudaMemcpyDeviceToHost));
  std::vector<GpuOptimized> out(graphs.size());
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    out[i].status = status[i] == kConverged ? IsomerStatus::converged
                    : status[i] == kFailed  ? IsomerStatus::failed
                                            : IsomerStatus::invalid;
    out[i].iterations = iterations[i];
    out[i].positions = rows_of(x, i, b.atoms);
  }
  return out;
}

}  // namespace molstep::fullerene::cuda
