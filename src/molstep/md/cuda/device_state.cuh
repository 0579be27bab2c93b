// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "molstep/gpu/device_array.cuh"

namespace molstep::md::cuda {

/// Orthogonal periodic box as kernels see it.
struct DeviceBox {
  double lo[3], len[3], inv[3];
};

/// Minimum-image difference (valid because every cutoff is at most half a box length).
__device__ inline double min_image(double d, double len, double inv) { return d - len * rint(d * inv); }

/// Per-atom state resident on the GPU for a whole run, structure of arrays.
struct DeviceAtoms {
  std::size_t n = 0;
  gpu::DeviceArray<double> x, y, z, vx, vy, vz, fx, fy, fz;
  gpu::DeviceArray<int> type, ix, iy, iz;
  gpu::DeviceArray<std::int64_t> id;
  gpu::DeviceArray<double> mass;  ///< per type, 1-based
};

/// A full neighbour list: for atom i, count[i] neighbours at index[k * stride + i] (column
/// major, so a warp reading its atoms' k-th neighbours touches consecutive words).
struct DeviceList {
  int max_neighbors = 0;
  std::size_t stride = 0;
  gpu::DeviceArray<int> index, count;
};

}  // namespace molstep::md::cuda
