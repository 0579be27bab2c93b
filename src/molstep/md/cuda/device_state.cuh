// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "molstep/gpu/device_array.cuh"

namespace molstep::md::cuda {

/// Four doubles on a 32-byte boundary (CUDA 13 renamed the aligned vector type).
#if CUDART_VERSION >= 13000
using Packed4 = double4_32a;
#else
using Packed4 = double4;
#endif

/// Orthogonal periodic box as kernels see it.
struct DeviceBox {
  double lo[3], len[3], inv[3];
};

/// Minimum-image difference (valid because every cutoff is at most half a box length).
__device__ inline double min_image(double d, double len, double inv) { return d - len * rint(d * inv); }

/// Minimum-image separation x_i - x_j of two packed positions.
__device__ inline double3 separation(double xi, double yi, double zi, const Packed4& pj, const DeviceBox& box) {
  return make_double3(min_image(xi - pj.x, box.len[0], box.inv[0]), min_image(yi - pj.y, box.len[1], box.inv[1]),
                      min_image(zi - pj.z, box.len[2], box.inv[2]));
}

/// Whether (x, y, z) lies farther than sqrt(trigger) from q (displacement checks: an atom moved
/// more than half the skin, or half an inner list's buffer, since the positions q were kept).
__device__ inline bool moved_beyond(double x, double y, double z, const Packed4& q, double trigger) {
  const double dx = x - q.x, dy = y - q.y, dz = z - q.z;
  return dx * dx + dy * dy + dz * dz > trigger;
}

/// Per-atom state resident on the GPU for a whole run. Positions are packed with the type as
/// (x, y, z, type) so a pair kernel reads a neighbour in one 32-byte load; the rest is
/// structure of arrays.
struct DeviceAtoms {
  std::size_t n = 0;
  gpu::DeviceArray<Packed4> pos;
  gpu::DeviceArray<double> vx, vy, vz, fx, fy, fz;
  gpu::DeviceArray<int> type, ix, iy, iz;
  gpu::DeviceArray<std::int64_t> id;
  gpu::DeviceArray<double> mass;  ///< per type, 1-based

  /// The per-atom arrays as kernel arguments.
  struct View {
    Packed4* pos;
    double *vx, *vy, *vz;
    int *type, *ix, *iy, *iz;
    std::int64_t* id;
  };
  [[nodiscard]] View view() {
    return View{pos.data(), vx.data(), vy.data(), vz.data(), type.data(), ix.data(), iy.data(), iz.data(), id.data()};
  }
};

/// v + dtfm f and x + dt v as the device's integrators round them: one fused multiply-add each,
/// written out so that every kernel that kicks or drifts (the fixes', and the force kernels'
/// fused kick and Drift) gives the same bits.
__device__ inline double kicked(double v, double dtfm, double f) { return __fma_rn(dtfm, f, v); }
__device__ inline double drifted(double x, double dt, double v) { return __fma_rn(dt, v, x); }

/// What a step's force kernel may also do for the next step (StepCuda; EAM with fix nve): its
/// first half kick and drift, v += dt/2 F/m and x += dt v, the arithmetic of fix nve's
/// initial_integrate, and the displacement checks of the new positions that the next step would
/// otherwise make in kernels of their own: the neighbour list's (where the next step's decision
/// runs) and EAM's inner list's. The next step then skips those kernels.
struct Drift {
  bool on = false;
  double dt = 0.0;
  Packed4* pos = nullptr;               ///< written (x, y, z, type)
  const Packed4* list_hold = nullptr;   ///< positions at the last list build (null: no check)
  double list_trigger = 0.0;            ///< (half the skin)^2
  int* moved = nullptr;                 ///< &StepStatus::moved
  const Packed4* prune_hold = nullptr;  ///< positions at the inner list's last pruning (null: no check)
  double prune_trigger = 0.0;
  int* prune_due = nullptr;
};

/// The second half kick v += dt/2 F/m, fused into the force kernels (off for the setup force),
/// and with it, where drift.on, the next step's first half kick and drift (Drift). Skipped while
/// the run is halted (StepStatus::halted), as every change to the velocities is.
struct Kick {
  bool on;
  double half_dt;
  const double* mass;  ///< per type
  double *vx, *vy, *vz;
  const int* halted;  ///< &StepStatus::halted of the run
  Drift drift{};
};

/// A neighbour list: for atom i, count[i] neighbours at index[k * stride + i] (column major, so
/// a warp reading its atoms' k-th neighbours touches consecutive words). Full by default (every
/// pair under both atoms); half with MOLSTEP_CUDA_LIST=half (every pair once, see
/// NeighborCuda). The stride is the atom count, or that rounded up to MOLSTEP_CUDA_PAD.
struct DeviceList {
  int max_neighbors = 0;
  std::size_t stride = 0;
  bool half = false;  ///< how the last build made it: the pair kernels follow this, not the environment
  gpu::DeviceArray<int> index, count;
  /// On the device, counted up by every list pass that lists (NeighborCuda): what was derived
  /// from the list (EAM's inner list) knows from it when the atoms were renumbered.
  gpu::DeviceArray<unsigned> epoch;
};

}  // namespace molstep::md::cuda
