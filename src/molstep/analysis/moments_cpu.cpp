// SPDX-License-Identifier: MIT
#include <algorithm>

#include "molstep/analysis/backend.hpp"
#include "molstep/core/parallel.hpp"

namespace molstep::analysis {

namespace {

// Sums run over fixed chunks that are then added in chunk order, so a result does not depend on
// the number of threads.
constexpr std::size_t kChunk = 4096;

void add_atom(Moments& m, double mass, double q, double x, double y, double z) {
  m.count += 1;
  m.mass += mass;
  m.charge += q;
  m.mr[0] += mass * x;
  m.mr[1] += mass * y;
  m.mr[2] += mass * z;
  m.qr[0] += q * x;
  m.qr[1] += q * y;
  m.qr[2] += q * z;
  m.mrr[0] += mass * x * x;
  m.mrr[1] += mass * y * y;
  m.mrr[2] += mass * z * z;
  m.mrr[3] += mass * x * y;
  m.mrr[4] += mass * x * z;
  m.mrr[5] += mass * y * z;
}

void add_moments(Moments& to, const Moments& from) {
  to.count += from.count;
  to.mass += from.mass;
  to.charge += from.charge;
  for (int d = 0; d < 3; ++d) {
    to.mr[d] += from.mr[d];
    to.qr[d] += from.qr[d];
  }
  for (int k = 0; k < 6; ++k) to.mrr[k] += from.mrr[k];
}

}  // namespace

std::vector<Moments> compute_moments(const Plan& plan, const core::Frame& frame) {
  std::vector<Moments> out(plan.moment_atoms.size());
  for (std::size_t s = 0; s < plan.moment_atoms.size(); ++s) {
    const auto& atoms = plan.moment_atoms[s];
    const std::size_t chunks = (atoms.size() + kChunk - 1) / kChunk;
    std::vector<Moments> partial(chunks);
#pragma omp parallel for schedule(static) if (atoms.size() >= core::kParallelMinAtoms)
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t end = std::min(atoms.size(), (c + 1) * kChunk);
      for (std::size_t k = c * kChunk; k < end; ++k) {
        const auto i = atoms[k];
        add_atom(partial[c], plan.mass[i], plan.charge[i], frame.x[i], frame.y[i], frame.z[i]);
      }
    }
    for (const auto& p : partial) add_moments(out[s], p);
  }
  return out;
}

}  // namespace molstep::analysis
