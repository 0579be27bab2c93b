// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/fullerene/graph.hpp"

namespace molstep::fullerene {

/// The fullerenes no L or B expansion produces, from which the generator grows every other:
/// C28-Td and the (5,0) nanotubes C20, C30, C40, ... (the dodecahedron with `rings` rings of five
/// hexagons inserted round its waist; rings = 0 is C20-Ih, whose dual is the icosahedron).
[[nodiscard]] Triangulation c28_td_dual();
[[nodiscard]] Triangulation nanotube_5_0_dual(int rings);

}  // namespace molstep::fullerene
