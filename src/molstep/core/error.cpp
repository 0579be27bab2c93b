// SPDX-License-Identifier: MIT
#include "molstep/core/error.hpp"

namespace molstep {

std::string SourceLoc::str() const {
  if (file.empty()) return {};
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

Error::Error(const std::string& message) : std::runtime_error(message), message_(message) {}

Error::Error(const SourceLoc& loc, const std::string& message)
    : std::runtime_error(loc.str().empty() ? message : loc.str() + ": " + message),
      loc_(loc),
      message_(message) {}

}  // namespace molstep
