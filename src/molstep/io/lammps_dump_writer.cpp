// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_dump_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "molstep/core/error.hpp"
#include "molstep/io/text_frame_writer.hpp"

namespace molstep::io {

namespace {

class LammpsDumpWriter final : public TextFrameWriter {
 public:
  LammpsDumpWriter(const std::filesystem::path& path, std::size_t natoms, const core::Topology& t)
      : TextFrameWriter(path, natoms, "the dump"), types_(t.type) {
    if (!types_.empty() && types_.size() != natoms)
      throw Error(fmt::format("{}: topology has {} types, but the dump was opened for {} atoms", path.string(),
                              types_.size(), natoms));
  }

  void format_frame(const core::Frame& f, fmt::memory_buffer& out) override {
    const std::size_t n = natoms();
    const auto& b = f.box;
    if (b[0][1] != 0 || b[0][2] != 0 || b[1][2] != 0)
      throw Error(
          fmt::format("{}: frame {}: a LAMMPS box needs a along x and b in the xy plane", name(), frame_index()));
    auto it = std::back_inserter(out);
    fmt::format_to(it, "ITEM: TIMESTEP\n{}\nITEM: NUMBER OF ATOMS\n{}\n", f.step, n);
    if (!f.has_box()) {
      double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
      const std::vector<double>* r[3] = {&f.x, &f.y, &f.z};
      for (int d = 0; d < 3; ++d)
        if (n > 0) {
          const auto [mn, mx] = std::minmax_element(r[d]->begin(), r[d]->end());
          lo[d] = *mn;
          hi[d] = *mx;
        }
      fmt::format_to(it, "ITEM: BOX BOUNDS ff ff ff\n{} {}\n{} {}\n{} {}\n", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    } else if (f.orthorhombic()) {
      fmt::format_to(it, "ITEM: BOX BOUNDS pp pp pp\n0 {}\n0 {}\n0 {}\n", b[0][0], b[1][1], b[2][2]);
    } else {
      // LAMMPS writes the bounding box of the tilted cell with the tilts.
      const double xy = b[1][0], xz = b[2][0], yz = b[2][1];
      fmt::format_to(it, "ITEM: BOX BOUNDS xy xz yz pp pp pp\n{} {} {}\n{} {} {}\n{} {} {}\n",
                     std::min({0.0, xy, xz, xy + xz}), b[0][0] + std::max({0.0, xy, xz, xy + xz}), xy,
                     std::min(0.0, yz), b[1][1] + std::max(0.0, yz), xz, 0.0, b[2][2], yz);
    }
    fmt::format_to(it, "ITEM: ATOMS id type xu yu zu{}{}\n", f.has_velocities() ? " vx vy vz" : "",
                   f.has_forces() ? " fx fy fz" : "");
    for (std::size_t i = 0; i < n; ++i) {
      fmt::format_to(it, "{} {} {} {} {}", i + 1, types_.empty() ? 1 : types_[i], f.x[i], f.y[i], f.z[i]);
      append_velocity_force(f, i, out);
      out.push_back('\n');
    }
  }

 private:
  std::vector<int> types_;
};

}  // namespace

std::unique_ptr<TrajectoryWriter> create_lammps_dump(const std::filesystem::path& path, std::size_t natoms,
                                                     const core::Topology& topology) {
  return std::make_unique<LammpsDumpWriter>(path, natoms, topology);
}

}  // namespace molstep::io
