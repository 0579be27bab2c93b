// SPDX-License-Identifier: MIT
#pragma once

namespace molstep::core {

/// Whether kernels may take their hand-vectorised (AVX2 + FMA) paths: true when the processor
/// has them, unless the environment sets MOLSTEP_NO_SIMD. Tests switch it to compare paths.
bool simd_enabled();
void set_simd_enabled(bool on);

}  // namespace molstep::core
