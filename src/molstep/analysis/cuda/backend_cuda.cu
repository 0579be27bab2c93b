// SPDX-License-Identifier: MIT
// The analysis engine's GPU backend: one fused kernel for every one-body sum, tiled all-pairs
// distance histograms, and double-buffered frames whose uploads overlap the kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "molstep/analysis/backend.hpp"
#include "molstep/analysis/partition.hpp"
#include "molstep/core/error.hpp"
#include "molstep/gpu/cuda_check.cuh"
#include "molstep/gpu/pinned_buffer.cuh"
#include "molstep/gpu/device_array.cuh"

namespace molstep::analysis {

namespace {

constexpr int kTile = 256;          // atoms per tile and threads per pair block
constexpr int kMomentThreads = 256;
constexpr int kMomentBlocks = 512;  // fixed, so the sums' order (and result) never varies
constexpr int kSums = Moments::kValues;  // doubles per Moments, in Moments::packed() order
constexpr int kFlushItems = 4096;   // tiles per block between histogram flushes (< 2^32 counts)

struct BinParams {
  double len[3], inv[3];
  double rmax2, inv_width;
  int bins;
};

BinParams to_device(const PairBinning& b) {
  BinParams p{};
  for (int d = 0; d < 3; ++d) {
    p.len[d] = b.len[d];
    p.inv[d] = b.inv_len[d];
  }
  p.rmax2 = b.rmax2;
  p.inv_width = b.inv_width;
  p.bins = b.bins;
  return p;
}

// Mirrors pair_bin() in pair_distance.hpp operation for operation, with explicit
// round-to-nearest intrinsics so the compiler cannot fuse a multiply and an add.
__device__ __forceinline__ int device_pair_bin(const BinParams& b, double xi, double yi, double zi, double xj,
                                               double yj, double zj) {
  double dx = __dsub_rn(xj, xi);
  double dy = __dsub_rn(yj, yi);
  double dz = __dsub_rn(zj, zi);
  dx = __dsub_rn(dx, __dmul_rn(b.len[0], rint(__dmul_rn(dx, b.inv[0]))));
  dy = __dsub_rn(dy, __dmul_rn(b.len[1], rint(__dmul_rn(dy, b.inv[1]))));
  dz = __dsub_rn(dz, __dmul_rn(b.len[2], rint(__dmul_rn(dz, b.inv[2]))));
  const double r2 = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
  if (!(r2 < b.rmax2)) return b.bins;
  const int bin = static_cast<int>(__dmul_rn(__dsqrt_rn(r2), b.inv_width));
  return bin < b.bins ? bin : b.bins - 1;
}

// Shared-memory histograms, one per group of warps (fewer same-address atomics), flushed to the
// global 64-bit histogram before a 32-bit counter could overflow.
struct BlockHistogram {
  unsigned* h;
  int size, copies;
  __device__ void zero() {
    for (int k = threadIdx.x; k < size * copies; k += blockDim.x) h[k] = 0;
  }
  __device__ void add(int bin) { atomicAdd(&h[(threadIdx.x / 32 % copies) * size + bin], 1u); }
  __device__ void flush(unsigned long long* global) {
    __syncthreads();
    for (int k = threadIdx.x; k < size; k += blockDim.x) {
      unsigned long long sum = 0;
      for (int c = 0; c < copies; ++c) sum += h[c * size + k];
      if (sum) atomicAdd(&global[k], sum);
    }
    __syncthreads();
    zero();
    __syncthreads();
  }
};

// Loads tile `tile` of n atoms into shared memory (one atom per thread) between barriers.
__device__ __forceinline__ void load_tile(const double* __restrict__ x, const double* __restrict__ y,
                                          const double* __restrict__ z, long long n, long long tile, double* sx,
                                          double* sy, double* sz) {
  const long long j = tile * kTile + threadIdx.x;
  __syncthreads();
  if (j < n) {
    sx[threadIdx.x] = x[j];
    sy[threadIdx.x] = y[j];
    sz[threadIdx.x] = z[j];
  }
}

// All unordered pairs of one set of n atoms. Tiles are paired cyclically (tile t with tiles
// t..t+T/2 mod T, the half-way tile only for t < T/2 when T is even), so every tile pair is
// visited exactly once and all rows carry the same work: the seed's balanced schedule, at tile
// level and with its even-N pairing fixed.
__global__ void same_set_histogram(const double* __restrict__ x, const double* __restrict__ y,
                                   const double* __restrict__ z, int n, BinParams b, unsigned long long* global,
                                   int copies) {
  extern __shared__ double smem[];
  double* sx = smem;
  double* sy = sx + kTile;
  double* sz = sy + kTile;
  BlockHistogram hist{reinterpret_cast<unsigned*>(sz + kTile), b.bins + 1, copies};
  hist.zero();
  const long long tiles = (n + kTile - 1) / kTile;
  const long long per_row = tiles / 2 + 1;
  const long long items = tiles * per_row;
  int since_flush = 0;
  for (long long item = blockIdx.x; item < items; item += gridDim.x) {
    const long long ti = item / per_row;
    const long long k = item % per_row;
    if (k == tiles / 2 && tiles % 2 == 0 && ti >= tiles / 2) continue;
    const long long tj = (ti + k) % tiles;
    const long long i = ti * kTile + threadIdx.x;
    load_tile(x, y, z, n, tj, sx, sy, sz);
    __syncthreads();
    const int jcount = static_cast<int>(min(static_cast<long long>(kTile), n - tj * kTile));
    if (i < n) {
      const double xi = x[i], yi = y[i], zi = z[i];
      for (int jj = (k == 0 ? threadIdx.x + 1 : 0); jj < jcount; ++jj) {
        hist.add(device_pair_bin(b, xi, yi, zi, sx[jj], sy[jj], sz[jj]));
      }
    }
    if (++since_flush == kFlushItems) {
      hist.flush(global);
      since_flush = 0;
    }
  }
  hist.flush(global);
}

// Every (i in A, j in B) with different atom indices.
__global__ void cross_set_histogram(const double* __restrict__ xa, const double* __restrict__ ya,
                                    const double* __restrict__ za, const unsigned* __restrict__ ia, int na,
                                    const double* __restrict__ xb, const double* __restrict__ yb,
                                    const double* __restrict__ zb, const unsigned* __restrict__ ib, int nb,
                                    BinParams b, unsigned long long* global, int copies) {
  extern __shared__ double smem[];
  double* sx = smem;
  double* sy = sx + kTile;
  double* sz = sy + kTile;
  unsigned* sid = reinterpret_cast<unsigned*>(sz + kTile);
  BlockHistogram hist{sid + kTile, b.bins + 1, copies};
  hist.zero();
  const long long ta = (na + kTile - 1) / kTile;
  const long long tb = (nb + kTile - 1) / kTile;
  int since_flush = 0;
  for (long long item = blockIdx.x; item < ta * tb; item += gridDim.x) {
    const long long ti = item / tb;
    const long long tj = item % tb;
    const long long i = ti * kTile + threadIdx.x;
    load_tile(xb, yb, zb, nb, tj, sx, sy, sz);
    if (tj * kTile + threadIdx.x < nb) sid[threadIdx.x] = ib[tj * kTile + threadIdx.x];
    __syncthreads();
    const int jcount = static_cast<int>(min(static_cast<long long>(kTile), nb - tj * kTile));
    if (i < na) {
      const double xi = xa[i], yi = ya[i], zi = za[i];
      const unsigned self = ia[i];
      for (int jj = 0; jj < jcount; ++jj) {
        if (sid[jj] != self) hist.add(device_pair_bin(b, xi, yi, zi, sx[jj], sy[jj], sz[jj]));
      }
    }
    if (++since_flush == kFlushItems) {
      hist.flush(global);
      since_flush = 0;
    }
  }
  hist.flush(global);
}

__global__ void scatter_by_id(const double* __restrict__ packed, int stride, const std::int64_t* __restrict__ id,
                              int n, double* x, double* y, double* z) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const std::int64_t i = id[k] - 1;
    const double* p = packed + static_cast<long long>(k) * stride;
    x[i] = p[0];
    y[i] = p[1];
    z[i] = p[2];
  }
}

__global__ void gather(const double* __restrict__ x, const double* __restrict__ y, const double* __restrict__ z,
                       const unsigned* __restrict__ index, int n, double* gx, double* gy, double* gz) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) {
    const unsigned i = index[k];
    gx[k] = x[i];
    gy[k] = y[i];
    gz[k] = z[i];
  }
}

// One pass over the atoms for every selection's 15 sums: each block sums a fixed strided set of
// atoms and writes its partial sums; moments_total adds the partials in block order.
__global__ void moments_partial(const double* __restrict__ x, const double* __restrict__ y,
                                const double* __restrict__ z, const double* __restrict__ mass,
                                const double* __restrict__ charge, const unsigned long long* __restrict__ member,
                                int n, int nsel, double* partial) {
  __shared__ double red[kMomentThreads / 32][kSums];
  for (int s = 0; s < nsel; ++s) {
    double acc[kSums] = {};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
      if (!((member[i] >> s) & 1ull)) continue;
      const double m = mass[i], q = charge[i], px = x[i], py = y[i], pz = z[i];
      acc[0] += 1;
      acc[1] += m;
      acc[2] += q;
      acc[3] += m * px;
      acc[4] += m * py;
      acc[5] += m * pz;
      acc[6] += q * px;
      acc[7] += q * py;
      acc[8] += q * pz;
      acc[9] += m * px * px;
      acc[10] += m * py * py;
      acc[11] += m * pz * pz;
      acc[12] += m * px * py;
      acc[13] += m * px * pz;
      acc[14] += m * py * pz;
    }
    for (int v = 0; v < kSums; ++v) {
      for (int off = 16; off > 0; off /= 2) acc[v] += __shfl_down_sync(0xffffffffu, acc[v], off);
    }
    if (threadIdx.x % 32 == 0) {
      for (int v = 0; v < kSums; ++v) red[threadIdx.x / 32][v] = acc[v];
    }
    __syncthreads();
    if (threadIdx.x < kSums) {
      double sum = 0;
      for (int w = 0; w < kMomentThreads / 32; ++w) sum += red[w][threadIdx.x];
      partial[(static_cast<long long>(blockIdx.x) * nsel + s) * kSums + threadIdx.x] = sum;
    }
    __syncthreads();
  }
}

__global__ void moments_total(const double* __restrict__ partial, int blocks, int nsel, double* total) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nsel * kSums) return;
  double sum = 0;
  for (int b = 0; b < blocks; ++b) sum += partial[static_cast<long long>(b) * nsel * kSums + k];
  total[k] = sum;
}

using gpu::PinnedBuffer;

struct PairDevice {
  PairTask task;
  gpu::DeviceArray<unsigned> a, b;                  // atom indices
  gpu::DeviceArray<double> ax, ay, az, bx, by, bz;  // gathered coordinates
  gpu::DeviceArray<unsigned long long> counts;
  int copies = 1;
  std::size_t smem = 0;
};

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(Plan plan) : plan_(std::move(plan)) {
    const auto n = plan_.natoms;
    if (plan_.moment_atoms.size() > 64) {
      throw Error("analysis on the GPU: at most 64 selections can have one-body queries at once");
    }
    std::vector<unsigned long long> member(n, 0);
    for (std::size_t s = 0; s < plan_.moment_atoms.size(); ++s) {
      for (const auto i : plan_.moment_atoms[s]) member[i] |= 1ull << s;
    }
    member_.upload(member);
    mass_.upload(plan_.mass);
    charge_.upload(plan_.charge);
    partial_.resize(static_cast<std::size_t>(kMomentBlocks) * plan_.moment_atoms.size() * kSums);
    total_.resize(std::max<std::size_t>(1, plan_.moment_atoms.size() * kSums));
    for (int s = 0; s < 2; ++s) {
      for (auto* a : {&x_[s], &y_[s], &z_[s]}) a->resize(n);
      staging_[s].resize(3 * n);
      result_[s].resize(std::max<std::size_t>(1, plan_.moment_atoms.size() * kSums));
      MOLSTEP_CUDA_CHECK(cudaEventCreateWithFlags(&copied_[s], cudaEventDisableTiming));
      MOLSTEP_CUDA_CHECK(cudaEventCreateWithFlags(&done_[s], cudaEventDisableTiming));
    }
    MOLSTEP_CUDA_CHECK(cudaEventCreateWithFlags(&scattered_, cudaEventDisableTiming));
    MOLSTEP_CUDA_CHECK(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    MOLSTEP_CUDA_CHECK(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking));
    int device = 0;
    MOLSTEP_CUDA_CHECK(cudaGetDevice(&device));
    MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
    int smem_max = 0;
    MOLSTEP_CUDA_CHECK(cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    for (auto& task : plan_.pairs) {
      auto& p = pairs_.emplace_back();
      p.task = task;
      p.a.upload(std::vector<unsigned>(task.a.begin(), task.a.end()));
      if (!task.b.empty()) p.b.upload(std::vector<unsigned>(task.b.begin(), task.b.end()));
      for (auto* a : {&p.ax, &p.ay, &p.az}) a->resize(task.a.size());
      for (auto* a : {&p.bx, &p.by, &p.bz}) a->resize(task.b.size());
      p.counts.resize(static_cast<std::size_t>(task.spec.bins) + 1);
      p.counts.zero();
      const std::size_t hist_bytes = (static_cast<std::size_t>(task.spec.bins) + 1) * sizeof(unsigned);
      const std::size_t tile_bytes = 3 * kTile * sizeof(double) + kTile * sizeof(unsigned);
      if (tile_bytes + hist_bytes > static_cast<std::size_t>(smem_max)) {
        throw Error("analysis on the GPU: " + std::to_string(task.spec.bins) +
                    " bins do not fit a block's shared memory; use fewer bins or --device cpu");
      }
      p.copies = static_cast<int>(std::clamp<std::size_t>((48 * 1024 - tile_bytes) / hist_bytes, 1, kTile / 32));
      p.smem = tile_bytes + p.copies * hist_bytes;
      if (p.smem > 48 * 1024) {
        MOLSTEP_CUDA_CHECK(cudaFuncSetAttribute(same_set_histogram, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
        MOLSTEP_CUDA_CHECK(cudaFuncSetAttribute(cross_set_histogram, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
      }
    }
  }
  ~CudaBackend() override {
    cudaStreamSynchronize(copy_);
    cudaStreamSynchronize(compute_);
    for (int s = 0; s < 2; ++s) {
      cudaEventDestroy(copied_[s]);
      cudaEventDestroy(done_[s]);
    }
    cudaEventDestroy(scattered_);
    cudaStreamDestroy(copy_);
    cudaStreamDestroy(compute_);
  }

  void submit(const core::Frame& frame) override {
    const int s = static_cast<int>(submitted_ % 2);
    const auto n = plan_.natoms;
    if (frame.natoms() != n) {
      throw Error("frame at step " + std::to_string(frame.step) + " has " + std::to_string(frame.natoms()) +
                  " atoms, the analysis was set up for " + std::to_string(n));
    }
    // The staging buffer of this slot is free once its previous upload finished; the device
    // buffers once the kernels of the frame two back finished.
    MOLSTEP_CUDA_CHECK(cudaEventSynchronize(copied_[s]));
    double* stage = staging_[s].data();
    std::memcpy(stage, frame.x.data(), n * sizeof(double));
    std::memcpy(stage + n, frame.y.data(), n * sizeof(double));
    std::memcpy(stage + 2 * n, frame.z.data(), n * sizeof(double));
    MOLSTEP_CUDA_CHECK(cudaStreamWaitEvent(copy_, done_[s], 0));
    MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(x_[s].data(), stage, n * sizeof(double), cudaMemcpyHostToDevice, copy_));
    MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(y_[s].data(), stage + n, n * sizeof(double), cudaMemcpyHostToDevice, copy_));
    MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(z_[s].data(), stage + 2 * n, n * sizeof(double), cudaMemcpyHostToDevice, copy_));
    MOLSTEP_CUDA_CHECK(cudaEventRecord(copied_[s], copy_));
    MOLSTEP_CUDA_CHECK(cudaStreamWaitEvent(compute_, copied_[s], 0));
    launch(frame, s);
    MOLSTEP_CUDA_CHECK(cudaEventRecord(done_[s], compute_));
    ++submitted_;
  }

  void submit_device(const core::Frame& frame, const DevicePositions& pos) override {
    const int s = static_cast<int>(submitted_ % 2);
    if (pos.n != plan_.natoms) {
      throw Error("in-situ analysis: " + std::to_string(pos.n) + " atoms on the GPU, the analysis was set up for " +
                  std::to_string(plan_.natoms));
    }
    // The run loop's kernels (legacy default stream) produced the positions; the copy into the
    // analysis buffers waits for them, and the run loop's next kernels wait for the copy. The
    // histograms then run beside the simulation, with no host round trip.
    MOLSTEP_CUDA_CHECK(cudaEventRecord(copied_[s], 0));
    MOLSTEP_CUDA_CHECK(cudaStreamWaitEvent(compute_, copied_[s], 0));
    const int n = static_cast<int>(pos.n);
    scatter_by_id<<<(n + 255) / 256, 256, 0, compute_>>>(pos.packed, pos.stride, pos.id, n, x_[s].data(),
                                                        y_[s].data(), z_[s].data());
    MOLSTEP_CUDA_CHECK(cudaEventRecord(scattered_, compute_));
    MOLSTEP_CUDA_CHECK(cudaStreamWaitEvent(0, scattered_, 0));
    launch(frame, s);
    MOLSTEP_CUDA_CHECK(cudaEventRecord(done_[s], compute_));
    ++submitted_;
  }

  std::vector<Moments> collect() override {
    const int s = static_cast<int>(collected_ % 2);
    MOLSTEP_CUDA_CHECK(cudaEventSynchronize(done_[s]));
    ++collected_;
    std::vector<Moments> out;
    for (std::size_t k = 0; k < plan_.moment_atoms.size(); ++k) out.push_back(Moments::unpack(result_[s].data() + k * kSums));
    return out;
  }

  std::vector<std::vector<std::uint64_t>> pair_totals() override {
    MOLSTEP_CUDA_CHECK(cudaStreamSynchronize(compute_));
    std::vector<std::vector<std::uint64_t>> out;
    for (auto& p : pairs_) {
      std::vector<unsigned long long> h;
      p.counts.download(h);
      out.emplace_back(h.begin(), h.end());
    }
    return out;
  }

  [[nodiscard]] std::string name() const override { return "cuda"; }

 private:
  void launch(const core::Frame& frame, int s) {
    const int n = static_cast<int>(plan_.natoms);
    const int nsel = static_cast<int>(plan_.moment_atoms.size());
    if (nsel > 0) {
      moments_partial<<<kMomentBlocks, kMomentThreads, 0, compute_>>>(x_[s].data(), y_[s].data(), z_[s].data(),
                                                                       mass_.data(), charge_.data(), member_.data(),
                                                                       n, nsel, partial_.data());
      moments_total<<<(nsel * kSums + 127) / 128, 128, 0, compute_>>>(partial_.data(), kMomentBlocks, nsel,
                                                                       total_.data());
      MOLSTEP_CUDA_CHECK(cudaMemcpyAsync(result_[s].data(), total_.data(), nsel * kSums * sizeof(double),
                                         cudaMemcpyDeviceToHost, compute_));
    }
    for (auto& p : pairs_) {
      const BinParams b = to_device(PairBinning(p.task.spec, frame));
      const int na = static_cast<int>(p.task.a.size());
      const int nb = static_cast<int>(p.task.b.size());
      gather<<<(na + 255) / 256, 256, 0, compute_>>>(x_[s].data(), y_[s].data(), z_[s].data(), p.a.data(), na,
                                                     p.ax.data(), p.ay.data(), p.az.data());
      const long long ta = (na + kTile - 1) / kTile;
      if (p.task.b.empty()) {
        const long long items = ta * (ta / 2 + 1);
        const int grid = static_cast<int>(std::max<long long>(1, std::min<long long>(items, 8LL * sms_)));
        same_set_histogram<<<grid, kTile, p.smem, compute_>>>(p.ax.data(), p.ay.data(), p.az.data(), na, b,
                                                              p.counts.data(), p.copies);
      } else {
        gather<<<(nb + 255) / 256, 256, 0, compute_>>>(x_[s].data(), y_[s].data(), z_[s].data(), p.b.data(), nb,
                                                       p.bx.data(), p.by.data(), p.bz.data());
        const long long items = ta * ((nb + kTile - 1) / kTile);
        const int grid = static_cast<int>(std::max<long long>(1, std::min<long long>(items, 8LL * sms_)));
        cross_set_histogram<<<grid, kTile, p.smem, compute_>>>(p.ax.data(), p.ay.data(), p.az.data(), p.a.data(), na,
                                                               p.bx.data(), p.by.data(), p.bz.data(), p.b.data(), nb,
                                                               b, p.counts.data(), p.copies);
      }
    }
    MOLSTEP_CUDA_CHECK(cudaGetLastError());
  }

  Plan plan_;
  gpu::DeviceArray<double> x_[2], y_[2], z_[2];
  gpu::DeviceArray<double> mass_, charge_, partial_, total_;
  gpu::DeviceArray<unsigned long long> member_;
  PinnedBuffer<double> staging_[2], result_[2];
  cudaEvent_t copied_[2]{}, done_[2]{}, scattered_{};
  cudaStream_t copy_{}, compute_{};
  std::vector<PairDevice> pairs_;
  int sms_ = 1;
  std::size_t submitted_ = 0, collected_ = 0;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(Plan plan) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    throw Error("--device cuda: no CUDA device is present; use --device cpu");
  }
  // One GPU per MPI rank, round robin over the node's devices.
  MOLSTEP_CUDA_CHECK(cudaSetDevice(world_partition().rank % count));
  return std::make_unique<CudaBackend>(std::move(plan));
}

}  // namespace molstep::analysis
