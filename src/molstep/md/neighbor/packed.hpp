// SPDX-License-Identifier: MIT
#pragma once

namespace molstep::md::neighbor {

/// Position and type of one owned or ghost atom, packed in 32 bytes so a pair kernel loads a
/// neighbour with one cache access (the neighbour module's private copy, GROMACS-style).
struct alignas(32) PackedAtom {
  double x, y, z;
  int type;
  int pad;
};

/// Force accumulator of one owned or ghost atom, 32 bytes for the same reason.
struct alignas(32) PackedForce {
  double x, y, z, pad;
};

}  // namespace molstep::md::neighbor
