// SPDX-License-Identifier: MIT
#include "molstep/core/atomic_file.hpp"

#include <unistd.h>

#include "molstep/core/error.hpp"

namespace molstep::core {

AtomicFile::AtomicFile(const std::filesystem::path& path)
    : path_(path), tmp_(path.string() + ".tmp" + std::to_string(::getpid())) {
  out_.open(tmp_, std::ios::out | std::ios::trunc);
  if (!out_) throw Error("cannot open '" + path_.string() + "' for writing");
  out_.precision(17);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ec;
  std::filesystem::remove(tmp_, ec);
}

void AtomicFile::commit() {
  if (committed_) return;
  out_.flush();
  if (!out_) throw Error("write to '" + path_.string() + "' failed");
  out_.close();
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) throw Error("cannot move finished file into place at '" + path_.string() + "': " + ec.message());
  committed_ = true;
}

}  // namespace molstep::core
