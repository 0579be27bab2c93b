// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/fluctuation.hpp"

namespace molstep::analysis {

/// `cv`: heat capacity at constant volume from fluctuations.
///
/// method=energy (default), canonical (NVT) ensemble: Cv = (<E^2> - <E>^2) / (k_B T^2) with E the
/// total energy of each frame (scalar `energy`, default "etotal", else "pe" + "ke"), times
/// `scale` (default 1; e.g. the atom count for LAMMPS lj thermo output normalised per atom).
/// Reported in energy/K of the source's units, in units of k_B, per atom in k_B and per mole of
/// atoms in J/(mol K). Invalid for NVE runs (the total energy does not fluctuate there) and for
/// thermostats that do not sample the canonical ensemble (Berendsen).
///
/// method=temperature, microcanonical (NVE) ensemble, from the temperature variance, as GROMACS
/// g_energy: Cv = 1000 BOLTZ / (2/3 - nmol ndf VarT / (3 T^2)) = 3 R T^2 / (2 T^2 - nmol ndf VarT)
/// J/(mol K) per mole of molecules, with `nmol` molecules of `ndf` degrees of freedom each
/// (Lebowitz-Percus-Verlet; the 3 in the numerator is ndf = 3, so the general form
/// ndf R T^2 / (2 T^2 - nmol ndf VarT) is reported too). Needs the "temp" scalar.
class CvQuery final : public FluctuationQuery {
 public:
  CvQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void sample(const FrameData& data, std::span<double> values) override;
  [[nodiscard]] nlohmann::json results(double temperature) override;
  [[nodiscard]] std::string plot_ylabel() const override;

  bool energy_method_ = true;
  std::string energy_;  // scalar name, or empty for pe + ke
  double scale_ = 1.0;
  long nmol_ = 0, ndf_ = 0;
};

}  // namespace molstep::analysis
