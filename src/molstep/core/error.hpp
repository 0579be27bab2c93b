// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace molstep {

/// Where a piece of input came from: a file name and a 1-based line (0 when no line applies).
struct SourceLoc {
  std::string file;
  int line = 0;

  [[nodiscard]] std::string str() const;
};

/// An error the user can act on. what() reads "file:line: message" when a location is known.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message);
  Error(const SourceLoc& loc, const std::string& message);

  [[nodiscard]] const SourceLoc& loc() const { return loc_; }
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string message_;
};

}  // namespace molstep
