// SPDX-License-Identifier: MIT
// The GPU tests' first line: skips the test, with a message, where no CUDA device is present (or
// molstep was built without CUDA), so the suite passes on machines without a GPU.
#pragma once

#include <gtest/gtest.h>

#include "molstep/md/cuda/run_cuda.hpp"

#define REQUIRE_GPU()                            \
  if (::molstep::md::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device here (or molstep built without CUDA): GPU test skipped"
