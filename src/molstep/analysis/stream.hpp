// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include "molstep/analysis/network.hpp"
#include "molstep/io/trajectory.hpp"

namespace molstep::analysis {

struct StreamStats {
  std::size_t frames = 0;
  double seconds = 0;        ///< wall time of the whole pass
  double read_seconds = 0;   ///< time the reader thread spent reading and decoding
};

/// Pushes every frame of `reader` through `network`, starting with `first` (already read, used
/// to set the network up). A reader thread reads and decodes ahead into a bounded queue of
/// `queue_depth` frames while the calling thread computes; an error on either side stops both
/// and is rethrown here. Shows frames/s on stderr when it is a terminal.
StreamStats run_stream(io::TrajectoryReader& reader, core::Frame first, Network& network,
                       std::size_t queue_depth = 4, long max_frames = -1);

}  // namespace molstep::analysis
