// SPDX-License-Identifier: MIT
#include <cmath>

#include "molstep/core/error.hpp"
#include "molstep/md/potentials/eam.hpp"
#include "molstep/md/potentials/pair_loop_cpu.hpp"

namespace molstep::md::potentials {

// Three passes as LAMMPS: densities (half list, both atoms of a pair), images' densities folded
// onto owners, embedding energies and F'(rho) for owned atoms copied out to images, then forces.
// Each pass over the list runs slab by slab (for_each_slab), so results do not depend on the
// thread count.
EnergyVirial PairEamBase::compute(const PairInput& in, std::vector<neighbor::PackedForce>& forces, bool energy_virial) {
  const auto& list = in.list;
  if (list.full) throw Error("pair eam: full neighbour lists are not supported on the CPU");
  const EamTables& T = tables_;
  const std::size_t nlocal = list.nlocal, ntotal = in.atoms.size();
  const bool newton = list.newton;
  const neighbor::PackedAtom* x = in.atoms.data();
  const auto* nb = list.neighbors.data();
  const auto* off = list.offsets.data();
  const double cutsq = T.cutmax * T.cutmax;
  const bool pair_is_phi = T.pair_is_phi;
  // Tables per type pair, resolved once: rho_of[a * stride + b] is the density an atom of type a
  // contributes at an atom of type b; pair_of[a * stride + b] is r * phi_ab.
  std::vector<const CubicTable*> rho_of(T.type2rhor.size()), pair_of(T.type2z2r.size());
  for (std::size_t k = 0; k < rho_of.size(); ++k) {
    rho_of[k] = &T.rhor[static_cast<std::size_t>(T.type2rhor[k])];
    pair_of[k] = &T.z2r[static_cast<std::size_t>(T.type2z2r[k])];
  }
  const auto rhor = [&](int from, int to) -> const CubicTable& { return *rho_of[static_cast<std::size_t>(from * T.stride + to)]; };

  // Pass 1 also compacts each atom's list to the pairs inside the cutoff, with their distances,
  // so the force pass runs without the cutoff branch (a skin of 1 A leaves ~40% of listed pairs
  // outside, and that branch mispredicts) and without a second square root.
  inner_j_.resize(list.pairs());
  inner_r_.resize(list.pairs());
  inner_n_.resize(nlocal);
  std::uint32_t* ij = inner_j_.data();
  double* ir = inner_r_.data();
  std::uint32_t* in_count = inner_n_.data();
  rho_.assign(ntotal, 0.0);
  double* rho = rho_.data();
  for_each_slab(list, [&](std::size_t s) {
    for (std::size_t i = list.slabs[s]; i < list.slabs[s + 1]; ++i) {
      const int ti = x[i].type;
      const std::uint32_t base = off[i];
      std::uint32_t n = 0;
      for (std::uint32_t k = off[i]; k < off[i + 1]; ++k) {
        const std::uint32_t j = nb[k];
        const double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
        ij[base + n] = j;
        ir[base + n] = dx * dx + dy * dy + dz * dz;
        n += ir[base + n] < cutsq ? 1 : 0;
      }
      in_count[i] = n;
      double rho_i = 0.0;
      for (std::uint32_t k = base; k < base + n; ++k) {
        const std::uint32_t j = ij[k];
        const int tj = x[j].type;
        ir[k] = std::sqrt(ir[k]);
        int m;
        double p;
        T.locate_r(ir[k], m, p);
        const CubicTable& from_j = rhor(tj, ti);
        const CubicTable& from_i = rhor(ti, tj);
        const double at_i = from_j.value(m, p);
        rho_i += at_i;
        if (newton || j < nlocal) rho[j] += &from_i == &from_j ? at_i : from_i.value(m, p);
      }
      rho[i] += rho_i;
    }
  });
  if (newton) in.ghosts.fold_scalar(rho_, nlocal);

  fp_.assign(ntotal, 0.0);
  double embedding = 0.0;
  for (std::size_t i = 0; i < nlocal; ++i) {
    double f;
    T.embed(x[i].type, rho[i], f, fp_[i]);
    embedding += f;
  }
  in.ghosts.forward_scalar(fp_, nlocal);
  const double* fp = fp_.data();

  std::vector<EnergyVirial> partial(list.slabs.size() - 1);
  neighbor::PackedForce* fo = forces.data();
  for_each_slab(list, [&](std::size_t s) {
    EnergyVirial ev;
    for (std::size_t i = list.slabs[s]; i < list.slabs[s + 1]; ++i) {
      const int ti = x[i].type;
      double fxi = 0.0, fyi = 0.0, fzi = 0.0;
      for (std::uint32_t k = off[i]; k < off[i] + in_count[i]; ++k) {
        const std::uint32_t j = ij[k];
        const double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
        const int tj = x[j].type;
        const double r = ir[k];
        int m;
        double p;
        T.locate_r(r, m, p);
        // d(rho_j at i)/dr and d(rho_i at j)/dr enter through F'(rho_i) and F'(rho_j).
        const CubicTable& ri = rhor(ti, tj);
        const CubicTable& rj = rhor(tj, ti);
        const double rhoip = ri.derivative(m, p);
        const double rhojp = &ri == &rj ? rhoip : rj.derivative(m, p);
        const CubicTable& z2 = *pair_of[static_cast<std::size_t>(ti * T.stride + tj)];
        const double z2p = z2.derivative(m, p);
        const double z2v = z2.value(m, p);
        const double recip = 1.0 / r;
        const double phi = pair_is_phi ? z2v : z2v * recip;
        const double phip = pair_is_phi ? z2p : z2p * recip - phi * recip;
        const double psip = fp[i] * rhojp + fp[j] * rhoip + phip;
        const double fpair = -psip * recip;
        fxi += dx * fpair;
        fyi += dy * fpair;
        fzi += dz * fpair;
        const bool both = newton || j < nlocal;
        if (both) {
          fo[j].x -= dx * fpair;
          fo[j].y -= dy * fpair;
          fo[j].z -= dz * fpair;
        }
        if (energy_virial) ev.add_pair(both ? 1.0 : 0.5, phi, fpair, dx, dy, dz);
      }
      fo[i].x += fxi;
      fo[i].y += fyi;
      fo[i].z += fzi;
    }
    partial[s] = ev;
  });
  EnergyVirial total;
  if (!energy_virial) return total;
  total.energy = embedding;
  for (const auto& p : partial) total += p;
  return total;
}

}  // namespace molstep::md::potentials
