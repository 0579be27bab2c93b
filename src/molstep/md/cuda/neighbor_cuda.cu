// SPDX-License-Identifier: MIT
#include <cub/device/device_radix_sort.cuh>

#include <cmath>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/md/cuda/neighbor_cuda.cuh"

namespace molstep::md::cuda {

namespace {


__global__ void wrap_kernel(std::size_t n, DeviceBox box, Packed4* pos, int* ix, int* iy, int* iz, int* lost) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Packed4 p = pos[i];
  double* c[3] = {&p.x, &p.y, &p.z};
  int* im[3] = {ix, iy, iz};
  for (int d = 0; d < 3; ++d) {
    double v = *c[d];
    const double hi = box.lo[d] + box.len[d];
    if (v < box.lo[d]) {
      v += box.len[d];
      im[d][i] -= 1;
    }
    if (v >= hi) {
      v -= box.len[d];
      v = fmax(v, box.lo[d]);
      im[d][i] += 1;
    }
    *c[d] = v;
    // Still outside (or not a number): the atom moved more than a box length since the last build.
    if (!(v >= box.lo[d] && v < hi)) atomicExch(lost, 1);
  }
  pos[i] = p;
}

__device__ inline int cell_coord(double v, double lo, double inv_cell, int n) {
  int k = static_cast<int>((v - lo) * inv_cell);
  return k < 0 ? 0 : (k >= n ? n - 1 : k);
}

__global__ void cell_key_kernel(std::size_t n, DeviceBox box, int3 ncell, double3 inv_cell, const Packed4* pos,
                                unsigned* keys, int* order) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 p = pos[i];
  const int cx = cell_coord(p.x, box.lo[0], inv_cell.x, ncell.x);
  const int cy = cell_coord(p.y, box.lo[1], inv_cell.y, ncell.y);
  const int cz = cell_coord(p.z, box.lo[2], inv_cell.z, ncell.z);
  keys[i] = static_cast<unsigned>((cz * ncell.y + cy) * ncell.x + cx);
  order[i] = static_cast<int>(i);
}

template <class T>
__global__ void gather_kernel(std::size_t n, const int* order, const T* in, T* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[order[i]];
}

__global__ void cell_bounds_kernel(std::size_t n, const unsigned* keys, int* start, int* end) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const unsigned k = keys[i];
  if (i == 0 || keys[i - 1] != k) start[k] = static_cast<int>(i);
  if (i + 1 == n || keys[i + 1] != k) end[k] = static_cast<int>(i) + 1;
}

// Whether the half list gives the pair (i, j) to i: when j lies above i (d = x_i - x_j, minimum
// image: d.z < 0), or level with it and further along y, then x, then by index. The minimum
// image of x_j - x_i is exactly minus that of x_i - x_j, so exactly one of the two atoms takes
// the pair, and every atom takes the partners of its upper hemisphere: about half its
// neighbours, evenly spread over atoms. (A rule by cell offset, LAMMPS's half stencil on bins
// as large as the cutoff, gives an atom anything from none to nearly all of its neighbours by
// where it sits in its cell: a warp then waits as long as with the full list, and the slot count
// is hardly smaller.)
__device__ inline bool takes_pair(const double3& d, int j, int i) {
  if (d.z != 0.0) return d.z < 0.0;
  if (d.y != 0.0) return d.y < 0.0;
  if (d.x != 0.0) return d.x < 0.0;
  return j > i;
}

// One thread per atom scans the surrounding cells (all cells of a dimension with fewer than
// three, so no cell is visited twice) and records neighbours in column-major order. The default
// build is <false, false>. INDIRECT (MOLSTEP_CUDA_SORT=0): the atoms are not in cell order, and
// cell slot s holds atom slot_atom[s]. HALF (MOLSTEP_CUDA_LIST=half): each pair once
// (takes_pair); the same 27 cells are searched as for the full list, so that the half list is
// exactly the full one less the pairs the partner takes.
template <bool HALF, bool INDIRECT>
__global__ void list_kernel(std::size_t n, DeviceBox box, int3 ncell, double3 inv_cell, double cutsq,
                                    const Packed4* __restrict__ pos, const int* start, const int* end,
                                    const int* __restrict__ slot_atom, int max_nb, std::size_t stride, int* index,
                                    int* count, int* overflow) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 pi = pos[i];
  const double xi = pi.x, yi = pi.y, zi = pi.z;
  const int cx = cell_coord(xi, box.lo[0], inv_cell.x, ncell.x);
  const int cy = cell_coord(yi, box.lo[1], inv_cell.y, ncell.y);
  const int cz = cell_coord(zi, box.lo[2], inv_cell.z, ncell.z);
  const int sx = ncell.x >= 3 ? 3 : ncell.x, sy = ncell.y >= 3 ? 3 : ncell.y, sz = ncell.z >= 3 ? 3 : ncell.z;
  const int self = static_cast<int>(i);
  int found = 0;
  for (int a = 0; a < sz; ++a) {
    const int kz = ncell.z >= 3 ? (cz + a - 1 + ncell.z) % ncell.z : a;
    for (int b = 0; b < sy; ++b) {
      const int ky = ncell.y >= 3 ? (cy + b - 1 + ncell.y) % ncell.y : b;
      for (int c = 0; c < sx; ++c) {
        const int kx = ncell.x >= 3 ? (cx + c - 1 + ncell.x) % ncell.x : c;
        const int cell = (kz * ncell.y + ky) * ncell.x + kx;
        for (int s = start[cell]; s < end[cell]; ++s) {
          const int j = INDIRECT ? slot_atom[s] : s;
          if (j == self) continue;
          const Packed4 pj = pos[j];
          const double3 d = separation(xi, yi, zi, pj, box);
          if (HALF && !takes_pair(d, j, self)) continue;
          const double dx = d.x, dy = d.y, dz = d.z;
          if (dx * dx + dy * dy + dz * dz < cutsq) {
            if (found < max_nb) index[static_cast<std::size_t>(found) * stride + i] = j;
            ++found;
          }
        }
      }
    }
  }
  count[i] = found;
  if (found > max_nb) atomicMax(overflow, found);
}

__global__ void moved_kernel(std::size_t n, double trigger, const Packed4* pos, const Packed4* hold, int* flag) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 p = pos[i], q = hold[i];
  const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
  if (dx * dx + dy * dy + dz * dz > trigger) *flag = 1;
}

}  // namespace

void NeighborCuda::sort_by_cell(DeviceAtoms& a, const DeviceBox& box, bool permute) {
  const std::size_t n = a.n;
  keys_.resize(n);
  keys_sorted_.resize(n);
  order_.resize(n);
  order_sorted_.resize(n);
  const int3 nc{ncell_[0], ncell_[1], ncell_[2]};
  const double3 inv{1.0 / cell_len_[0], 1.0 / cell_len_[1], 1.0 / cell_len_[2]};
  cell_key_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, box, nc, inv, a.pos.data(), keys_.data(), order_.data());
  std::size_t scratch_bytes = 0;
  const int bits = static_cast<int>(std::ceil(std::log2(static_cast<double>(ncell_[0]) * ncell_[1] * ncell_[2] + 1)));
  MOLSTEP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, keys_.data(), keys_sorted_.data(),
                                                     order_.data(), order_sorted_.data(), static_cast<int>(n), 0, bits));
  scratch_.resize(scratch_bytes);
  MOLSTEP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch_.data(), scratch_bytes, keys_.data(), keys_sorted_.data(),
                                                     order_.data(), order_sorted_.data(), static_cast<int>(n), 0, bits));
  // MOLSTEP_CUDA_SORT=0: the atoms stay where they are; order_sorted_ maps cell slots to atoms.
  if (!permute) return;
  // Apply the permutation to every per-atom array (forces are recomputed after a build).
  tmp_p_.resize(n);
  gather_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, order_sorted_.data(), a.pos.data(), tmp_p_.data());
  MOLSTEP_CUDA_CHECK(cudaMemcpy(a.pos.data(), tmp_p_.data(), n * sizeof(Packed4), cudaMemcpyDeviceToDevice));
  tmp_d_.resize(n);
  for (auto* arr : {&a.vx, &a.vy, &a.vz}) {
    gather_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, order_sorted_.data(), arr->data(), tmp_d_.data());
    MOLSTEP_CUDA_CHECK(cudaMemcpy(arr->data(), tmp_d_.data(), n * sizeof(double), cudaMemcpyDeviceToDevice));
  }
  tmp_i_.resize(n);
  for (auto* arr : {&a.type, &a.ix, &a.iy, &a.iz}) {
    gather_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, order_sorted_.data(), arr->data(), tmp_i_.data());
    MOLSTEP_CUDA_CHECK(cudaMemcpy(arr->data(), tmp_i_.data(), n * sizeof(int), cudaMemcpyDeviceToDevice));
  }
  tmp_l_.resize(n);
  gather_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, order_sorted_.data(), a.id.data(), tmp_l_.data());
  MOLSTEP_CUDA_CHECK(cudaMemcpy(a.id.data(), tmp_l_.data(), n * sizeof(std::int64_t), cudaMemcpyDeviceToDevice));
}

void NeighborCuda::build(DeviceAtoms& a, const DeviceBox& box, double rl, DeviceList& list) {
  const std::size_t n = a.n;
  for (int d = 0; d < 3; ++d) {
    ncell_[d] = static_cast<int>(std::floor(box.len[d] / rl));
    if (ncell_[d] < 1) ncell_[d] = 1;
    cell_len_[d] = box.len[d] / ncell_[d];
  }
  flag_.resize(1);
  flag_.zero();
  wrap_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, box, a.pos.data(), a.ix.data(), a.iy.data(), a.iz.data(), flag_.data());
  int lost = 0;
  MOLSTEP_CUDA_CHECK(cudaMemcpy(&lost, flag_.data(), sizeof(int), cudaMemcpyDeviceToHost));
  if (lost)
    throw Error(
        "an atom moved more than a box length between neighbour list builds (the system is unstable: check the "
        "timestep, the initial overlaps and the neigh_modify settings)");
  const gpu::Tuning& tuning = gpu::tuning();
  sort_by_cell(a, box, tuning.sort);
  const std::size_t ncells = static_cast<std::size_t>(ncell_[0]) * ncell_[1] * ncell_[2];
  cell_start_.resize(ncells);
  cell_end_.resize(ncells);
  cell_start_.zero();
  cell_end_.zero();
  cell_bounds_kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, keys_sorted_.data(), cell_start_.data(), cell_end_.data());
  const int3 nc{ncell_[0], ncell_[1], ncell_[2]};
  const double3 inv{1.0 / cell_len_[0], 1.0 / cell_len_[1], 1.0 / cell_len_[2]};
  flag_.resize(1);
  // A list made half by an earlier build of this run keeps its (smaller) slot count only while
  // it stays half; the variables are read once per process, so in practice it always does.
  if (list.half != tuning.half_list) list.max_neighbors = 0;
  list.half = tuning.half_list;
  for (;;) {
    if (list.max_neighbors == 0) {
      // A first guess from the mean density, with room for fluctuations; grown on overflow.
      const double volume = box.len[0] * box.len[1] * box.len[2];
      const double share = list.half ? 0.6 : 1.2;  // a half list holds half the pairs
      list.max_neighbors = static_cast<int>(share * 4.18879 * rl * rl * rl * static_cast<double>(n) / volume) + 16;
    }
    // MOLSTEP_CUDA_PAD: the stride (and with it the start of every column) rounded up to a
    // multiple of that many atoms; the padding slots are never read.
    const auto pad = static_cast<std::size_t>(tuning.pad > 1 ? tuning.pad : 1);
    list.stride = (n + pad - 1) / pad * pad;
    list.index.resize(static_cast<std::size_t>(list.max_neighbors) * list.stride);
    list.count.resize(n);
    flag_.zero();
    const auto launch = [&](auto kernel) {
      kernel<<<gpu::blocks_for(n), gpu::block_size()>>>(n, box, nc, inv, rl * rl, a.pos.data(), cell_start_.data(),
                                                        cell_end_.data(), order_sorted_.data(), list.max_neighbors,
                                                        list.stride, list.index.data(), list.count.data(),
                                                        flag_.data());
    };
    if (tuning.half_list)
      tuning.sort ? launch(list_kernel<true, false>) : launch(list_kernel<true, true>);
    else
      tuning.sort ? launch(list_kernel<false, false>) : launch(list_kernel<false, true>);
    MOLSTEP_CUDA_CHECK(cudaGetLastError());
    int overflow = 0;
    MOLSTEP_CUDA_CHECK(cudaMemcpy(&overflow, flag_.data(), sizeof(int), cudaMemcpyDeviceToHost));
    if (overflow == 0) break;
    list.max_neighbors = overflow + 16;
  }
  hold_.resize(n);
  MOLSTEP_CUDA_CHECK(cudaMemcpy(hold_.data(), a.pos.data(), n * sizeof(Packed4), cudaMemcpyDeviceToDevice));
}

bool NeighborCuda::moved_beyond(const DeviceAtoms& a, double half_skin) {
  flag_.resize(1);
  flag_.zero();
  moved_kernel<<<gpu::blocks_for(a.n), gpu::block_size()>>>(a.n, half_skin * half_skin, a.pos.data(), hold_.data(), flag_.data());
  int moved = 0;
  MOLSTEP_CUDA_CHECK(cudaMemcpy(&moved, flag_.data(), sizeof(int), cudaMemcpyDeviceToHost));
  return moved != 0;
}

std::size_t NeighborCuda::bytes() const {
  return keys_.bytes() + keys_sorted_.bytes() + order_.bytes() + order_sorted_.bytes() + cell_start_.bytes() +
         cell_end_.bytes() + scratch_.bytes() + tmp_d_.bytes() + tmp_p_.bytes() + hold_.bytes() + tmp_i_.bytes() +
         tmp_l_.bytes();
}

}  // namespace molstep::md::cuda
