// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "molstep/core/args.hpp"
#include "molstep/md/neighbor/ghosts.hpp"
#include "molstep/md/neighbor/neighbor_list.hpp"
#include "molstep/md/neighbor/packed.hpp"

namespace molstep::md::potentials {

/// Potential energy and virial W = sum r_ij (x) F_ij (xx, yy, zz, xy, xz, yz) of one evaluation.
struct EnergyVirial {
  double energy = 0.0;
  std::array<double, 6> virial{};

  /// Adds weight * (energy e, virial of the pair force fpair * (dx, dy, dz)).
  void add_pair(double weight, double e, double fpair, double dx, double dy, double dz) {
    const double wf = weight * fpair;
    energy += weight * e;
    virial[0] += wf * dx * dx;
    virial[1] += wf * dy * dy;
    virial[2] += wf * dz * dz;
    virial[3] += wf * dx * dy;
    virial[4] += wf * dx * dz;
    virial[5] += wf * dy * dz;
  }

  EnergyVirial& operator+=(const EnergyVirial& o) {
    energy += o.energy;
    for (int k = 0; k < 6; ++k) virial[k] += o.virial[k];
    return *this;
  }
};

/// `pair_modify` settings shared by all pair styles.
struct PairModify {
  enum class Mix { geometric, arithmetic, sixthpower };
  bool shift = false;
  Mix mix = Mix::geometric;
};

/// What a pair style computes from: the list, the packed positions of owned atoms and their
/// images, and the image map (many-body styles move per-atom values between owners and images).
struct PairInput {
  const neighbor::NeighborList& list;
  const std::vector<neighbor::PackedAtom>& atoms;
  const neighbor::Ghosts& ghosts;
};

/// A pair style through the deck's lifecycle: `pair_style` -> settings(), `pair_coeff` ->
/// coeff(), `run` -> init() (mixing, derived constants), then compute() every step.
class PairStyle {
 public:
  virtual ~PairStyle() = default;

  [[nodiscard]] virtual std::string_view name() const = 0;
  virtual void settings(const core::ArgReader& args) = 0;
  virtual void coeff(const core::ArgReader& args, int ntypes) = 0;
  /// Throws molstep::Error when a type pair has no coefficients and cannot be mixed.
  virtual void init(int ntypes, const PairModify& modify) = 0;
  /// Largest cutoff over all type pairs (valid after init()).
  [[nodiscard]] virtual double cutoff() const = 0;

  /// Masses the last coeff() call defines for the types it named (EAM files carry them),
  /// applied by the pair_coeff command.
  [[nodiscard]] virtual std::vector<std::pair<int, double>> type_masses() const { return {}; }

  /// Adds forces to `forces` (owned atoms and images, as indexed by the list) and returns the
  /// energy and virial when `energy_virial` is set (zero otherwise).
  virtual EnergyVirial compute(const PairInput& in, std::vector<neighbor::PackedForce>& forces, bool energy_virial) = 0;
};

/// The registry: creates the pair style named in a `pair_style` command, or fails at `args`'s
/// location listing the known styles.
std::unique_ptr<PairStyle> make_pair_style(const std::string& style, const core::ArgReader& args);

}  // namespace molstep::md::potentials
