// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "molstep/md/potentials/pair.hpp"

namespace molstep::md::potentials {

/// Per type pair constants of the 12-6 Lennard-Jones potential
///   E(r) = 4 eps [(sigma/r)^12 - (sigma/r)^6] - offset,  r < rc,
/// in LAMMPS's form: lj1 = 48 eps sigma^12, lj2 = 24 eps sigma^6, lj3 = 4 eps sigma^12,
/// lj4 = 4 eps sigma^6; offset = E_unshifted(rc) with `pair_modify shift yes`, else 0.
struct LjTerms {
  double cutsq, lj1, lj2, lj3, lj4, offset;
};

/// The pair evaluator, shared by the CPU and (later) GPU loops.
struct LjEval {
  const LjTerms* terms;
  int stride;

  /// fpair = -dE/dr / r and (with EV) the energy e, both zero at or beyond the cutoff. Branch
  /// free, since about a third of listed pairs lie in the skin and the branch would mispredict.
  template <bool EV>
  double operator()(double rsq, int ti, int tj, double& e) const {
    const LjTerms& p = terms[ti * stride + tj];
    const double inside = rsq < p.cutsq ? 1.0 : 0.0;
    const double r2inv = 1.0 / rsq;
    const double r6inv = r2inv * r2inv * r2inv;
    if constexpr (EV) e = inside * (r6inv * (p.lj3 * r6inv - p.lj4) - p.offset);
    return inside * (r6inv * (p.lj1 * r6inv - p.lj2) * r2inv);
  }
};

/// `pair_style lj/cut RC` with `pair_coeff I J EPS SIGMA [RC]` (wildcards allowed) and mixing of
/// unset cross terms by `pair_modify mix` (eps = sqrt(eps_i eps_j); sigma and rc geometric,
/// arithmetic or sixthpower means).
class PairLjCut final : public PairStyle {
 public:
  [[nodiscard]] std::string_view name() const override { return "lj/cut"; }
  void settings(const core::ArgReader& args) override;
  void coeff(const core::ArgReader& args, int ntypes) override;
  void init(int ntypes, const PairModify& modify) override;
  [[nodiscard]] double cutoff() const override { return cut_max_; }
  EnergyVirial compute(const PairInput& in, std::vector<neighbor::PackedForce>& forces, bool energy_virial) override;

  /// Energy and fpair of one pair of types at squared distance rsq (for tests and tools).
  [[nodiscard]] LjEval evaluator() const { return LjEval{terms_.data(), stride_}; }

 private:
  struct Coeff {
    bool set = false;
    double epsilon = 0.0, sigma = 0.0, cut = 0.0;
  };
  double cut_global_ = 0.0;
  int ntypes_ = 0;
  std::vector<Coeff> coeff_;  ///< (ntypes+1)^2, as given by pair_coeff
  std::vector<LjTerms> terms_;
  int stride_ = 0;
  double cut_max_ = 0.0;
};

}  // namespace molstep::md::potentials
