// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "molstep/core/atomic_file.hpp"
#include "molstep/md/system.hpp"

namespace molstep::io {

/// A LAMMPS text dump (`dump ID all custom N FILE field...`): one ITEM: TIMESTEP / NUMBER OF
/// ATOMS / BOX BOUNDS / ATOMS block per frame, atoms sorted by id. The file appears when the
/// deck finishes (commit()); a failed run leaves no partial dump behind.
class CustomDump {
 public:
  /// Known per-atom fields.
  static const std::vector<std::string>& fields();

  /// Throws molstep::Error for an unknown field or a non-positive interval.
  CustomDump(std::string id, long every, const std::filesystem::path& path, std::vector<std::string> columns);

  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] long every() const { return every_; }
  /// Writes a frame unless one was already written at this step.
  void write(const md::System& system, long step);
  void commit();

 private:
  std::string id_;
  long every_;
  std::vector<std::string> columns_;
  std::unique_ptr<core::AtomicFile> file_;
  long last_step_ = -1;
};

}  // namespace molstep::io
