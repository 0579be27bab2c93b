// SPDX-License-Identifier: MIT
#include <cstdint>

#include "molstep/core/error.hpp"
#include "molstep/gpu/graph_branch.cuh"
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/neighbor_cuda.cuh"

namespace molstep::md::cuda {

namespace {

// ---- the decision -------------------------------------------------------------------------------

// Whether any atom moved more than half the skin since the last build; only where the decision
// will ask (neigh_modify check yes, and the delay past).
__global__ void moved_kernel(std::size_t n, StepStatus* status, ListRule rule, double trigger,
                             const Packed4* __restrict__ pos, const Packed4* __restrict__ hold) {
  if (!running(status) || !rule.check || status->ago + rule.every < rule.delay) return;
  MOLSTEP_GRID_STRIDE(i, n) {
    const Packed4 p = pos[i];
    if (moved_beyond(p.x, p.y, p.z, hold[i], trigger)) status->moved = 1;
  }
}

// neigh_modify's rule, as the CPU's Neighbor::due applies it step by step: the decision runs only
// at steps a multiple of `every` after the run's first, where the steps since the last build are
// a multiple of `every` too (builds fall only on such steps).
// Takes the build's graph branch where it builds (a halted run leaves it alone: the build's
// kernels then return at once).
__global__ void decide_kernel(StepStatus* status, ListRule rule, gpu::BranchSwitch branch) {
  if (!running(status)) return;
  status->step += rule.every;
  status->ago += rule.every;
  const bool build = status->ago >= rule.delay && (!rule.check || status->moved != 0);
  status->moved = 0;
  status->rebuild = build ? 1 : 0;
  if (build) {
    status->ago = 0;
    ++status->builds;
  }
  branch.take(build);
}

// ---- reordering the atoms by cell -------------------------------------------------------------

struct Reorder {
  double *vx, *vy, *vz;
  int *type, *ix, *iy, *iz;
  std::int64_t* id;
};

// The scratch's layout for n atoms: vx, vy, vz, id (8 bytes each), type, ix, iy, iz (4 each).
Reorder scratch_view(unsigned char* tmp, std::size_t n) {
  auto* d = reinterpret_cast<double*>(tmp);
  auto* l = reinterpret_cast<std::int64_t*>(tmp + 24 * n);
  auto* k = reinterpret_cast<int*>(tmp + 32 * n);
  return Reorder{d, d + n, d + 2 * n, k, k + n, k + 2 * n, k + 3 * n, l};
}

// The positions in cell order, into `hold` (the build's positions, kept for the check).
__global__ void gather_positions_kernel(std::size_t n, const StepStatus* status, const int* slot_atom,
                                        const Packed4* pos, Packed4* hold) {
  if (!building(status)) return;
  MOLSTEP_GRID_STRIDE(s, n) hold[s] = pos[slot_atom[s]];
}

// Copies the per-atom arrays other than positions (both views name them alike).
template <class To, class From>
__device__ void copy_rest(const To& to, std::size_t t, const From& from, std::size_t f) {
  to.vx[t] = from.vx[f];
  to.vy[t] = from.vy[f];
  to.vz[t] = from.vz[f];
  to.type[t] = from.type[f];
  to.ix[t] = from.ix[f];
  to.iy[t] = from.iy[f];
  to.iz[t] = from.iz[f];
  to.id[t] = from.id[f];
}

// Positions back from `hold`; every other per-atom array gathered into the scratch (forces are
// recomputed after a build and need no reordering).
__global__ void gather_rest_kernel(std::size_t n, const StepStatus* status, const int* slot_atom,
                                   const Packed4* hold, DeviceAtoms::View a, Reorder tmp) {
  if (!building(status)) return;
  MOLSTEP_GRID_STRIDE(s, n) {
    a.pos[s] = hold[s];
    copy_rest(tmp, s, a, static_cast<std::size_t>(slot_atom[s]));
  }
}

__global__ void restore_kernel(std::size_t n, const StepStatus* status, Reorder tmp, DeviceAtoms::View a) {
  if (!building(status)) return;
  MOLSTEP_GRID_STRIDE(s, n) copy_rest(a, s, tmp, s);
}

// ---- the list ---------------------------------------------------------------------------------

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

// The list's cells are at least half the list cutoff wide (MOLSTEP_CUDA_BINS=full: the cutoff,
// the build before), and a little more: so that an atom found three cells (full: two) from
// another by its cell coordinates, which rounding may shift by a unit in the last place, is still
// farther away than the cutoff.
constexpr double kCellMargin = 1e-10;

// How much the pruning of the half-width build errs on the side of visiting, in cell widths:
// far more than the rounding in a cell coordinate (a few units in the last place of
// (v - lo) / width, under 1e-9 for any grid of fewer than 1e6 cells a side).
constexpr double kPruneSlack = 1e-6;

// A lower bound on the distance along one direction from an atom at fraction f of its cell's
// width (cell coordinate minus cell) to the cell `k` cells along: none for its own cell,
// otherwise to the near face (less kPruneSlack), times the cell width `len`; squared.
__device__ inline double cell_gap2(int k, double f, double len) {
  const double g = fmax((k > 0 ? k - f : (k < 0 ? f - (k + 1) : 0.0)) - kPruneSlack, 0.0) * len;
  return g * g;
}

// Cell c of a direction of n cells, c one box or less outside, wrapped into the box.
__device__ inline int wrap_cell(int c, int n) { return c < 0 ? c + n : (c >= n ? c - n : c); }

// One thread per atom lists the atoms of the surrounding cells within the cutoff, in
// column-major order. Along a direction with at least SPAN = 2 REACH + 1 cells, the cells REACH
// either side of the atom's (wrapped around the box); along a shorter one, each of its cells
// once (a cell visited twice would give a pair twice). The cells are sorted x fastest, so the
// cells of one (y, z) row are consecutive slots: each row is scanned as one range of slots, or
// two where it wraps around the box in x.
//
// NARROW (the default, MOLSTEP_CUDA_BINS=half): cells half the cutoff wide, REACH 2, 25 rows of
// up to 5 cells, pruned per atom: a cell is searched only where a lower bound on its distance
// from the atom (the squares of the gaps to its near faces summed) is under the cutoff, so a row
// is skipped when its gaps in y and z reach the cutoff, and a row's x range is cut to the cells
// the rest reaches. That leaves about 10 rl^3 of the 27 rl^3 that full-width cells search. Along
// a direction of SPAN cells or more, the stencil's image of a partner within the cutoff is its
// minimum image (any other lies 3 cells, more than the cutoff, away), so the bounds hold for the
// minimum-image distance; along a shorter direction nothing is pruned. Without NARROW: cells as
// wide as the cutoff, REACH 1, the 27 cells (9 rows of 3) unpruned.
//
// INDIRECT (MOLSTEP_CUDA_SORT=0): the atoms are not in cell order, and cell slot s holds atom
// slot_atom[s]. HALF (MOLSTEP_CUDA_LIST=half): each pair once (takes_pair), from the same search
// as the full list, so that the half list is exactly the full one less the pairs the partner
// takes. An atom with more neighbours than slots keeps max_nb of them and halts the run with the
// count it needs.
//
// The entries come in the search's order (by slot, so by partner index in cell order), or with
// BY_DISTANCE (a full list; gpu::Tuning::list_order) in kShells shells of equal width in r^2
// from 0 to the cutoff, nearest shell first, by slot within a shell: the search writes the
// entries in its order, tagged with their shells, and counts each shell's (per thread, in the
// block's dynamic shared memory); the thread then copies its entries to a local array and places
// them shell by shell (the first version searched twice, counting, then placing: its list kernel
// took 4.5 ms at 2M copper atoms on the H100, bench/RESULTS.md run 17). The k-th entries of a warp's atoms then lie at about the same distance,
// so EAM's table lookups for them touch a few nearby table points instead of points all over the
// table. Coarse shells keep more of the index order, in which the k-th partners of a warp's atoms
// (neighbours in a row of cells) often share cache lines: on the H100, EAM copper at 2M atoms
// ran 7-9% faster with 6 or 8 shells than by index, less with 4, 12, 16, 32 or 64
// (bench/RESULTS.md, run 15). The default builds are <false, false, true, false> (LJ, and EAM
// with a group of threads per atom) and <false, false, true, true> (EAM).
constexpr int kShells = 8;
// BY_DISTANCE tags an entry with its shell in the bits above kShellShift (NeighborCuda lists by
// distance only below 2^kShellShift atoms) and places at most kShellLocal entries of an atom.
constexpr int kShellShift = 28, kShellMask = (1 << kShellShift) - 1, kShellLocal = 192;
static_assert(kShells <= 8, "three bits of shell above kShellShift");

template <bool HALF, bool INDIRECT, bool NARROW, bool BY_DISTANCE>
__global__ void list_kernel(std::size_t n, StepStatus* status, DeviceBox box, int3 ncell, double3 cell_len,
                            double3 inv_cell, double cutsq, const Packed4* __restrict__ pos, const int* start,
                            const int* end, const int* __restrict__ slot_atom, int max_nb, std::size_t stride,
                            int* index, int* count, unsigned* epoch) {
  static_assert(!(HALF && BY_DISTANCE), "lists by distance are full lists");
  extern __shared__ unsigned shell_slots[];  // BY_DISTANCE: shell b of this thread at [b * blockDim.x + threadIdx.x]
  if (!building(status)) return;
  if (blockIdx.x == 0 && threadIdx.x == 0) ++*epoch;
  const double to_shell = kShells / cutsq;
  constexpr int kReach = NARROW ? 2 : 1, kSpan = 2 * kReach + 1;
  const bool wrap_x = ncell.x >= kSpan, wrap_y = ncell.y >= kSpan, wrap_z = ncell.z >= kSpan;
  MOLSTEP_GRID_STRIDE(i, n) {
    const Packed4 pi = pos[i];
    const double xi = pi.x, yi = pi.y, zi = pi.z;
    const int cx = cell_coord(xi, box.lo[0], inv_cell.x, ncell.x);
    const int cy = cell_coord(yi, box.lo[1], inv_cell.y, ncell.y);
    const int cz = cell_coord(zi, box.lo[2], inv_cell.z, ncell.z);
    // Where the atom lies in its cell, as fractions of the cell's widths (cell_coord's products).
    const double fx = (xi - box.lo[0]) * inv_cell.x - cx;
    const double fy = (yi - box.lo[1]) * inv_cell.y - cy;
    const double fz = (zi - box.lo[2]) * inv_cell.z - cz;
    const int self = static_cast<int>(i);
    // Hands take(j, rsq) the atoms of slots [s, e) within the cutoff. Not unrolled: a range holds
    // a few atoms, a different few in each lane of a warp (5% faster on an H100 than unrolled by 4).
    const auto scan = [&](int s, int e, auto& take) {
#pragma unroll 1
      for (; s < e; ++s) {
        const int j = INDIRECT ? slot_atom[s] : s;
        if (j == self) continue;
        const Packed4 pj = pos[j];
        const double3 d = separation(xi, yi, zi, pj, box);
        if (HALF && !takes_pair(d, j, self)) continue;
        const double dx = d.x, dy = d.y, dz = d.z;
        const double rsq = dx * dx + dy * dy + dz * dz;
        if (rsq < cutsq) take(j, rsq);
      }
    };
    // The search: every atom within the cutoff to take(j, rsq), in slot order.
    const auto search = [&](auto take) {
      // Offsets from the atom's cell along a wrapped direction, plain cells along a short one.
      const int z0 = wrap_z ? -kReach : 0, z1 = wrap_z ? kReach : ncell.z - 1;
      const int y0 = wrap_y ? -kReach : 0, y1 = wrap_y ? kReach : ncell.y - 1;
      for (int a = z0; a <= z1; ++a) {
        const double gz2 = NARROW && wrap_z ? cell_gap2(a, fz, cell_len.z) : 0.0;
        if (gz2 >= cutsq) continue;
        const int kz = wrap_z ? wrap_cell(cz + a, ncell.z) : a;
        for (int b = y0; b <= y1; ++b) {
          const double gyz2 = gz2 + (NARROW && wrap_y ? cell_gap2(b, fy, cell_len.y) : 0.0);
          if (gyz2 >= cutsq) continue;
          const int row = (kz * ncell.y + (wrap_y ? wrap_cell(cy + b, ncell.y) : b)) * ncell.x;
          // The row's cells x0..x1: along a short x all of them; otherwise, unwrapped, at most REACH
          // either side, less those the rest of the cutoff does not reach (the gaps grow outwards
          // from the atom's own cell).
          int x0 = 0, x1 = ncell.x - 1;
          if (wrap_x) {
            x0 = -kReach;
            x1 = kReach;
            if constexpr (NARROW) {
              while (x0 < 0 && gyz2 + cell_gap2(x0, fx, cell_len.x) >= cutsq) ++x0;
              while (x1 > 0 && gyz2 + cell_gap2(x1, fx, cell_len.x) >= cutsq) --x1;
            }
            x0 += cx;
            x1 += cx;
          }
          // Their slots: one range, or two where the cells wrap around the box (at most SPAN
          // cells of a row of SPAN or more, so never at both ends).
          int s0, e0, s1 = 0, e1 = 0;
          if (x0 < 0) {
            s0 = start[row + x0 + ncell.x];
            e0 = end[row + ncell.x - 1];
            s1 = start[row];
            e1 = end[row + x1];
          } else if (x1 >= ncell.x) {
            s0 = start[row + x0];
            e0 = end[row + ncell.x - 1];
            s1 = start[row];
            e1 = end[row + x1 - ncell.x];
          } else {
            s0 = start[row + x0];
            e0 = end[row + x1];
          }
          scan(s0, e0, take);
          scan(s1, e1, take);
        }
      }
    };
    const auto put = [&](int at, int j) {
      if (at < max_nb) index[static_cast<std::size_t>(at) * stride + i] = j;
    };
    int found = 0;
    if constexpr (BY_DISTANCE) {
      // One search: the entries in search order, each tagged with its shell above kShellShift,
      // each shell counted; then the atom's entries, copied to a local array, are placed shell by
      // shell. An atom with more than kShellLocal entries (or too many for its slots) keeps the
      // search's order.
      unsigned* slots = shell_slots + threadIdx.x;
      for (int b = 0; b < kShells; ++b) slots[b * blockDim.x] = 0;
      search([&](int j, double rsq) {
        const int b = min(static_cast<int>(rsq * to_shell), kShells - 1);
        ++slots[b * blockDim.x];
        put(found++, j | (b << kShellShift));
      });
      const int kept = found < max_nb ? found : max_nb;
      const auto entry = [&](int k) -> int& { return index[static_cast<std::size_t>(k) * stride + i]; };
      if (found == kept && kept <= kShellLocal) {
        int local[kShellLocal];
        for (int k = 0; k < kept; ++k) local[k] = entry(k);
        unsigned first = 0;
        for (int b = 0; b < kShells; ++b) {  // each shell's first entry
          const unsigned k = slots[b * blockDim.x];
          slots[b * blockDim.x] = first;
          first += k;
        }
        for (int k = 0; k < kept; ++k) {
          const int e = local[k];
          entry(static_cast<int>(slots[(e >> kShellShift) * blockDim.x]++)) = e & kShellMask;
        }
      } else {
        for (int k = 0; k < kept; ++k) entry(k) &= kShellMask;
      }
    } else {
      search([&](int j, double) { put(found++, j); });
    }
    count[i] = found < max_nb ? found : max_nb;
    if (found > max_nb) {
      atomicMax(&status->overflow, found);
      status->halted = 1;
    }
  }
}

}  // namespace

NeighborCuda::NeighborCuda(const DeviceBox& box, double list_cutoff, const ListRule& rule, std::size_t atoms,
                           bool by_distance)
    : box_(box),
      cutoff_(list_cutoff),
      rule_(rule),
      by_distance_(by_distance && atoms < (std::size_t{1} << kShellShift)),
      permute_(gpu::tuning().sort),
      narrow_(!gpu::tuning().full_bins),
      bins_(box, (narrow_ ? 0.5 : 1.0) * list_cutoff * (1.0 + kCellMargin), atoms) {
  hold_.resize(atoms);
  if (permute_) tmp_.resize(48 * atoms);
}

void NeighborCuda::enqueue_step(DeviceAtoms& a, DeviceList& list, StepStatus* status, bool checked) {
  const Check c = displacement_check();
  if (!checked) gpu::launch_resident(a.n, moved_kernel, a.n, status, rule_, c.trigger, a.pos.data(), hold_.data());
  gpu::GraphBranch build;
  decide_kernel<<<1, 1, 0, gpu::stream()>>>(status, rule_, build.device());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
  build.enqueue([&] { enqueue_build(a, list, status); });
}

NeighborCuda::Check NeighborCuda::displacement_check() const {
  const double half_skin = 0.5 * rule_.skin;
  return Check{rule_.check ? hold_.data() : nullptr, half_skin * half_skin};
}

void NeighborCuda::enqueue_build(DeviceAtoms& a, DeviceList& list, StepStatus* status) {
  const std::size_t n = a.n;
  bins_.enqueue(a, status, permute_ ? nullptr : hold_.data());
  if (permute_) {
    const Reorder tmp = scratch_view(tmp_.data(), n);
    gpu::launch_resident(n, gather_positions_kernel, n, status, bins_.slot_atom(), a.pos.data(), hold_.data());
    gpu::launch_resident(n, gather_rest_kernel, n, status, bins_.slot_atom(), hold_.data(), a.view(), tmp);
    gpu::launch_resident(n, restore_kernel, n, status, tmp, a.view());
  }
  enqueue_list(a, list, status);
}

void NeighborCuda::enqueue_list(DeviceAtoms& a, DeviceList& list, StepStatus* status) {
  const std::size_t n = a.n;
  const auto launch = [&](auto kernel, std::size_t shared_bytes) {
    gpu::launch_resident_shared(n, gpu::block_size(), shared_bytes, kernel, n, status, box_, bins_.counts(),
                                bins_.lengths(), bins_.inverse_lengths(), cutoff_ * cutoff_, a.pos.data(),
                                bins_.start(), bins_.end(), bins_.slot_atom(), list.max_neighbors, list.stride,
                                list.index.data(), list.count.data(), list.epoch.data());
  };
  const auto bins = [&](auto narrow, auto full, std::size_t shared_bytes = 0) {
    narrow_ ? launch(narrow, shared_bytes) : launch(full, shared_bytes);
  };
  if (list.half)
    permute_ ? bins(list_kernel<true, false, true, false>, list_kernel<true, false, false, false>)
             : bins(list_kernel<true, true, true, false>, list_kernel<true, true, false, false>);
  else if (by_distance_) {
    const std::size_t shells = sizeof(unsigned) * kShells * static_cast<std::size_t>(gpu::block_size());
    permute_ ? bins(list_kernel<false, false, true, true>, list_kernel<false, false, false, true>, shells)
             : bins(list_kernel<false, true, true, true>, list_kernel<false, true, false, true>, shells);
  } else
    permute_ ? bins(list_kernel<false, false, true, false>, list_kernel<false, false, false, false>)
             : bins(list_kernel<false, true, true, false>, list_kernel<false, true, false, false>);
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

void NeighborCuda::size_list(DeviceList& list, std::size_t n) const {
  const gpu::Tuning& tuning = gpu::tuning();
  list.half = tuning.half_list;
  if (list.max_neighbors == 0) {
    // A first guess from the mean density, with room for fluctuations; grown on overflow.
    const double volume = box_.len[0] * box_.len[1] * box_.len[2];
    const double share = list.half ? 0.6 : 1.2;  // a half list holds half the pairs
    const double rl = cutoff_;
    list.max_neighbors = static_cast<int>(share * 4.18879 * rl * rl * rl * static_cast<double>(n) / volume) + 16;
  }
  // MOLSTEP_CUDA_PAD: the stride (and with it the start of every column) rounded up to a
  // multiple of that many atoms; the padding slots are never read.
  const auto pad = static_cast<std::size_t>(tuning.pad > 1 ? tuning.pad : 1);
  list.stride = (n + pad - 1) / pad * pad;
  list.index.resize(static_cast<std::size_t>(list.max_neighbors) * list.stride);
  list.count.resize(n);
  if (list.epoch.size() == 0) {
    list.epoch.resize(1);
    MOLSTEP_CUDA_CHECK(cudaMemsetAsync(list.epoch.data(), 0, sizeof(unsigned), gpu::stream()));
  }
}

void NeighborCuda::build_now(DeviceAtoms& a, DeviceList& list, StepStatusChannel& status) {
  size_list(list, a.n);
  StepStatus s = status.read();
  s.rebuild = 1;
  status.write(s);
  enqueue_build(a, list, status.device());
  repair(a, list, status);
}

bool NeighborCuda::repair(DeviceAtoms& a, DeviceList& list, StepStatusChannel& status) {
  StepStatus s = status.read();
  if (s.lost)
    throw Error(
        "an atom moved more than a box length between neighbour list builds (the system is unstable: check the "
        "timestep, the initial overlaps and the neigh_modify settings)");
  bool grown = false;
  while (s.overflow > 0) {
    list.max_neighbors = s.overflow + 16;
    size_list(list, a.n);
    grown = true;
    s.overflow = 0;
    s.halted = 0;
    status.write(s);
    enqueue_list(a, list, status.device());
    s = status.read();
  }
  return grown;
}

std::size_t NeighborCuda::bytes() const { return bins_.bytes() + hold_.bytes() + tmp_.bytes(); }

}  // namespace molstep::md::cuda
