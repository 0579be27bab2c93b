// SPDX-License-Identifier: MIT
#include <functional>

#include "molstep/analysis/queries/charge.hpp"
#include "molstep/analysis/queries/com.hpp"
#include "molstep/analysis/queries/cv.hpp"
#include "molstep/analysis/queries/density.hpp"
#include "molstep/analysis/queries/dipole.hpp"
#include "molstep/analysis/queries/inertia.hpp"
#include "molstep/analysis/queries/kappa.hpp"
#include "molstep/analysis/queries/mass.hpp"
#include "molstep/analysis/queries/msd.hpp"
#include "molstep/analysis/queries/rdf.hpp"
#include "molstep/analysis/queries/rg.hpp"
#include "molstep/analysis/queries/sdh.hpp"
#include "molstep/analysis/queries/vacf.hpp"
#include "molstep/core/error.hpp"

namespace molstep::analysis {

namespace {

using Factory = std::function<std::unique_ptr<Query>(const QuerySpec&, QueryContext&)>;

// Every query reads its parameters in its constructor; whatever key is left unread afterwards
// is a typo or a parameter of another kind, and an error.
template <class Q>
Factory factory() {
  return [](const QuerySpec& spec, QueryContext& context) -> std::unique_ptr<Query> {
    Params params(spec);
    auto query = std::make_unique<Q>(spec, context, params);
    params.check_all_used();
    return query;
  };
}

struct Kind {
  const char* description;
  Factory make;
};

const std::map<std::string, Kind>& kinds() {
  static const std::map<std::string, Kind> table = {
      {"mass", {"total mass of a selection per frame [sel]", factory<MassQuery>()}},
      {"charge", {"total charge of a selection per frame [sel]", factory<ChargeQuery>()}},
      {"com", {"centre of mass per frame [sel]", factory<ComQuery>()}},
      {"rg", {"radius of gyration (and about x, y, z as gmx gyrate) per frame [sel]", factory<RgQuery>()}},
      {"inertia",
       {"inertia tensor about the centre of mass and principal moments per frame [sel]", factory<InertiaQuery>()}},
      {"dipole",
       {"dipole moment per frame and histogram of |D| [sel, center, per, bins, dmax]", factory<DipoleQuery>()}},
      {"msd",
       {"mean square displacement and Einstein diffusion coefficient [sel, dims, unwrap, fit_start, fit_end]",
        factory<MsdQuery>()}},
      {"vacf",
       {"velocity autocorrelation and Green-Kubo diffusion coefficient [sel, dims, int_end]", factory<VacfQuery>()}},
      {"density", {"density profile along an axis [sel, axis, bins, type]", factory<DensityQuery>()}},
      {"sdh", {"spatial distance histogram of all pairs [sel, width, rmax, pbc]", factory<SdhQuery>()}},
      {"rdf",
       {"radial distribution function g(r), as MDAnalysis InterRDF [sel1, sel2, rmax, bins, pbc]",
        factory<RdfQuery>()}},
      {"cv",
       {"heat capacity from energy (NVT) or temperature (NVE) fluctuations [method, temp, energy, scale, "
        "nmol, ndf]",
        factory<CvQuery>()}},
      {"kappa", {"isothermal compressibility from volume fluctuations (NPT) [temp]", factory<KappaQuery>()}},
  };
  return table;
}

}  // namespace

std::unique_ptr<Query> make_query(const QuerySpec& spec, QueryContext& context) {
  const auto& table = kinds();
  const auto it = table.find(spec.kind);
  if (it == table.end()) {
    std::string known;
    for (const auto& [name, kind] : table) known += (known.empty() ? "" : ", ") + name;
    throw Error("query '" + (spec.text.empty() ? spec.kind : spec.text) + "': unknown kind '" + spec.kind +
                "' (known: " + known + ")");
  }
  return it->second.make(spec, context);
}

const std::map<std::string, std::string>& query_kinds() {
  static const std::map<std::string, std::string> descriptions = [] {
    std::map<std::string, std::string> d;
    for (const auto& [name, kind] : kinds()) d.emplace(name, kind.description);
    return d;
  }();
  return descriptions;
}

}  // namespace molstep::analysis
