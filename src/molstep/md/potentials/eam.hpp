// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <vector>

#include "molstep/io/eam_file.hpp"
#include "molstep/md/potentials/pair.hpp"
#include "molstep/md/potentials/spline.hpp"

namespace molstep::md::potentials {

/// The embedded-atom method, E = sum_i F_i(rho_i) + 1/2 sum_{i!=j} phi_ij(r_ij), with
/// rho_i = sum_j rho_j(r_ij), tabulated and interpolated exactly as LAMMPS's pair eam: the file's
/// tables are put on one grid (file2array) and turned into cubic pieces (CubicTable); past the
/// last density point F continues linearly. Distances in Angstrom, energies in eV (metal units).
struct EamTables {
  int nrho = 0, nr = 0;
  double drho = 0.0, dr = 0.0, rhomax = 0.0, cutmax = 0.0;
  double rdr = 0.0, rdrho = 0.0;  ///< 1/dr, 1/drho
  std::vector<CubicTable> frho, rhor, z2r;  ///< z2r = r * phi(r), or phi(r) itself if pair_is_phi
  bool pair_is_phi = false;
  int stride = 0;                           ///< ntypes + 1
  std::vector<int> type2frho;               ///< per type
  std::vector<int> type2rhor, type2z2r;     ///< per type pair, index i * stride + j

  /// Index of the table interval and local coordinate for r (LAMMPS's clamping).
  void locate_r(double r, int& m, double& p) const {
    p = r * rdr + 1.0;
    m = static_cast<int>(p);
    m = m < nr - 1 ? m : nr - 1;
    p -= m;
    p = p < 1.0 ? p : 1.0;
  }
  /// F and F' at density rho, extended linearly beyond rhomax.
  void embed(int type, double rho, double& f, double& fprime) const;
};

/// Shared evaluation of `eam` and `eam/alloy` (they differ only in how files become tables).
class PairEamBase : public PairStyle {
 public:
  void settings(const core::ArgReader& args) override;
  [[nodiscard]] double cutoff() const override { return tables_.cutmax; }
  [[nodiscard]] std::vector<std::pair<int, double>> type_masses() const override { return masses_; }
  EnergyVirial compute(const PairInput& in, std::vector<neighbor::PackedForce>& forces, bool energy_virial) override;
  [[nodiscard]] const EamTables& tables() const { return tables_; }

 protected:
  EamTables tables_;
  std::vector<std::pair<int, double>> masses_;

 private:
  std::vector<double> rho_, fp_;  ///< per owned atom and image, reused between steps
  std::vector<std::uint32_t> inner_j_, inner_n_;  ///< list entries inside the cutoff, per atom
  std::vector<double> inner_r_;                   ///< and their distances
};

/// `pair_style eam` with `pair_coeff I J FILE` (funcfl, one file per type, I == J pairs only;
/// cross terms from phi_ij = 27.2 * 0.529 * Z_i Z_j / r as LAMMPS).
class PairEam final : public PairEamBase {
 public:
  [[nodiscard]] std::string_view name() const override { return "eam"; }
  void coeff(const core::ArgReader& args, int ntypes) override;
  void init(int ntypes, const PairModify& modify) override;

 private:
  std::vector<io::Funcfl> files_;
  std::vector<int> map_;  ///< type -> file, -1 if unset
};

/// `pair_style eam/comd` with `pair_coeff I J FILE` (one funcfl file): CoMD's EAM, for
/// reproducing CoMD's numbers. It differs from `eam` in three ways: phi(r) = Z(r)^2 / r is
/// tabulated directly with CODATA's Hartree (27.21138505 eV) and Bohr (0.52917721092 A) where
/// LAMMPS rounds to 27.2 * 0.529 (1.9 meV/atom in Cu_u6's cohesive energy), phi(0) is
/// extrapolated linearly, and tables are interpolated by CoMD's quadratic scheme.
class PairEamComd final : public PairEamBase {
 public:
  [[nodiscard]] std::string_view name() const override { return "eam/comd"; }
  void coeff(const core::ArgReader& args, int ntypes) override;
  void init(int ntypes, const PairModify& modify) override;

 private:
  std::optional<io::Funcfl> file_;
  int ntypes_ = 0;
};

/// `pair_style eam/alloy` with `pair_coeff * * FILE ELEMENT...` (setfl, one element per type).
class PairEamAlloy final : public PairEamBase {
 public:
  [[nodiscard]] std::string_view name() const override { return "eam/alloy"; }
  void coeff(const core::ArgReader& args, int ntypes) override;
  void init(int ntypes, const PairModify& modify) override;

 private:
  std::optional<io::Setfl> file_;
  std::vector<int> map_;  ///< type -> element
};

}  // namespace molstep::md::potentials
