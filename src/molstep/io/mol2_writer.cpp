// SPDX-License-Identifier: MIT
#include "molstep/io/mol2_writer.hpp"

#include <fmt/format.h>

#include "molstep/core/error.hpp"

namespace molstep::io {

Mol2Writer::Mol2Writer(const std::filesystem::path& path) : file_(path) {}

void Mol2Writer::write(const Mol2Molecule& m) {
  const std::size_t n = m.positions.size();
  if (m.atom_names.size() != n || m.atom_types.size() != n)
    throw Error(fmt::format("{}: molecule '{}' has {} positions, {} atom names and {} atom types",
                            file_.path().string(), m.name, n, m.atom_names.size(), m.atom_types.size()));
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  // Counts: atoms, bonds, substructures, features, sets; then molecule type and charge type.
  fmt::format_to(it, "@<TRIPOS>MOLECULE\n{}\n{} {} 1 0 0\nSMALL\nNO_CHARGES\n\n{}\n", m.name, n, m.bonds.size(),
                 m.comment);
  fmt::format_to(it, "@<TRIPOS>ATOM\n");
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = m.positions[i];
    fmt::format_to(it, "{:>7} {:<8} {:>12.6f} {:>12.6f} {:>12.6f} {:<6} 1 MOL 0.0000\n", i + 1, m.atom_names[i], p[0],
                   p[1], p[2], m.atom_types[i]);
  }
  fmt::format_to(it, "@<TRIPOS>BOND\n");
  for (std::size_t k = 0; k < m.bonds.size(); ++k) {
    const auto& b = m.bonds[k];
    if (b.a < 0 || b.b < 0 || static_cast<std::size_t>(b.a) >= n || static_cast<std::size_t>(b.b) >= n)
      throw Error(fmt::format("{}: molecule '{}': bond {} joins atoms {} and {}, outside 0..{}", file_.path().string(),
                              m.name, k, b.a, b.b, n - 1));
    fmt::format_to(it, "{:>6} {:>5} {:>5} {}\n", k + 1, b.a + 1, b.b + 1, b.type);
  }
  fmt::format_to(it, "@<TRIPOS>SUBSTRUCTURE\n     1 MOL         1 TEMP              0 ****  ****    0 ROOT\n");
  file_.stream().write(out.data(), static_cast<std::streamsize>(out.size()));
}

void Mol2Writer::close() { file_.commit(); }

}  // namespace molstep::io
