// SPDX-License-Identifier: MIT
#include "molstep/core/parallel.hpp"
#include "molstep/md/neighbor/ghosts.hpp"

namespace molstep::md::neighbor {

void Ghosts::build(std::vector<PackedAtom>& atoms, std::size_t nlocal, const core::Box& box, double cutoff) {
  owner_.clear();
  sx_.clear();
  sy_.clear();
  sz_.clear();
  atoms.resize(nlocal);
  // Dimension by dimension, so images of images fill the edges and corners (as LAMMPS borders).
  for (int d = 0; d < 3; ++d) {
    const double L = box.length(d);
    const std::size_t n = atoms.size();
    for (std::size_t k = 0; k < n; ++k) {
      const double c = d == 0 ? atoms[k].x : d == 1 ? atoms[k].y : atoms[k].z;
      double shift = 0.0;
      if (c < box.lo[d] + cutoff) shift = L;
      else if (c >= box.hi[d] - cutoff) shift = -L;
      else continue;
      const std::uint32_t own = k < nlocal ? static_cast<std::uint32_t>(k) : owner_[k - nlocal];
      double sx = k < nlocal ? 0.0 : sx_[k - nlocal];
      double sy = k < nlocal ? 0.0 : sy_[k - nlocal];
      double sz = k < nlocal ? 0.0 : sz_[k - nlocal];
      PackedAtom g = atoms[k];
      if (d == 0) { g.x += shift; sx = shift; }
      if (d == 1) { g.y += shift; sy = shift; }
      if (d == 2) { g.z += shift; sz = shift; }
      owner_.push_back(own);
      sx_.push_back(sx);
      sy_.push_back(sy);
      sz_.push_back(sz);
      atoms.push_back(g);
    }
  }
}

void Ghosts::update(std::vector<PackedAtom>& atoms, std::size_t nlocal) const {
  const std::size_t n = owner_.size();
#pragma omp parallel for schedule(static) if (nlocal >= core::kParallelMinAtoms)
  for (std::size_t g = 0; g < n; ++g) {
    const PackedAtom& o = atoms[owner_[g]];
    PackedAtom& a = atoms[nlocal + g];
    a.x = o.x + sx_[g];
    a.y = o.y + sy_[g];
    a.z = o.z + sz_[g];
  }
}

void Ghosts::fold(std::vector<PackedForce>& forces, std::size_t nlocal) const {
  for (std::size_t g = 0; g < owner_.size(); ++g) {
    PackedForce& o = forces[owner_[g]];
    const PackedForce& f = forces[nlocal + g];
    o.x += f.x;
    o.y += f.y;
    o.z += f.z;
  }
}

void Ghosts::fold_scalar(std::vector<double>& values, std::size_t nlocal) const {
  for (std::size_t g = 0; g < owner_.size(); ++g) values[owner_[g]] += values[nlocal + g];
}

void Ghosts::forward_scalar(std::vector<double>& values, std::size_t nlocal) const {
  for (std::size_t g = 0; g < owner_.size(); ++g) values[nlocal + g] = values[owner_[g]];
}

}  // namespace molstep::md::neighbor
