// SPDX-License-Identifier: MIT
#include "molstep/core/timer.hpp"

namespace molstep::core {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::force: return "force";
    case Stage::neighbor: return "neighbor";
    case Stage::integrate: return "integrate";
    case Stage::output: return "output";
    case Stage::count: break;
  }
  return "?";
}

}  // namespace molstep::core
