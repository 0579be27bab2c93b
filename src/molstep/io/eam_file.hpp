// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace molstep::io {

/// A DYNAMO funcfl file (LAMMPS `pair_style eam`): one element, tabulated embedding energy
/// F(rho) on nrho points of spacing drho, and effective charge Z(r) and density rho(r) on nr points
/// of spacing dr, all starting at 0. Units: eV, Angstrom; Z in sqrt(Hartree * Bohr).
struct Funcfl {
  std::string path;
  int atomic_number = 0;
  double mass = 0.0;
  int nrho = 0, nr = 0;
  double drho = 0.0, dr = 0.0, cutoff = 0.0;
  std::vector<double> frho, zr, rhor;
};

/// A DYNAMO setfl file (LAMMPS `pair_style eam/alloy`): several elements on one grid; per element
/// F(rho) and rho(r); per element pair (i >= j) r * phi(r) in eV * Angstrom.
struct Setfl {
  std::string path;
  std::vector<std::string> elements;
  std::vector<double> masses;
  int nrho = 0, nr = 0;
  double drho = 0.0, dr = 0.0, cutoff = 0.0;
  std::vector<std::vector<double>> frho, rhor;
  std::vector<std::vector<std::vector<double>>> z2r;  ///< z2r[i][j] for j <= i
};

/// Readers; errors name the file, the line and what was expected (truncated tables, bad counts,
/// non-numeric tokens).
Funcfl read_funcfl(const std::filesystem::path& path);
Setfl read_setfl(const std::filesystem::path& path);

}  // namespace molstep::io
