// SPDX-License-Identifier: MIT
#pragma once

// Scalar arithmetic written once for the CPU fixes and their GPU twins (md/cuda/fixes_cuda.cu),
// which run the same functions on the device: each operation is rounded on its own, in the
// order written. On the host these are the plain operators (the CPU build forms no fused
// multiply-adds); in device code they are the CUDA intrinsics that round to nearest without
// fusing (nvcc would otherwise contract a * b + c into one fma), so the device reproduces the
// host's bits. exp comes from the device's math library there (it may differ from glibc's in the
// last bit); sqrt and division are correctly rounded on both sides.

#include <cmath>

#if defined(__CUDACC__)
#define MOLSTEP_INTEGRATOR_HD __host__ __device__
#else
#define MOLSTEP_INTEGRATOR_HD
#endif

namespace molstep::md::integrators::rn {

[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}

[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}

[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double sqrt(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

[[nodiscard]] MOLSTEP_INTEGRATOR_HD inline double exp(double a) {
#if defined(__CUDA_ARCH__)
  return ::exp(a);
#else
  return std::exp(a);
#endif
}

}  // namespace molstep::md::integrators::rn
