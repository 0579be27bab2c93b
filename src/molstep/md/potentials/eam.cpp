// SPDX-License-Identifier: MIT
#include "molstep/md/potentials/eam.hpp"

#include <algorithm>
#include <cmath>

#include "molstep/core/error.hpp"

namespace molstep::md::potentials {

namespace {

constexpr double kSixth = 1.0 / 6.0;
// Hartree * Bohr in eV * Angstrom as LAMMPS (and the DYNAMO codes) round it.
constexpr double kHartreeBohr = 27.2 * 0.529;

// LAMMPS's four-point Lagrange interpolation of a 1-based table f[1..n] with spacing `delta` at x.
double lagrange4(const std::vector<double>& f0, int n, double delta, double x) {
  const auto f = [&](int k) { return f0[static_cast<std::size_t>(k - 1)]; };
  double p = x / delta + 1.0;
  int k = static_cast<int>(p);
  k = std::min(k, n - 2);
  k = std::max(k, 2);
  p -= k;
  p = std::min(p, 2.0);
  const double c1 = -kSixth * p * (p - 1.0) * (p - 2.0);
  const double c2 = 0.5 * (p * p - 1.0) * (p - 2.0);
  const double c3 = -0.5 * p * (p + 1.0) * (p - 2.0);
  const double c4 = kSixth * p * (p * p - 1.0);
  return c1 * f(k - 1) + c2 * f(k) + c3 * f(k + 1) + c4 * f(k + 2);
}

// 1-based copy of a 0-based table, as CubicTable::build expects.
std::vector<double> one_based(const std::vector<double>& v) {
  std::vector<double> out(v.size() + 1, 0.0);
  std::copy(v.begin(), v.end(), out.begin() + 1);
  return out;
}

// Lower-triangular index of the (a, b) element pair, LAMMPS's type2z2r.
int pair_index(int a, int b) {
  if (a < b) std::swap(a, b);
  return a * (a + 1) / 2 + b;
}

// Which table each type and type pair uses (LAMMPS's type2frho, type2rhor, type2z2r), from the
// type -> file or element map: F and rho belong to the element, phi to the unordered pair.
void map_types(EamTables& T, const std::vector<int>& map, int ntypes) {
  const auto at = [&](int t) { return map[static_cast<std::size_t>(t)]; };
  T.stride = ntypes + 1;
  T.type2frho.assign(static_cast<std::size_t>(T.stride), 0);
  T.type2rhor.assign(static_cast<std::size_t>(T.stride * T.stride), 0);
  T.type2z2r.assign(static_cast<std::size_t>(T.stride * T.stride), 0);
  for (int i = 1; i <= ntypes; ++i) {
    T.type2frho[static_cast<std::size_t>(i)] = at(i);
    for (int j = 1; j <= ntypes; ++j) {
      T.type2rhor[static_cast<std::size_t>(i * T.stride + j)] = at(i);
      T.type2z2r[static_cast<std::size_t>(i * T.stride + j)] = pair_index(at(i), at(j));
    }
  }
}

// The tables on the file's own grid (setfl, and CoMD's single funcfl), no regridding.
template <class File>
void use_file_grid(EamTables& T, const File& f) {
  T.nrho = f.nrho;
  T.drho = f.drho;
  T.nr = f.nr;
  T.dr = f.dr;
  T.rhomax = (T.nrho - 1) * T.drho;
  T.rdr = 1.0 / T.dr;
  T.rdrho = 1.0 / T.drho;
  T.cutmax = f.cutoff;
}

}  // namespace

void EamTables::embed(int type, double rho, double& f, double& fprime) const {
  double p = rho * rdrho + 1.0;
  int m = static_cast<int>(p);
  m = std::max(1, std::min(m, nrho - 1));
  p -= m;
  p = std::min(p, 1.0);
  const CubicTable& t = frho[static_cast<std::size_t>(type2frho[static_cast<std::size_t>(type)])];
  fprime = t.derivative(m, p);
  f = t.value(m, p);
  if (rho > rhomax) f += fprime * (rho - rhomax);
}

void PairEamBase::settings(const core::ArgReader& args) { args.expect_count(0, 0, "(no arguments)"); }

void PairEam::coeff(const core::ArgReader& args, int ntypes) {
  args.expect_count(3, 3, "I J FILE");
  int ilo, ihi, jlo, jhi;
  if (!core::parse_type_range(args.at(0, "I"), ntypes, ilo, ihi) || !core::parse_type_range(args.at(1, "J"), ntypes, jlo, jhi))
    args.fail("bad atom types '" + args.at(0, "I") + " " + args.at(1, "J") + "' (expected 1.." + std::to_string(ntypes) +
              " or * ranges)");
  if (static_cast<int>(map_.size()) != ntypes + 1) map_.assign(static_cast<std::size_t>(ntypes) + 1, -1);
  const std::string& path = args.at(2, "file");
  int index = -1;
  for (std::size_t k = 0; k < files_.size(); ++k)
    if (files_[k].path == path) index = static_cast<int>(k);
  if (index < 0) {
    files_.push_back(io::read_funcfl(path));
    index = static_cast<int>(files_.size()) - 1;
  }
  int count = 0;
  masses_.clear();  // only the types this pair_coeff names take the file's mass, as in LAMMPS
  for (int i = ilo; i <= ihi; ++i)
    if (i >= jlo && i <= jhi) {
      map_[static_cast<std::size_t>(i)] = index;
      masses_.emplace_back(i, files_[static_cast<std::size_t>(index)].mass);
      ++count;
    }
  if (count == 0) args.fail("pair_style eam takes I,I pairs only (one funcfl file per type); use eam/alloy for alloys");
}

void PairEam::init(int ntypes, const PairModify&) {
  if (static_cast<int>(map_.size()) != ntypes + 1) throw Error("pair eam: no pair_coeff given");
  for (int t = 1; t <= ntypes; ++t)
    if (map_[static_cast<std::size_t>(t)] < 0)
      throw Error("pair eam: no potential file for atom type " + std::to_string(t) + " (pair_coeff " +
                  std::to_string(t) + " " + std::to_string(t) + " FILE)");
  EamTables& T = tables_;
  // One grid for all files: the largest spacing and the longest range of any file in use (as LAMMPS).
  double rmax = 0.0, rhomax = 0.0;
  T.dr = T.drho = 0.0;
  std::vector<bool> used(files_.size(), false);
  for (int t = 1; t <= ntypes; ++t) used[static_cast<std::size_t>(map_[static_cast<std::size_t>(t)])] = true;
  T.cutmax = 0.0;
  for (std::size_t k = 0; k < files_.size(); ++k) {
    T.cutmax = std::max(T.cutmax, files_[k].cutoff);
    if (!used[k]) continue;
    const auto& f = files_[k];
    T.dr = std::max(T.dr, f.dr);
    T.drho = std::max(T.drho, f.drho);
    rmax = std::max(rmax, (f.nr - 1) * f.dr);
    rhomax = std::max(rhomax, (f.nrho - 1) * f.drho);
  }
  T.nr = static_cast<int>(rmax / T.dr + 0.5);
  T.nrho = static_cast<int>(rhomax / T.drho + 0.5);
  T.rdr = 1.0 / T.dr;
  T.rdrho = 1.0 / T.drho;
  T.rhomax = rhomax;
  T.frho.clear();
  T.rhor.clear();
  T.z2r.clear();
  for (const auto& f : files_) {
    std::vector<double> F(static_cast<std::size_t>(T.nrho) + 1, 0.0), R(static_cast<std::size_t>(T.nr) + 1, 0.0);
    for (int m = 1; m <= T.nrho; ++m) F[static_cast<std::size_t>(m)] = lagrange4(f.frho, f.nrho, f.drho, (m - 1) * T.drho);
    for (int m = 1; m <= T.nr; ++m) R[static_cast<std::size_t>(m)] = lagrange4(f.rhor, f.nr, f.dr, (m - 1) * T.dr);
    T.frho.push_back(CubicTable::build(F, T.nrho, T.drho));
    T.rhor.push_back(CubicTable::build(R, T.nr, T.dr));
  }
  for (std::size_t i = 0; i < files_.size(); ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      std::vector<double> Z(static_cast<std::size_t>(T.nr) + 1, 0.0);
      for (int m = 1; m <= T.nr; ++m) {
        const double r = (m - 1) * T.dr;
        const double zi = lagrange4(files_[i].zr, files_[i].nr, files_[i].dr, r);
        const double zj = lagrange4(files_[j].zr, files_[j].nr, files_[j].dr, r);
        Z[static_cast<std::size_t>(m)] = kHartreeBohr * zi * zj;
      }
      T.z2r.push_back(CubicTable::build(Z, T.nr, T.dr));
    }
  map_types(T, map_, ntypes);
}

void PairEamComd::coeff(const core::ArgReader& args, int ntypes) {
  args.expect_count(3, 3, "* * FILE");
  int ilo, ihi, jlo, jhi;
  if (!core::parse_type_range(args.at(0, "I"), ntypes, ilo, ihi) || !core::parse_type_range(args.at(1, "J"), ntypes, jlo, jhi) ||
      ilo != 1 || ihi != ntypes || jlo != 1 || jhi != ntypes)
    args.fail("eam/comd describes one element: use 'pair_coeff * * FILE'");
  file_ = io::read_funcfl(args.at(2, "file"));
  ntypes_ = ntypes;
  masses_.clear();
  for (int t = 1; t <= ntypes; ++t) masses_.emplace_back(t, file_->mass);
}

void PairEamComd::init(int ntypes, const PairModify&) {
  if (!file_ || ntypes_ != ntypes) throw Error("pair eam/comd: no pair_coeff given");
  constexpr double kHartreeToEv = 27.21138505, kBohrToAngstrom = 0.52917721092;
  const io::Funcfl& f = *file_;
  EamTables& T = tables_;
  use_file_grid(T, f);
  T.pair_is_phi = true;
  std::vector<double> phi(f.zr.size());
  for (std::size_t i = 1; i < phi.size(); ++i) {
    const double r = static_cast<double>(i) * f.dr;
    phi[i] = f.zr[i] * (f.zr[i] / r);
    phi[i] *= kHartreeToEv * kBohrToAngstrom;
  }
  phi[0] = phi[1] + (phi[1] - phi[2]);
  T.frho = {CubicTable::comd_quadratic(f.frho, T.drho)};
  T.rhor = {CubicTable::comd_quadratic(f.rhor, T.dr)};
  T.z2r = {CubicTable::comd_quadratic(phi, T.dr)};
  map_types(T, std::vector<int>(static_cast<std::size_t>(ntypes) + 1, 0), ntypes);
}

void PairEamAlloy::coeff(const core::ArgReader& args, int ntypes) {
  if (args.size() != static_cast<std::size_t>(ntypes) + 3)
    args.fail("expected '* * FILE' and one element name per atom type (" + std::to_string(ntypes) + "), got " +
              std::to_string(args.size()) + " arguments");
  if (args.at(0, "I") != "*" || args.at(1, "J") != "*") args.fail("eam/alloy takes 'pair_coeff * * FILE ELEMENT...'");
  file_ = io::read_setfl(args.at(2, "file"));
  map_.assign(static_cast<std::size_t>(ntypes) + 1, -1);
  masses_.clear();
  for (int t = 1; t <= ntypes; ++t) {
    const std::string& name = args.at(static_cast<std::size_t>(2 + t), "element");
    const auto it = std::find(file_->elements.begin(), file_->elements.end(), name);
    if (it == file_->elements.end()) {
      std::string known;
      for (const auto& e : file_->elements) known += (known.empty() ? "" : ", ") + e;
      args.fail("element '" + name + "' is not in " + file_->path + " (it has: " + known + ")");
    }
    map_[static_cast<std::size_t>(t)] = static_cast<int>(it - file_->elements.begin());
    masses_.emplace_back(t, file_->masses[static_cast<std::size_t>(map_[static_cast<std::size_t>(t)])]);
  }
}

void PairEamAlloy::init(int ntypes, const PairModify&) {
  if (!file_ || static_cast<int>(map_.size()) != ntypes + 1) throw Error("pair eam/alloy: no pair_coeff given");
  const io::Setfl& f = *file_;
  EamTables& T = tables_;
  use_file_grid(T, f);
  T.frho.clear();
  T.rhor.clear();
  T.z2r.clear();
  for (std::size_t e = 0; e < f.elements.size(); ++e) {
    T.frho.push_back(CubicTable::build(one_based(f.frho[e]), T.nrho, T.drho));
    T.rhor.push_back(CubicTable::build(one_based(f.rhor[e]), T.nr, T.dr));
  }
  for (std::size_t i = 0; i < f.elements.size(); ++i)
    for (std::size_t j = 0; j <= i; ++j) T.z2r.push_back(CubicTable::build(one_based(f.z2r[i][j]), T.nr, T.dr));
  map_types(T, map_, ntypes);
}

}  // namespace molstep::md::potentials
