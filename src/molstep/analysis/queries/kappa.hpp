// SPDX-License-Identifier: MIT
#pragma once

#include "molstep/analysis/queries/fluctuation.hpp"

namespace molstep::analysis {

/// `kappa`: isothermal compressibility from volume fluctuations in the isothermal-isobaric (NPT)
/// ensemble, kappa_T = (<V^2> - <V>^2) / (k_B T <V>), as gmx energy; V is each frame's box volume
/// (or the scalar "volume" when the source has no box). Reported in 1/bar and 1/Pa (reduced
/// units for lj), with the bulk modulus 1/kappa_T. Needs a barostat that samples NPT correctly
/// (MTK, Parrinello-Rahman, MC barostat; not Berendsen).
class KappaQuery final : public FluctuationQuery {
 public:
  KappaQuery(const QuerySpec& spec, QueryContext& context, Params& params);

 private:
  void sample(const FrameData& data, std::span<double> values) override;
  [[nodiscard]] nlohmann::json results(double temperature) override;
  [[nodiscard]] std::string plot_ylabel() const override;

  bool from_box_ = true;
};

}  // namespace molstep::analysis
