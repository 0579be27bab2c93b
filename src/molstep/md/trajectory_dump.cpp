// SPDX-License-Identifier: MIT
#include "molstep/md/trajectory_dump.hpp"

#include "molstep/core/error.hpp"
#include "molstep/md/snapshot.hpp"

namespace molstep::md {

TrajectoryDump::TrajectoryDump(std::string id, long every, const std::filesystem::path& path,
                               io::TrajectoryFormat format, double dt)
    : Dump(std::move(id), every), path_(path), format_(format), dt_(dt) {
  if (every <= 0) throw Error("dump " + this->id() + ": interval must be a positive number of steps");
}

void TrajectoryDump::write(const System& system, long step) {
  if (step == last_step_) return;
  last_step_ = step;
  if (!writer_) {
    core::Topology topology;
    // XYZ names each atom: its type number, as LAMMPS's dump xyz does without element names.
    for (const int t : topology_of(system).type) topology.name.push_back(std::to_string(t));
    writer_ = io::create_trajectory(path_, format_, system.atoms.size(), topology);
  }
  writer_->write(snapshot(system, step, dt_, false));
}

void TrajectoryDump::commit() {
  if (writer_) writer_->close();
}

}  // namespace molstep::md
