// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>

#include "support/paths.hpp"

namespace molstep::test {

/// A test with a fresh folder of its own, dir_, named by `prefix` and the test's name. The
/// folder is removed when the test passes and kept after a failure, so that what was written
/// can be looked at.
class ScratchDirTest : public testing::Test {
 protected:
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = scratch_dir(prefix_ + testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace molstep::test
