// SPDX-License-Identifier: MIT
#pragma once

#include <cuda_runtime.h>

namespace molstep::fullerene::cuda {

/// Shared scratch for the block-wide collectives below: one value per warp (at most 32 warps),
/// plus one for the broadcast. Declare one per kernel and pass it to every call.
template <class T>
struct BlockScratch {
  T warp[33];
};

/// op(v) over the block, returned to every thread: a warp-shuffle tree in each warp, then one
/// over the warps' results (lanes past the last warp contribute `identity`). Every thread of the
/// block must call it (threads without an atom pass the identity). The order of the operations is
/// fixed by the block size, so the result is reproducible run to run. Ends with a barrier: the
/// scratch may be reused at once.
template <class T, class Op>
__device__ inline T block_reduce(T v, BlockScratch<T>& s, T identity, Op op) {
  for (int off = 16; off > 0; off /= 2) v = op(v, __shfl_down_sync(0xffffffffu, v, off));
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  if (lane == 0) s.warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T w = lane < warps ? s.warp[lane] : identity;
    for (int off = 16; off > 0; off /= 2) w = op(w, __shfl_down_sync(0xffffffffu, w, off));
    if (lane == 0) s.warp[32] = w;
  }
  __syncthreads();
  const T total = s.warp[32];
  __syncthreads();
  return total;
}

struct Plus {
  template <class T>
  __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  template <class T>
  __device__ T operator()(T a, T b) const { return max(a, b); }
};

/// Sum of v over the block (block_reduce's rules; threads without an atom pass 0).
template <class T>
__device__ inline T block_sum(T v, BlockScratch<T>& s) {
  return block_reduce(v, s, T(0), Plus{});
}

/// Maximum of v over the block (block_reduce's rules); `identity` is what lanes without a value
/// pass, e.g. 0 for magnitudes.
template <class T>
__device__ inline T block_max(T v, BlockScratch<T>& s, T identity = T(0)) {
  return block_reduce(v, s, identity, Max{});
}

/// Exclusive prefix sum of v over the block in thread order; every thread must call it.
/// `total` (if given) receives the block's sum. Ends with a barrier.
template <class T>
__device__ inline T block_exclusive_scan(T v, BlockScratch<T>& s, T* total = nullptr) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  T inclusive = v;
  for (int off = 1; off < 32; off *= 2) {
    const T up = __shfl_up_sync(0xffffffffu, inclusive, off);
    if (lane >= off) inclusive += up;
  }
  if (lane == 31) s.warp[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    T w = lane < warps ? s.warp[lane] : T(0);
    T inc = w;
    for (int off = 1; off < 32; off *= 2) {
      const T up = __shfl_up_sync(0xffffffffu, inc, off);
      if (lane >= off) inc += up;
    }
    s.warp[lane] = inc - w;  // exclusive offset of warp `lane`
    if (lane == 31) s.warp[32] = inc;
  }
  __syncthreads();
  const T result = s.warp[warp] + inclusive - v;
  if (total) *total = s.warp[32];
  __syncthreads();
  return result;
}

}  // namespace molstep::fullerene::cuda
