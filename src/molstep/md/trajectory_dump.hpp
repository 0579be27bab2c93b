// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <memory>

#include "molstep/io/trajectory.hpp"
#include "molstep/md/dump.hpp"

namespace molstep::md {

/// `dump ID all xtc|dcd|xyz N FILE`: a standard trajectory of the wrapped positions in id
/// order, as LAMMPS's dump styles of those names write them (lengths taken as angstrom, so an
/// XTC holds nm; time in ps for real and metal units).
class TrajectoryDump final : public Dump {
 public:
  TrajectoryDump(std::string id, long every, const std::filesystem::path& path, io::TrajectoryFormat format,
                 double dt);
  void write(const System& system, long step) override;
  void commit() override;

 private:
  std::filesystem::path path_;
  io::TrajectoryFormat format_;
  double dt_;
  std::unique_ptr<io::TrajectoryWriter> writer_;
  long last_step_ = -1;
};

}  // namespace molstep::md
