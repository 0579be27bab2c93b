// SPDX-License-Identifier: MIT
#include "molstep/core/simd.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

namespace molstep::core {

namespace {

bool detect() {
#if defined(__x86_64__)
  const char* off = std::getenv("MOLSTEP_NO_SIMD");
  if (off && *off && std::string(off) != "0") return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

std::atomic<int>& state() {
  static std::atomic<int> s{detect() ? 1 : 0};
  return s;
}

}  // namespace

bool simd_enabled() { return state().load(std::memory_order_relaxed) != 0; }

void set_simd_enabled(bool on) { state().store(on && detect() ? 1 : 0); }

}  // namespace molstep::core
