// SPDX-License-Identifier: MIT
#pragma once

namespace molstep::core {

/// The Park-Miller minimal-standard generator exactly as LAMMPS's RanPark, including its
/// coordinate-hash reseeding. Only used where LAMMPS compatibility demands it
/// (`velocity ... create`); new code uses the counter-based generator in counter_rng.hpp.
class ParkRng {
 public:
  /// seed must be positive.
  explicit ParkRng(int seed);

  double uniform();   ///< in (0,1)
  double gaussian();  ///< unit normal, polar Box-Muller with a saved second value

  /// Reseeds from a hash of `base` and the bytes of `coord`, then warms up; this is what makes
  /// LAMMPS's `loop geom` velocities independent of the processor layout.
  void reset(int base, const double coord[3]);

 private:
  int seed_;
  bool have_saved_ = false;
  double saved_ = 0.0;
};

}  // namespace molstep::core
