// SPDX-License-Identifier: MIT
#pragma once

#include <utility>

#include "molstep/core/frame.hpp"
#include "molstep/io/trajectory.hpp"

namespace molstep::io {

/// Base of the readers that learn the number of atoms (and the topology) only by reading a
/// whole frame, as the text formats do: natoms() must be known once the file is open, so frame
/// 0 is read then and handed out by the first next().
class ReadAheadReader : public TrajectoryReader {
 public:
  bool next(core::Frame& frame) final {
    if (have_pending_) {
      have_pending_ = false;
      frame = std::move(pending_);
      pending_ = core::Frame{};
      return true;
    }
    return read_frame(frame);
  }

 protected:
  using TrajectoryReader::TrajectoryReader;

  /// Reads the file's next frame into `frame`; false at a clean end of file.
  virtual bool read_frame(core::Frame& frame) = 0;

  /// Reads frame 0 ahead; false when the file has no frame. Derived constructors call it last,
  /// since read_frame() needs their members.
  bool read_ahead() {
    have_pending_ = read_frame(pending_);
    return have_pending_;
  }

 private:
  core::Frame pending_;
  bool have_pending_ = false;
};

}  // namespace molstep::io
