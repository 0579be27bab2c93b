// SPDX-License-Identifier: MIT
#include "molstep/md/potentials/lj.hpp"

#include <cmath>

#include "molstep/core/error.hpp"

namespace molstep::md::potentials {

namespace {

double mix_distance(double a, double b, PairModify::Mix mix) {
  switch (mix) {
    case PairModify::Mix::geometric: return std::sqrt(a * b);
    case PairModify::Mix::arithmetic: return 0.5 * (a + b);
    case PairModify::Mix::sixthpower: return std::pow(0.5 * (std::pow(a, 6.0) + std::pow(b, 6.0)), 1.0 / 6.0);
  }
  return 0.0;
}

double mix_energy(double e1, double e2, double s1, double s2, PairModify::Mix mix) {
  if (mix == PairModify::Mix::sixthpower)
    return 2.0 * std::sqrt(e1 * e2) * std::pow(s1, 3.0) * std::pow(s2, 3.0) / (std::pow(s1, 6.0) + std::pow(s2, 6.0));
  return std::sqrt(e1 * e2);
}

}  // namespace

void PairLjCut::settings(const core::ArgReader& args) {
  args.expect_count(1, 1, "lj/cut CUTOFF");
  cut_global_ = args.number(0, "the global cutoff");
  if (!(cut_global_ > 0.0)) args.fail("lj/cut cutoff must be positive, got " + args.at(0, "cutoff"));
}

void PairLjCut::coeff(const core::ArgReader& args, int ntypes) {
  args.expect_count(4, 5, "I J EPSILON SIGMA [CUTOFF]");
  if (ntypes_ != ntypes) {
    ntypes_ = ntypes;
    coeff_.assign(static_cast<std::size_t>((ntypes + 1) * (ntypes + 1)), Coeff{});
  }
  int ilo, ihi, jlo, jhi;
  if (!core::parse_type_range(args.at(0, "type I"), ntypes, ilo, ihi))
    args.fail("bad atom type '" + args.at(0, "I") + "' (expected 1.." + std::to_string(ntypes) + " or a * range)");
  if (!core::parse_type_range(args.at(1, "type J"), ntypes, jlo, jhi))
    args.fail("bad atom type '" + args.at(1, "J") + "' (expected 1.." + std::to_string(ntypes) + " or a * range)");
  const double eps = args.number(2, "epsilon");
  const double sigma = args.number(3, "sigma");
  const double cut = args.size() == 5 ? args.number(4, "cutoff") : cut_global_;
  if (eps < 0.0) args.fail("epsilon must not be negative");
  if (!(sigma > 0.0)) args.fail("sigma must be positive");
  if (!(cut > 0.0)) args.fail("cutoff must be positive");
  int count = 0;
  for (int i = ilo; i <= ihi; ++i)
    for (int j = std::max(jlo, i); j <= jhi; ++j) {
      coeff_[static_cast<std::size_t>(i * (ntypes + 1) + j)] = Coeff{true, eps, sigma, cut};
      ++count;
    }
  if (count == 0) args.fail("the type ranges select no pair with I <= J");
}

void PairLjCut::init(int ntypes, const PairModify& modify) {
  if (ntypes_ != ntypes) throw Error("pair lj/cut: no pair_coeff given");
  stride_ = ntypes + 1;
  terms_.assign(static_cast<std::size_t>(stride_ * stride_), LjTerms{0, 0, 0, 0, 0, 0});
  cut_max_ = 0.0;
  const auto at = [&](int i, int j) -> Coeff& { return coeff_[static_cast<std::size_t>(i * stride_ + j)]; };
  for (int i = 1; i <= ntypes; ++i)
    for (int j = i; j <= ntypes; ++j) {
      Coeff c = at(i, j);
      if (!c.set) {
        const Coeff& a = at(i, i);
        const Coeff& b = at(j, j);
        if (!a.set || !b.set)
          throw Error("pair lj/cut: no coefficients for types " + std::to_string(i) + " " + std::to_string(j) +
                      " and they cannot be mixed (set pair_coeff " + std::to_string(i) + " " + std::to_string(i) +
                      " and " + std::to_string(j) + " " + std::to_string(j) + ", or " + std::to_string(i) + " " +
                      std::to_string(j) + ")");
        c.epsilon = mix_energy(a.epsilon, b.epsilon, a.sigma, b.sigma, modify.mix);
        c.sigma = mix_distance(a.sigma, b.sigma, modify.mix);
        c.cut = mix_distance(a.cut, b.cut, modify.mix);
      }
      LjTerms t;
      t.cutsq = c.cut * c.cut;
      t.lj1 = 48.0 * c.epsilon * std::pow(c.sigma, 12.0);
      t.lj2 = 24.0 * c.epsilon * std::pow(c.sigma, 6.0);
      t.lj3 = 4.0 * c.epsilon * std::pow(c.sigma, 12.0);
      t.lj4 = 4.0 * c.epsilon * std::pow(c.sigma, 6.0);
      t.offset = 0.0;
      if (modify.shift) {
        const double ratio = c.sigma / c.cut;
        t.offset = 4.0 * c.epsilon * (std::pow(ratio, 12.0) - std::pow(ratio, 6.0));
      }
      terms_[static_cast<std::size_t>(i * stride_ + j)] = t;
      terms_[static_cast<std::size_t>(j * stride_ + i)] = t;
      cut_max_ = std::max(cut_max_, c.cut);
    }
}

}  // namespace molstep::md::potentials
