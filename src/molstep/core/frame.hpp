// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace molstep::core {

/// One trajectory frame as structure of arrays, in molstep's analysis units: lengths in
/// angstrom (GROMACS nm are converted on read and write), time in ps, velocities in A/ps,
/// forces in kJ/(mol A) for GROMACS sources; other sources keep their own units (a molstep run
/// in LJ units stays in LJ units). Optional arrays are empty when the source lacks them.
struct Frame {
  std::int64_t step = 0;
  double time = 0;  ///< ps (or the source's time unit)
  /// Box vectors as rows a, b, c (angstrom); all zero when the source has no box.
  std::array<std::array<double, 3>, 3> box{};
  std::vector<double> x, y, z;     ///< positions, size natoms()
  std::vector<double> vx, vy, vz;  ///< velocities, empty or size natoms()
  std::vector<double> fx, fy, fz;  ///< forces, empty or size natoms()
  /// Per-frame scalars a source may carry (e.g. "pe", "ke", "temp", "press", "volume",
  /// "lambda"); queries that need one name it.
  std::map<std::string, double> scalars;

  [[nodiscard]] std::size_t natoms() const { return x.size(); }
  [[nodiscard]] bool has_box() const { return box[0][0] != 0 || box[1][1] != 0 || box[2][2] != 0; }
  [[nodiscard]] bool has_velocities() const { return !vx.empty(); }
  [[nodiscard]] bool has_forces() const { return !fx.empty(); }
  /// True when the box vectors are along x, y and z.
  [[nodiscard]] bool orthorhombic() const {
    return box[0][1] == 0 && box[0][2] == 0 && box[1][0] == 0 && box[1][2] == 0 && box[2][0] == 0 &&
           box[2][1] == 0;
  }
  [[nodiscard]] double volume() const {
    const auto& a = box[0];
    const auto& b = box[1];
    const auto& c = box[2];
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
           a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  void resize(std::size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
  }
  void resize_velocities(std::size_t n) {
    vx.resize(n);
    vy.resize(n);
    vz.resize(n);
  }
  void resize_forces(std::size_t n) {
    fx.resize(n);
    fy.resize(n);
    fz.resize(n);
  }
};

/// Box vectors from lengths a, b, c (angstrom) and angles alpha, beta, gamma (degrees), in the
/// GROMACS/MDAnalysis convention (a along x, b in the xy plane).
std::array<std::array<double, 3>, 3> box_from_lengths_angles(double a, double b, double c, double alpha,
                                                             double beta, double gamma);
/// Inverse of box_from_lengths_angles: {a, b, c, alpha, beta, gamma}.
std::array<double, 6> box_lengths_angles(const std::array<std::array<double, 3>, 3>& box);

}  // namespace molstep::core
