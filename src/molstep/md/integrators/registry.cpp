// SPDX-License-Identifier: MIT
#include <functional>
#include <vector>

#include "molstep/md/integrators/fix.hpp"
#include "molstep/md/integrators/langevin.hpp"
#include "molstep/md/integrators/nose_hoover.hpp"
#include "molstep/md/integrators/nve.hpp"

namespace molstep::md::integrators {

namespace {

struct FixEntry {
  const char* name;
  const char* usage;
  std::function<std::unique_ptr<Fix>(const std::string&, const core::ArgReader&)> make;
};

double non_negative(const core::ArgReader& a, std::size_t i, const char* what) {
  const double v = a.number(i, what);
  if (!(v >= 0.0)) a.fail(std::string(what) + " must not be negative, got " + a.at(i, what));
  return v;
}

double positive(const core::ArgReader& a, std::size_t i, const char* what) {
  const double v = a.number(i, what);
  if (!(v > 0.0)) a.fail(std::string(what) + " must be positive, got " + a.at(i, what));
  return v;
}

const std::vector<FixEntry>& fix_table() {
  static const std::vector<FixEntry> table = {
      {"nve", "ID all nve",
       [](const std::string& id, const core::ArgReader& a) {
         a.expect_count(0, 0, "ID all nve");
         return std::make_unique<FixNve>(id);
       }},
      {"langevin", "ID all langevin TSTART TSTOP DAMP SEED",
       [](const std::string& id, const core::ArgReader& a) {
         a.expect_count(4, 4, "ID all langevin TSTART TSTOP DAMP SEED");
         const long long seed = a.integer(3, "the seed");
         if (seed <= 0) a.fail("seed must be a positive integer");
         const double t_start = non_negative(a, 0, "TSTART");
         const double t_stop = non_negative(a, 1, "TSTOP");
         return std::make_unique<FixLangevin>(id, t_start, t_stop, positive(a, 2, "DAMP"), static_cast<int>(seed));
       }},
      {"nvt", "ID all nvt temp TSTART TSTOP DAMP [tchain N]",
       [](const std::string& id, const core::ArgReader& a) {
         if (a.size() != 4 && a.size() != 6) a.expect_count(4, 4, "ID all nvt temp TSTART TSTOP DAMP [tchain N]");
         if (a.at(0, "temp") != "temp") a.fail("expected keyword 'temp', got '" + a.at(0, "temp") + "'");
         int chain = 3;
         if (a.size() == 6) {
           if (a.at(4, "tchain") != "tchain") a.fail("unknown keyword '" + a.at(4, "keyword") + "' (known: tchain)");
           chain = static_cast<int>(a.integer(5, "the chain length"));
         }
         const double t_start = positive(a, 1, "TSTART");
         const double t_stop = positive(a, 2, "TSTOP");
         return std::make_unique<FixNoseHoover>(id, t_start, t_stop, positive(a, 3, "DAMP"), chain);
       }},
  };
  return table;
}

}  // namespace

std::unique_ptr<Fix> make_fix(const std::string& id, const std::string& style, const core::ArgReader& args) {
  std::string known;
  for (const auto& e : fix_table()) {
    if (style == e.name) return e.make(id, args);
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  args.fail("unknown fix style '" + style + "' (known: " + known + ")");
}

}  // namespace molstep::md::integrators
