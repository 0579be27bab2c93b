// SPDX-License-Identifier: MIT
// The LJ and EAM pair kernels: one template per pass, whose full-list instances are the defaults
// (one thread per atom, or 4 for small systems: PairCuda::threads_per_atom) and whose other
// instances are the opt-in variants of gpu::Tuning. The arithmetic of a pair is shared
// (pair_kernels.cuh); what changes is who sums it:
//  - TPA > 1: a group of TPA consecutive lanes of a warp shares an atom; lane l takes the list
//    entries l, l + TPA, l + 2 TPA, ... and the group's partial sums are reduced by a fixed
//    shuffle tree, so results repeat exactly for a given TPA (and differ from TPA = 1 by
//    round-off only).
//  - HALF: each pair is listed once; the thread of atom i adds -F_ij to atom j with atomicAdd and
//    its own sum to atom i with atomicAdd (other threads add to i too). Forces (and EAM
//    densities) are zeroed before and complete only after the kernel, so the second half kick
//    and the EAM embedding run as kernels of their own. Atomics land in no fixed order: results
//    agree with the default to round-off but are not bit-reproducible from run to run.
// Every kernel walks its lists with walk_list: entries read ahead (kernels::ListReader) and,
// with one thread per atom, partner records fetched by lane pairs (paired_gather).
#include <string>
#include <type_traits>

#include "molstep/core/error.hpp"
#include "molstep/gpu/launch.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/md/cuda/pair_variants.cuh"

namespace molstep::md::cuda::variants {

namespace {

using kernels::density_value;
using kernels::eam_pair;
using kernels::EamPacked;
using kernels::EamWindow;
using kernels::embedding;
using kernels::PairEv;
using kernels::EvOut;
using kernels::finish_atom;
using kernels::locate;
using kernels::type_pair;
using kernels::Tables;

constexpr unsigned kWarp = 0xffffffffu;

// Sum over the TPA lanes of a group, in a fixed tree order; lane 0 of the group holds the total.
// Every lane of the warp must reach it (the kernels below never return before it), since the
// mask names all 32; block sizes are multiples of 32 (gpu::block_size), so warps are whole.
template <int TPA>
__device__ inline double group_sum(double v) {
#pragma unroll
  for (int off = TPA / 2; off > 0; off /= 2) v += __shfl_down_sync(kWarp, v, off, TPA);
  return v;
}

// The group's partial energy and virial, summed into lane 0 of the group.
template <int TPA, bool HALF>
__device__ inline void group_reduce(PairEv<HALF>& acc) {
  if constexpr (TPA > 1) {
    acc.e = group_sum<TPA>(acc.e);
#pragma unroll
    for (int k = 0; k < 6; ++k) acc.v[k] = group_sum<TPA>(acc.v[k]);
  }
}

// Which atom a thread serves and its lane in the atom's group.
template <int TPA>
struct Slot {
  std::size_t i;
  int lane;
  __device__ explicit Slot(std::size_t t) : i(t / TPA), lane(static_cast<int>(t % TPA)) {}
  __device__ Slot() : Slot(blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) {}
};

// Calls body(slot) for the atoms (groups of TPA threads) this thread serves: with one thread per
// item in the grid, once; in a resident grid (RESIDENT: the shared-table EAM kernels, whose
// blocks first fill their shared memory), for every item grid-stride. The loop's condition is
// the same for a whole block, so warps stay whole (group_sum, paired_gather). (A contiguous chunk
// of tiles per block, or one item per thread with a fill per block, measured slower or no
// faster: bench/RESULTS.md, run 14.)
template <int TPA, bool RESIDENT, class Body>
__device__ inline void for_slots(std::size_t n, Body body) {
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x);
  if constexpr (!RESIDENT) {
    body(Slot<TPA>(first + threadIdx.x));
  } else {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t base = first; base < n * TPA; base += stride) body(Slot<TPA>(base + threadIdx.x));
  }
}

// With one thread per atom, lanes 2m and 2m + 1 of a warp fetch both their partners' 32-byte
// records with one 16-byte load each per record (the even lane the first half, the odd lane the
// second) and then swap halves by shuffles: a warp's load instruction then touches the 128-byte
// lines of 16 records instead of 32 (a record lies in one line), about half the L1 wavefronts
// of every lane loading its own record in two (bench/RESULTS.md, run 11). Every lane of the
// warp must call it, with a valid j (a lane without a partner passes any atom).
__device__ inline Packed4 paired_gather(const Packed4* __restrict__ rec, int j) {
  const unsigned odd = threadIdx.x & 1u;
  const int other = __shfl_xor_sync(kWarp, j, 1);
  const auto* half = reinterpret_cast<const double2*>(rec);
  const double2 a = half[2 * static_cast<std::size_t>(odd ? other : j) + odd];  // the even lane's record
  const double2 b = half[2 * static_cast<std::size_t>(odd ? j : other) + odd];  // the odd lane's
  const double2 give = odd ? a : b;
  const double gx = __shfl_xor_sync(kWarp, give.x, 1), gy = __shfl_xor_sync(kWarp, give.y, 1);
  return odd ? Packed4{gx, gy, b.x, b.y} : Packed4{a.x, a.y, gx, gy};
}

// The rounds a group walks: with one thread per atom the whole warp walks in step to its
// longest list (paired_gather needs every lane each round); a group of TPA > 1 its own atom's.
template <int TPA>
__device__ inline int rounds(int cnt) {
  if constexpr (TPA == 1) return __reduce_max_sync(kWarp, cnt);
  return (cnt + TPA - 1) / TPA;
}

// The partner's record for this round (every lane of the warp calls it; `has`: the lane has an
// entry this round, j its partner).
template <int TPA>
__device__ inline Packed4 partner(const Packed4* __restrict__ rec, int j, bool has) {
  if constexpr (TPA == 1) return paired_gather(rec, j);
  return has ? rec[j] : Packed4{0.0, 0.0, 0.0, 0.0};
}

// Walks atom i's list (cnt entries; 0 for a lane without an atom) in rounds<TPA>(cnt) rounds,
// calling visit(has, j, pj) each round: whether the lane has an entry this round, its partner j
// and the partner's record from `rec`. Every lane of the warp walks (paired_gather, ballots).
template <int TPA, class Visit>
__device__ inline void walk_list(const Packed4* __restrict__ rec, const int* __restrict__ index, std::size_t lstride,
                                 std::size_t i, int cnt, int lane, Visit visit) {
  kernels::ListReader list(index, lstride, i, cnt, lane, TPA);
  for (int k = lane, left = rounds<TPA>(cnt); left > 0; --left, k += TPA) {
    const bool has = k < cnt;
    const int j = list.next();
    visit(has, j, partner<TPA>(rec, j, has));
  }
}

// The end of a force kernel: the group's partial sums into its lane 0, which writes atom i's
// force (by atomicAdd with a half list, whose partners add to it too; else with the fused half
// kick) and with EV its energy and virial (`clear_energy`: LJ first clears what is there; EAM's
// density pass put the embedding energy there).
template <bool EV, int TPA, bool HALF>
__device__ inline void finish_group(const Slot<TPA>& s, bool active, int ti, double ax, double ay, double az,
                                    PairEv<HALF>& acc, bool clear_energy, double* fx, double* fy, double* fz,
                                    const EvOut& ev, const Kick& kick, double xi, double yi, double zi) {
  if constexpr (TPA > 1) {
    ax = group_sum<TPA>(ax);
    ay = group_sum<TPA>(ay);
    az = group_sum<TPA>(az);
    if constexpr (EV) group_reduce<TPA>(acc);
  }
  if (!active || s.lane != 0) return;
  const std::size_t i = s.i;
  if constexpr (HALF) {
    atomicAdd(fx + i, ax);
    atomicAdd(fy + i, ay);
    atomicAdd(fz + i, az);
  } else {
    finish_atom(i, ti, ax, ay, az, fx, fy, fz, kick, xi, yi, zi);
  }
  if constexpr (EV) {
    if (clear_energy) ev.e[i] = 0.0;
    acc.store(ev, i);
  }
}

// A pair's force on the atom, g = d * fpair, into its sums; with a half list -g to the partner
// as well, by atomicAdd.
template <bool HALF>
__device__ inline void add_force(double gx, double gy, double gz, double& ax, double& ay, double& az, double* fx,
                                 double* fy, double* fz, int j) {
  ax += gx;
  ay += gy;
  az += gz;
  if constexpr (HALF) {
    atomicAdd(fx + j, -gx);
    atomicAdd(fy + j, -gy);
    atomicAdd(fz + j, -gz);
  }
}

__global__ void zero_kernel(std::size_t n, double* a, double* b, double* c) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  a[i] = 0.0;
  if (b) b[i] = 0.0;
  if (c) c[i] = 0.0;
}

// The second half kick v += dt/2 F/m, as the default kernels fuse it, once the forces are whole.
__global__ void kick_kernel(std::size_t n, const Packed4* __restrict__ pos, const double* __restrict__ fx,
                            const double* __restrict__ fy, const double* __restrict__ fz, Kick kick) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || *kick.halted != 0) return;
  const double dtfm = kick.half_dt / kick.mass[static_cast<int>(pos[i].w)];
  kick.vx[i] = kicked(kick.vx[i], dtfm, fx[i]);
  kick.vy[i] = kicked(kick.vy[i], dtfm, fy[i]);
  kick.vz[i] = kicked(kick.vz[i], dtfm, fz[i]);
}

// ---- Lennard-Jones ---------------------------------------------------------------------------

template <bool EV, class R, bool HALF, int TPA>
__global__ void lj_variant_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos,
                                  const potentials::LjTerms* __restrict__ terms, int stride,
                                  const int* __restrict__ index, const int* __restrict__ count, std::size_t lstride,
                                  double* fx, double* fy, double* fz, EvOut ev, Kick kick) {
  const Slot<TPA> s;
  const std::size_t i = s.i;
  const bool active = i < n;  // no early return: the whole warp takes part in group_sum
  double ax = 0.0, ay = 0.0, az = 0.0;
  PairEv<HALF> acc;
  const Packed4 pi = active ? pos[i] : Packed4{0.0, 0.0, 0.0, 0.0};
  const double xi = pi.x, yi = pi.y, zi = pi.z;
  const int ti = static_cast<int>(pi.w);
  const int m = active ? count[i] : 0;
  walk_list<TPA>(pos, index, lstride, i, m, s.lane, [&](bool has, int j, const Packed4& pj) {
    if (!has) return;
    const double3 d = separation(xi, yi, zi, pj, box);
    const double dx = d.x, dy = d.y, dz = d.z;
    const R rx = static_cast<R>(dx), ry = static_cast<R>(dy), rz = static_cast<R>(dz);
    const R rsq = rx * rx + ry * ry + rz * rz;
    const potentials::LjTerms& p = terms[ti * stride + static_cast<int>(pj.w)];
    if (rsq < static_cast<R>(p.cutsq)) {
      R energy;
      const R fpair = kernels::lj_pair<EV>(p, rsq, energy);
      const double gx = static_cast<double>(rx * fpair), gy = static_cast<double>(ry * fpair),
                   gz = static_cast<double>(rz * fpair);
      add_force<HALF>(gx, gy, gz, ax, ay, az, fx, fy, fz, j);
      if constexpr (EV) acc.add_pair(static_cast<double>(energy), static_cast<double>(fpair), dx, dy, dz);
    }
  });
  finish_group<EV>(s, active, ti, ax, ay, az, acc, true, fx, fy, fz, ev, kick, xi, yi, zi);
}

// ---- EAM -------------------------------------------------------------------------------------

// Whether the inner list is due for pruning at this step (InnerList; `due` was cleared before):
// an atom moved more than half the buffer since the last pruning, or the list was built since.
__global__ void prune_due_kernel(std::size_t n, const Packed4* __restrict__ pos, InnerList in,
                                 const unsigned* list_epoch) {
  if (blockIdx.x == 0 && threadIdx.x == 0 && *list_epoch != in.state->epoch) in.state->due = 1;
  MOLSTEP_GRID_STRIDE(i, n) {
    const Packed4 p = pos[i];
    if (moved_beyond(p.x, p.y, p.z, in.hold[i], in.trigger)) in.state->due = 1;
  }
}

// With the displacement check made by the step before's force kernel (Drift): pruning is also
// due where the list was built since the last pruning.
__global__ void epoch_due_kernel(InnerList in, const unsigned* list_epoch) {
  if (*list_epoch != in.state->epoch) in.state->due = 1;
}

// The density pass, over the buffered inner list; where pruning is due, over the full list
// instead, writing the buffered list anew (each atom's neighbours within the cutoff plus the
// buffer, and the positions it was pruned at). At every step it also writes the neighbours
// within the cutoff for the force pass. Both keep the full list's order, so with one thread per
// atom the passes sum the same pairs in the same order however often the list is pruned (with a
// group per atom the entries are dealt to its lanes by their place in the list walked, so the
// grouping of a sum, and its round-off, can change). The inner lists spare the passes the ~40%
// of the full list in the skin. Also writes pf[i] = (x, y, z, F'(rho_i)) (full list), so the
// force pass reads a partner's position and embedding derivative in one 32-byte load. With TPA
// > 1 the group walks the list in rounds of TPA consecutive entries (the same number of rounds
// for every lane of the group) and a ballot over the group places each lane's kept entry, so a
// compacted list keeps the list's order. With HALF, rho_j gets i's share by atomicAdd, and the
// embedding (and pf) wait for eam_embed_kernel. The density sum and the embedding function stay
// double in either precision. With SHARED (one element, MOLSTEP_CUDA_TABLES=both) the density
// coefficients come from the table window in shared memory (kernels::EamWindow) and the kernel
// runs as a resident grid (for_slots).
template <bool EV, class R, bool HALF, int TPA, bool SHARED>
__global__ void eam_density_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos, Tables t,
                                   EamPacked pk, EamWindow win, const int* __restrict__ index,
                                   const int* __restrict__ count, std::size_t lstride, const unsigned* list_epoch,
                                   InnerList in, double* rho, Packed4* __restrict__ pf, double* e) {
  extern __shared__ double2 window[];  // SHARED: win's density part
  if constexpr (SHARED) kernels::fill_shared(window, win.density, win.density_bytes());
  const bool prune = in.state->due != 0;
  // Without a buffer the check is skipped and every pass prunes: the buffered list would never be
  // read, so it is neither kept nor written (the step is then the plain two-list one).
  const bool rewrite = prune && in.trigger > 0.0;
  const int wl = static_cast<int>(threadIdx.x % 32u);  // lane in the warp (blocks are whole warps)
  const unsigned group = ((1u << TPA) - 1u) << (wl / TPA * TPA);
  const unsigned below = (1u << wl) - 1u;
  for_slots<TPA, SHARED>(n, [&](const Slot<TPA>& s) {
    const std::size_t i = s.i;
    const bool active = i < n;
    // Appends j to list `to` of atom i where `take` (at slot `at`, counted on by the group).
    const auto append = [&](int* to, int& at, bool take, int j) {
      if constexpr (TPA == 1) {
        if (take) to[static_cast<std::size_t>(at) * lstride + i] = j;
        at += take ? 1 : 0;
      } else {
        const unsigned votes = __ballot_sync(group, take) & group;
        if (take) to[static_cast<std::size_t>(at + __popc(votes & below)) * lstride + i] = j;
        at += __popc(votes);
      }
    };
    double rho_i = 0.0;
    int kept = 0, cut = 0;
    const Packed4 pi = active ? pos[i] : Packed4{0.0, 0.0, 0.0, 0.0};
    const double xi = pi.x, yi = pi.y, zi = pi.z;
    const int ti = pk.one_type || !active ? 1 : static_cast<int>(pi.w);
    const int cnt = active ? (prune ? count[i] : in.count[i]) : 0;
    walk_list<TPA>(pos, prune ? index : in.index, lstride, i, cnt, s.lane, [&](bool has, int j, const Packed4& pj) {
      bool inside = false, keep = false;
      int tj = 1;
      double rsq = 0.0;
      if (has) {
        const double3 d = separation(xi, yi, zi, pj, box);
        const double dx = d.x, dy = d.y, dz = d.z;
        rsq = dx * dx + dy * dy + dz * dz;
        tj = pk.one_type ? 1 : static_cast<int>(pj.w);
        inside = rsq < t.cutsq;
        keep = rsq < in.cutsq;
      }
      if (rewrite) append(in.index, kept, keep, j);
      append(in.cut_index, cut, inside, j);
      if (inside) {
        int m;
        R p;
        R r, recip;
        kernels::distance(static_cast<R>(rsq), r, recip);
        locate(t, r, m, p);
        if constexpr (SHARED) {  // one element: rho_ij = rho_ji
          const double r = static_cast<double>(kernels::density_value(pk, win, window, m, p));
          rho_i += r;
          if constexpr (HALF) atomicAdd(rho + j, r);
        } else {
          rho_i += static_cast<double>(density_value(pk, type_pair(pk, ti, tj), m, p));
          if constexpr (HALF) atomicAdd(rho + j, static_cast<double>(density_value(pk, type_pair(pk, tj, ti), m, p)));
        }
      }
    });
    if constexpr (TPA > 1) rho_i = group_sum<TPA>(rho_i);
    if (!active || s.lane != 0) return;
    in.cut_count[i] = cut;
    if (rewrite) {
      in.count[i] = kept;
      in.hold[i] = pi;
    }
    if (i == 0) {
      ++in.state->passes;
      if (prune) {
        ++in.state->prunings;
        in.state->epoch = *list_epoch;
      }
    }
    if constexpr (HALF)
      atomicAdd(rho + i, rho_i);
    else
      pf[i] = Packed4{xi, yi, zi, embedding<EV>(t, ti, rho_i, e, i)};
  });
}

// With a half list: pf[i] = (x, y, z, F'(rho_i)) once every density is whole.
template <bool EV>
__global__ void eam_embed_kernel(std::size_t n, const Packed4* __restrict__ pos, Tables t, const double* rho,
                                 Packed4* pf, double* e) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Packed4 p = pos[i];
  pf[i] = Packed4{p.x, p.y, p.z, embedding<EV>(t, static_cast<int>(p.w), rho[i], e, i)};
}

// The force pass over the neighbours within the cutoff: a partner's position and F' from pf.
// With SHARED (one element, the default: MOLSTEP_CUDA_TABLES=force) the pair's coefficients come
// from the table window in shared memory (kernels::EamWindow), the kernel running as a resident
// grid (for_slots): 9-10% faster at 2M copper atoms on the H100 (bench/RESULTS.md, run 14).
template <bool EV, class R, bool HALF, int TPA, bool SHARED>
__global__ void eam_force_kernel(std::size_t n, DeviceBox box, const Packed4* __restrict__ pos,
                                 const Packed4* __restrict__ pf, Tables t, EamPacked pk, EamWindow win,
                                 const int* __restrict__ index, const int* __restrict__ count, std::size_t lstride,
                                 double* fx, double* fy, double* fz, EvOut ev, Kick kick) {
  extern __shared__ double2 window[];  // SHARED: win's force part
  if constexpr (SHARED) kernels::fill_shared(window, win.force, win.force_bytes());
  for_slots<TPA, SHARED>(n, [&](const Slot<TPA>& s) {
    const std::size_t i = s.i;
    const bool active = i < n;
    double ax = 0.0, ay = 0.0, az = 0.0;
    PairEv<HALF> acc;
    const Packed4 pi = active ? pf[i] : Packed4{0.0, 0.0, 0.0, 0.0};
    const double xi = pi.x, yi = pi.y, zi = pi.z, fpi = pi.w;
    const int ti = pk.one_type || !active ? 1 : static_cast<int>(pos[i].w);
    const int cnt = active ? count[i] : 0;  // InnerList::cut_count: every entry lies inside the cutoff
    walk_list<TPA>(pf, index, lstride, i, cnt, s.lane, [&](bool has, int j, const Packed4& pj) {
      if (!has) return;
      const double3 d = separation(xi, yi, zi, pj, box);
      const double dx = d.x, dy = d.y, dz = d.z;
      const double rsq = dx * dx + dy * dy + dz * dz;
      double phi, fpair;  // symmetric: the partner gets -fpair d
      if constexpr (SHARED) {
        eam_pair(t, pk, win, window, static_cast<R>(rsq), fpi, pj.w, phi, fpair);
      } else {
        const int q = type_pair(pk, ti, pk.one_type ? 1 : static_cast<int>(pos[j].w));
        eam_pair(t, pk, q, static_cast<R>(rsq), fpi, pj.w, phi, fpair);
      }
      const double gx = dx * fpair, gy = dy * fpair, gz = dz * fpair;
      add_force<HALF>(gx, gy, gz, ax, ay, az, fx, fy, fz, j);
      if constexpr (EV) acc.add_pair(phi, fpair, dx, dy, dz);
    });
    finish_group<EV>(s, active, ti, ax, ay, az, acc, false, fx, fy, fz, ev, kick, xi, yi, zi);
  });
}

// ---- dispatch --------------------------------------------------------------------------------

// Calls f(std::integral_constant<int, tpa>) for the supported thread counts.
template <class F>
void with_tpa(int tpa, F&& f) {
  switch (tpa) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    default: throw Error("threads per atom must be 1, 2, 4 or 8, got " + std::to_string(tpa));
  }
}

// The threads of one atom must lie in one warp and no warp may be partial (group_sum's mask).
void check_block(int tpa) {
  const int b = gpu::block_size();
  if (b % 32 != 0 || 32 % tpa != 0) throw Error("block size " + std::to_string(b) + " does not fit the atom groups");
}

void zero(std::size_t n, double* a, double* b = nullptr, double* c = nullptr) {
  gpu::launch(n, zero_kernel, n, a, b, c);
}

template <bool EV, class R, bool HALF>
void lj_launch(const LjLaunch& a, int tpa) {
  const DeviceList& l = *a.list;
  with_tpa(tpa, [&](auto T) {
    constexpr int TPA = decltype(T)::value;
    gpu::launch(a.n * TPA, lj_variant_kernel<EV, R, HALF, TPA>, a.n, a.box, a.pos, a.terms, a.stride,
                l.index.data(), l.count.data(), l.stride, a.fx, a.fy, a.fz, a.ev, a.kick);
  });
}

template <bool EV, class R>
void lj_launch(const LjLaunch& a, bool half, int tpa) {
  half ? lj_launch<EV, R, true>(a, tpa) : lj_launch<EV, R, false>(a, tpa);
}

template <bool EV, class R, bool HALF>
void eam_launch(const EamLaunch& a, int tpa) {
  const DeviceList& l = *a.list;
  const std::size_t n = a.n;
  const InnerList& in = a.inner;
  // Without a buffer the inner list is pruned at every step (any motion could close a gap of 0).
  // Otherwise the displacement check: here, or made by the step before's force kernel (then
  // only the list's epoch is left to compare), and if this step's force kernel makes the next
  // step's, it starts from `due` cleared once the density pass has read it.
  const bool buffered = in.trigger > 0.0;
  if (!buffered) {
    MOLSTEP_CUDA_CHECK(cudaMemsetAsync(&in.state->due, 1, sizeof(int), gpu::stream()));
  } else if (a.checked) {
    epoch_due_kernel<<<1, 1, 0, gpu::stream()>>>(in, l.epoch.data());
  } else {
    MOLSTEP_CUDA_CHECK(cudaMemsetAsync(&in.state->due, 0, sizeof(int), gpu::stream()));
    gpu::launch_resident(n, prune_due_kernel, n, a.pos, in, l.epoch.data());
  }
  const bool check_next = buffered && a.kick.drift.on;
  Kick kick = a.kick;
  if (check_next) {
    kick.drift.prune_hold = in.hold;
    kick.drift.prune_trigger = in.trigger;
    kick.drift.prune_due = &in.state->due;
  }
  const kernels::EamWindow& w = a.window;
  const bool shared = w.points > 0, shared_density = shared && gpu::tuning().eam_tables == gpu::Tuning::TableMemory::both;
  const int tb = gpu::tuning().table_block;
  with_tpa(tpa, [&](auto T) {
    constexpr int TPA = decltype(T)::value;
    const std::size_t items = n * TPA;
    if (shared_density)
      gpu::launch_resident_shared(items, tb, w.density_bytes(), eam_density_kernel<EV, R, HALF, TPA, true>, n, a.box,
                                  a.pos, a.tables, a.packed, w, l.index.data(), l.count.data(), l.stride,
                                  l.epoch.data(), in, a.rho, a.pf, EV ? a.ev.e : nullptr);
    else
      gpu::launch(items, eam_density_kernel<EV, R, HALF, TPA, false>, n, a.box, a.pos, a.tables, a.packed, w,
                  l.index.data(), l.count.data(), l.stride, l.epoch.data(), in, a.rho, a.pf, EV ? a.ev.e : nullptr);
    if constexpr (HALF) gpu::launch(n, eam_embed_kernel<EV>, n, a.pos, a.tables, a.rho, a.pf, EV ? a.ev.e : nullptr);
    if (check_next) MOLSTEP_CUDA_CHECK(cudaMemsetAsync(&in.state->due, 0, sizeof(int), gpu::stream()));
    if (shared)
      gpu::launch_resident_shared(items, tb, w.force_bytes(), eam_force_kernel<EV, R, HALF, TPA, true>, n, a.box,
                                  a.pos, a.pf, a.tables, a.packed, w, in.cut_index, in.cut_count, l.stride, a.fx,
                                  a.fy, a.fz, a.ev, kick);
    else
      gpu::launch(items, eam_force_kernel<EV, R, HALF, TPA, false>, n, a.box, a.pos, a.pf, a.tables, a.packed, w,
                  in.cut_index, in.cut_count, l.stride, a.fx, a.fy, a.fz, a.ev, kick);
  });
}

template <bool EV, class R>
void eam_launch(const EamLaunch& a, bool half, int tpa) {
  half ? eam_launch<EV, R, true>(a, tpa) : eam_launch<EV, R, false>(a, tpa);
}

}  // namespace

void lj_forces(const LjLaunch& a, bool ev, bool mixed, int tpa) {
  check_block(tpa);
  const bool half = a.list->half;
  if (half) zero(a.n, a.fx, a.fy, a.fz);
  if (mixed)
    ev ? lj_launch<true, float>(a, half, tpa) : lj_launch<false, float>(a, half, tpa);
  else
    ev ? lj_launch<true, double>(a, half, tpa) : lj_launch<false, double>(a, half, tpa);
  if (half && a.kick.on)
    gpu::launch(a.n, kick_kernel, a.n, a.pos, a.fx, a.fy, a.fz, a.kick);
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

void eam_forces(const EamLaunch& a, bool ev, bool mixed, int tpa) {
  check_block(tpa);
  const bool half = a.list->half;
  if (half) {
    zero(a.n, a.rho);
    zero(a.n, a.fx, a.fy, a.fz);
  }
  if (mixed)
    ev ? eam_launch<true, float>(a, half, tpa) : eam_launch<false, float>(a, half, tpa);
  else
    ev ? eam_launch<true, double>(a, half, tpa) : eam_launch<false, double>(a, half, tpa);
  if (half && a.kick.on)
    gpu::launch(a.n, kick_kernel, a.n, a.pos, a.fx, a.fy, a.fz, a.kick);
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace molstep::md::cuda::variants
