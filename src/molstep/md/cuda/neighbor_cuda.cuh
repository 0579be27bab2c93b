// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/cuda/device_state.cuh"

namespace molstep::md::cuda {

/// Builds full neighbour lists on the GPU: wraps atoms into the box, sorts them by cell (radix
/// sort, so cell neighbours are memory neighbours), and lists every atom within the list cutoff
/// from the 27 surrounding cells (minimum image). Keeps the positions of the build for the
/// half-skin displacement check. Opt-in variants (gpu::Tuning): a half list
/// (MOLSTEP_CUDA_LIST=half), atoms left unsorted with the cells reached through a sorted index
/// (MOLSTEP_CUDA_SORT=0), a padded list stride (MOLSTEP_CUDA_PAD=N).
class NeighborCuda {
 public:
  void build(DeviceAtoms& atoms, const DeviceBox& box, double list_cutoff, DeviceList& list);
  /// Whether any atom moved more than half the skin since the last build (one small copy).
  bool moved_beyond(const DeviceAtoms& atoms, double half_skin);
  [[nodiscard]] std::size_t bytes() const;

 private:
  /// Radix-sorts the atoms' cell keys (keys_sorted_, order_sorted_: cell slot -> atom) and, with
  /// `permute`, reorders every per-atom array to that order (so slot s is atom s).
  void sort_by_cell(DeviceAtoms& atoms, const DeviceBox& box, bool permute);

  int ncell_[3] = {0, 0, 0};
  double cell_len_[3] = {0, 0, 0};
  gpu::DeviceArray<unsigned> keys_, keys_sorted_;
  gpu::DeviceArray<int> order_, order_sorted_, cell_start_, cell_end_, flag_;
  gpu::DeviceArray<unsigned char> scratch_;
  gpu::DeviceArray<double> tmp_d_;
  gpu::DeviceArray<Packed4> tmp_p_, hold_;
  gpu::DeviceArray<int> tmp_i_;
  gpu::DeviceArray<std::int64_t> tmp_l_;
};

}  // namespace molstep::md::cuda
