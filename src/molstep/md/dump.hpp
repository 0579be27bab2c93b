// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>

#include "molstep/md/system.hpp"

namespace molstep::md {

/// A periodic snapshot of the atoms to a file (`dump ID all STYLE N FILE ...`). The file
/// appears complete at commit() (end of the deck or undump), never half-written.
class Dump {
 public:
  virtual ~Dump() = default;
  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] long every() const { return every_; }
  /// Writes a frame unless one was already written at this step.
  virtual void write(const System& system, long step) = 0;
  virtual void commit() = 0;

 protected:
  Dump(std::string id, long every) : id_(std::move(id)), every_(every) {}

 private:
  std::string id_;
  long every_;
};

}  // namespace molstep::md
