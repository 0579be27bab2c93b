// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "molstep/core/atomic_file.hpp"
#include "molstep/md/dump.hpp"
#include "molstep/md/system.hpp"

namespace molstep::io {

/// A LAMMPS text dump (`dump ID all custom N FILE field...`): one ITEM: TIMESTEP / NUMBER OF
/// ATOMS / BOX BOUNDS / ATOMS block per frame, atoms sorted by id. The file appears when the
/// deck finishes (commit()); a failed run leaves no partial dump behind.
class CustomDump final : public md::Dump {
 public:
  /// Known per-atom fields.
  static const std::vector<std::string>& fields();

  /// Throws molstep::Error for an unknown field or a non-positive interval.
  CustomDump(std::string id, long every, const std::filesystem::path& path, std::vector<std::string> columns);

  void write(const md::System& system, long step) override;
  void commit() override;

 private:
  std::vector<std::string> columns_;
  std::unique_ptr<core::AtomicFile> file_;
  long last_step_ = -1;
};

}  // namespace molstep::io
