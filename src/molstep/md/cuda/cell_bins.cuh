// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/md/cuda/device_state.cuh"
#include "molstep/md/cuda/step_status.cuh"

namespace molstep::md::cuda {

/// The cells of a neighbour-list build: wraps the atoms into the box and orders them by cell
/// (a stable counting sort: by cell, then by atom index, as a stable radix sort of the cell keys
/// orders them). Every kernel returns at once unless the step's StepStatus says a build is on
/// (building()), so the binning can sit in every step that might build, and in its graph,
/// without the host knowing whether it will.
class CellBins {
 public:
  /// Cells at least `min_len` wide in each direction (at least one per direction).
  CellBins(const DeviceBox& box, double min_len, std::size_t atoms);

  /// Enqueues the binning: wraps positions (counting image crossings; an atom still outside the
  /// box sets StepStatus::lost and halts the run), then fills slot_atom(), start() and end().
  /// With `hold`, also stores each wrapped position there (in atom order).
  void enqueue(DeviceAtoms& atoms, StepStatus* status, Packed4* hold);

  /// Cell c holds slots start()[c] .. end()[c] - 1; slot s is atom slot_atom()[s].
  [[nodiscard]] const int* slot_atom() const { return slot_atom_.data(); }
  [[nodiscard]] const int* start() const { return start_.data(); }
  [[nodiscard]] const int* end() const { return end_.data(); }
  [[nodiscard]] int3 counts() const { return int3{ncell_[0], ncell_[1], ncell_[2]}; }
  [[nodiscard]] double3 lengths() const { return double3{len_[0], len_[1], len_[2]}; }
  [[nodiscard]] double3 inverse_lengths() const { return double3{1.0 / len_[0], 1.0 / len_[1], 1.0 / len_[2]}; }
  [[nodiscard]] std::size_t bytes() const;

 private:
  DeviceBox box_;
  int ncell_[3] = {1, 1, 1};
  double len_[3] = {0, 0, 0};
  std::size_t cells_ = 0;
  gpu::DeviceArray<unsigned> key_;                        ///< each atom's cell
  gpu::DeviceArray<int> count_, start_, end_, slot_atom_;  ///< count_: zero between builds
  gpu::DeviceArray<int> tile_sum_;                        ///< the scan's atoms per tile of cells, then first slots
};

/// Cell coordinate of v along one direction (clamped into the grid).
__device__ inline int cell_coord(double v, double lo, double inv_cell, int n) {
  int k = static_cast<int>((v - lo) * inv_cell);
  return k < 0 ? 0 : (k >= n ? n - 1 : k);
}

}  // namespace molstep::md::cuda
