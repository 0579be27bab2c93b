// SPDX-License-Identifier: MIT
#include <cub/block/block_scan.cuh>

#include <cmath>

#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/cell_bins.cuh"

namespace molstep::md::cuda {

namespace {

constexpr int kScanThreads = 1024;
constexpr int kScanItems = 4;
constexpr std::size_t kTile = static_cast<std::size_t>(kScanThreads) * kScanItems;  ///< cells per tile of the scan

using Scan = cub::BlockScan<int, kScanThreads>;

// Wraps each atom into the box (an atom that crosses a face gets its image count moved), finds
// its cell and counts it there.
__global__ void bin_kernel(std::size_t n, StepStatus* status, DeviceBox box, int3 ncell, double3 inv_cell,
                           Packed4* pos, int* ix, int* iy, int* iz, unsigned* key, int* count, Packed4* hold) {
  if (!building(status)) {
    if (blockIdx.x == 0 && threadIdx.x == 0 && running(status)) ++status->idle_builds;
    return;
  }
  MOLSTEP_GRID_STRIDE(i, n) {
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
      if (!(v >= box.lo[d] && v < hi)) {
        status->lost = 1;
        status->halted = 1;
      }
    }
    pos[i] = p;
    if (hold) hold[i] = p;
    const int cx = cell_coord(p.x, box.lo[0], inv_cell.x, ncell.x);
    const int cy = cell_coord(p.y, box.lo[1], inv_cell.y, ncell.y);
    const int cz = cell_coord(p.z, box.lo[2], inv_cell.z, ncell.z);
    const auto k = static_cast<unsigned>((cz * ncell.y + cy) * ncell.x + cx);
    key[i] = k;
    atomicAdd(count + k, 1);
  }
}

// The cells' first slots are the exclusive prefix sums of their counts, over millions of cells
// (half-width cells: about one for every two atoms of a liquid or solid), so the scan is spread
// over the device in two levels: each tile's total (tile_sum_kernel), the tiles' first slots
// from those (tile_scan_kernel, one block), then each tile scanned again from its first slot
// (scan_kernel). Every thread of a kernel reads the same status, so a block returns whole or not
// at all (the scans synchronise the block).

// One tile's exclusive prefix sums from `base`: in[first + k] (zeros at and past `size`) handed
// to put(first + k, base + sum of those before it, in[first + k]) for k < kTile; returns the
// tile's total (to every thread). A thread puts only the items it read, and after reading them,
// so put may write `in`.
template <class Put>
__device__ int scan_tile(Scan::TempStorage& scratch, const int* in, std::size_t first, std::size_t size, int base,
                         Put put) {
  const std::size_t mine = first + static_cast<std::size_t>(threadIdx.x) * kScanItems;
  int c[kScanItems], s[kScanItems];
  for (int k = 0; k < kScanItems; ++k) c[k] = mine + k < size ? in[mine + k] : 0;
  int total = 0;
  Scan(scratch).ExclusiveSum(c, s, total);
  for (int k = 0; k < kScanItems; ++k)
    if (mine + k < size) put(mine + k, base + s[k], c[k]);
  __syncthreads();  // the scratch is reused by the next tile
  return total;
}

// Each tile's count of atoms, the tiles strided over the grid.
__global__ void __launch_bounds__(kScanThreads)
    tile_sum_kernel(std::size_t cells, const StepStatus* status, const int* count, int* tile_sum) {
  if (!building(status)) return;
  __shared__ Scan::TempStorage scratch;
  for (std::size_t t = blockIdx.x; t * kTile < cells; t += gridDim.x) {
    const int total = scan_tile(scratch, count, t * kTile, cells, 0, [](std::size_t, int, int) {});
    if (threadIdx.x == 0) tile_sum[t] = total;
  }
}

// One block: the tiles' first slots, in place of their counts, a block's worth of tiles at a time.
__global__ void __launch_bounds__(kScanThreads)
    tile_scan_kernel(std::size_t tiles, const StepStatus* status, int* tile_sum) {
  if (!building(status)) return;
  __shared__ Scan::TempStorage scratch;
  int carry = 0;
  for (std::size_t first = 0; first < tiles; first += kTile)
    carry += scan_tile(scratch, tile_sum, first, tiles, carry,
                       [tile_sum](std::size_t t, int slot, int) { tile_sum[t] = slot; });
}

// The cells' first slots and ends, each tile scanned from its first slot; the counts are zeroed
// for the scatter, which counts again.
__global__ void __launch_bounds__(kScanThreads) scan_kernel(std::size_t cells, const StepStatus* status,
                                                            const int* tile_start, int* count, int* start, int* end) {
  if (!building(status)) return;
  __shared__ Scan::TempStorage scratch;
  for (std::size_t t = blockIdx.x; t * kTile < cells; t += gridDim.x)
    scan_tile(scratch, count, t * kTile, cells, tile_start[t], [=](std::size_t c, int slot, int atoms) {
      start[c] = slot;
      end[c] = slot + atoms;
      count[c] = 0;
    });
}

// Each atom takes the next free slot of its cell (in no fixed order: order_kernel sorts).
__global__ void scatter_kernel(std::size_t n, const StepStatus* status, const unsigned* key, const int* start,
                               int* count, int* slot_atom) {
  if (!building(status)) return;
  MOLSTEP_GRID_STRIDE(i, n) {
    const unsigned k = key[i];
    slot_atom[start[k] + atomicAdd(count + k, 1)] = static_cast<int>(i);
  }
}

// Each cell's atoms in index order (insertion sort: a cell holds a few tens of atoms), so the
// order is the stable sort's whatever order the scatter's atomics gave; the count is zeroed for
// the next build.
__global__ void order_kernel(std::size_t cells, const StepStatus* status, const int* start, const int* end,
                             int* count, int* slot_atom) {
  if (!building(status)) return;
  MOLSTEP_GRID_STRIDE(c, cells) {
    const int s0 = start[c], s1 = end[c];
    for (int s = s0 + 1; s < s1; ++s) {
      const int atom = slot_atom[s];
      int t = s - 1;
      while (t >= s0 && slot_atom[t] > atom) {
        slot_atom[t + 1] = slot_atom[t];
        --t;
      }
      slot_atom[t + 1] = atom;
    }
    count[c] = 0;
  }
}

}  // namespace

CellBins::CellBins(const DeviceBox& box, double min_len, std::size_t atoms) : box_(box) {
  for (int d = 0; d < 3; ++d) {
    ncell_[d] = static_cast<int>(std::floor(box.len[d] / min_len));
    if (ncell_[d] < 1) ncell_[d] = 1;
    len_[d] = box.len[d] / ncell_[d];
  }
  cells_ = static_cast<std::size_t>(ncell_[0]) * ncell_[1] * ncell_[2];
  key_.resize(atoms);
  slot_atom_.resize(atoms);
  count_.resize(cells_);
  count_.zero();
  start_.resize(cells_);
  end_.resize(cells_);
  tile_sum_.resize((cells_ + kTile - 1) / kTile);
}

void CellBins::enqueue(DeviceAtoms& a, StepStatus* status, Packed4* hold) {
  const std::size_t n = a.n;
  gpu::launch_resident(n, bin_kernel, n, status, box_, counts(), inverse_lengths(), a.pos.data(), a.ix.data(),
                       a.iy.data(), a.iz.data(), key_.data(), count_.data(), hold);
  // The tile kernels stride over the tiles with at most one wave of blocks, so that a step without
  // a build costs the same whatever the cell count.
  const auto tiles = static_cast<int>(tile_sum_.size());
  tile_sum_kernel<<<gpu::resident_grid(tile_sum_kernel, kScanThreads, 0, tiles), kScanThreads, 0,
                    gpu::stream()>>>(cells_, status, count_.data(), tile_sum_.data());
  tile_scan_kernel<<<1, kScanThreads, 0, gpu::stream()>>>(tile_sum_.size(), status, tile_sum_.data());
  scan_kernel<<<gpu::resident_grid(scan_kernel, kScanThreads, 0, tiles), kScanThreads, 0, gpu::stream()>>>(
      cells_, status, tile_sum_.data(), count_.data(), start_.data(), end_.data());
  gpu::launch_resident(n, scatter_kernel, n, status, key_.data(), start_.data(), count_.data(), slot_atom_.data());
  gpu::launch_resident(cells_, order_kernel, cells_, status, start_.data(), end_.data(), count_.data(),
                       slot_atom_.data());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

std::size_t CellBins::bytes() const {
  return key_.bytes() + count_.bytes() + start_.bytes() + end_.bytes() + slot_atom_.bytes() + tile_sum_.bytes();
}

}  // namespace molstep::md::cuda
