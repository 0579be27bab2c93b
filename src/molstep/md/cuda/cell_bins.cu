// SPDX-License-Identifier: MIT
#include <cub/block/block_scan.cuh>

#include <cmath>

#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/cell_bins.cuh"

namespace molstep::md::cuda {

namespace {

constexpr int kScanThreads = 1024;
constexpr int kScanItems = 4;

// Wraps each atom into the box (an atom that crosses a face gets its image count moved), finds
// its cell and counts it there.
__global__ void bin_kernel(std::size_t n, StepStatus* status, DeviceBox box, int3 ncell, double3 inv_cell,
                           Packed4* pos, int* ix, int* iy, int* iz, unsigned* key, int* count, Packed4* hold) {
  if (!building(status)) return;
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

// One block: the cells' first slots (exclusive prefix sums of the counts) and ends, tile by
// tile; the counts are zeroed for the scatter, which counts again.
__global__ void __launch_bounds__(kScanThreads)
    scan_kernel(std::size_t cells, const StepStatus* status, int* count, int* start, int* end) {
  if (!building(status)) return;
  using Scan = cub::BlockScan<int, kScanThreads>;
  __shared__ typename Scan::TempStorage scratch;
  int carry = 0;
  for (std::size_t base = 0; base < cells; base += static_cast<std::size_t>(kScanThreads) * kScanItems) {
    const std::size_t first = base + static_cast<std::size_t>(threadIdx.x) * kScanItems;
    int c[kScanItems], s[kScanItems];
    for (int k = 0; k < kScanItems; ++k) c[k] = first + k < cells ? count[first + k] : 0;
    int total = 0;
    Scan(scratch).ExclusiveSum(c, s, total);
    for (int k = 0; k < kScanItems; ++k) {
      if (first + k >= cells) break;
      start[first + k] = carry + s[k];
      end[first + k] = carry + s[k] + c[k];
      count[first + k] = 0;
    }
    carry += total;
    __syncthreads();  // the scratch is reused by the next tile
  }
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
}

void CellBins::enqueue(DeviceAtoms& a, StepStatus* status, Packed4* hold) {
  const std::size_t n = a.n;
  gpu::launch_resident(n, bin_kernel, n, status, box_, counts(), inverse_lengths(), a.pos.data(), a.ix.data(),
                       a.iy.data(), a.iz.data(), key_.data(), count_.data(), hold);
  scan_kernel<<<1, kScanThreads, 0, gpu::stream()>>>(cells_, status, count_.data(), start_.data(), end_.data());
  gpu::launch_resident(n, scatter_kernel, n, status, key_.data(), start_.data(), count_.data(), slot_atom_.data());
  gpu::launch_resident(cells_, order_kernel, cells_, status, start_.data(), end_.data(), count_.data(),
                       slot_atom_.data());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

std::size_t CellBins::bytes() const {
  return key_.bytes() + count_.bytes() + start_.bytes() + end_.bytes() + slot_atom_.bytes();
}

}  // namespace molstep::md::cuda
