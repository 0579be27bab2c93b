// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "molstep/core/atomic_file.hpp"

namespace molstep::io {

/// One molecule of a Tripos MOL2 file. Atom types are SYBYL types ("C.ar", "C.3", "O.2"),
/// bond types "1", "2", "3", "ar", ...; bonds name atoms by their 0-based index.
struct Mol2Molecule {
  std::string name;     ///< first line of @<TRIPOS>MOLECULE (one line)
  std::string comment;  ///< optional comment line (one line)
  std::vector<std::string> atom_names;
  std::vector<std::string> atom_types;
  std::vector<std::array<double, 3>> positions;  ///< Angstrom
  struct Bond {
    int a = 0, b = 0;
    std::string type = "1";
  };
  std::vector<Bond> bonds;
};

/// Writes MOL2 molecules back to back in one file (Open Babel, RDKit, PyMOL and Avogadro read
/// such multi-molecule files). The file appears under its name only at close().
class Mol2Writer {
 public:
  explicit Mol2Writer(const std::filesystem::path& path);

  /// Throws molstep::Error when the atom arrays differ in length or a bond names no atom.
  void write(const Mol2Molecule& molecule);
  void close();

 private:
  core::AtomicFile file_;
};

}  // namespace molstep::io
