// SPDX-License-Identifier: MIT
#include "molstep/core/atoms.hpp"

#include <algorithm>

namespace molstep::core {

void Atoms::add(std::int64_t atom_id, int atom_type, double px, double py, double pz) {
  id.push_back(atom_id);
  type.push_back(atom_type);
  x.push_back(px);
  y.push_back(py);
  z.push_back(pz);
  for (auto* v : {&vx, &vy, &vz, &fx, &fy, &fz}) v->resize(id.size(), 0.0);
  for (auto* v : {&ix, &iy, &iz}) v->push_back(0);
}

namespace {
template <class T>
void apply_order(std::vector<T>& v, std::span<const std::size_t> order, std::vector<T>& scratch) {
  scratch.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) scratch[k] = v[order[k]];
  v.swap(scratch);
}
}  // namespace

void Atoms::permute(std::span<const std::size_t> order) {
  std::vector<std::int64_t> s64;
  std::vector<int> si;
  std::vector<double> sd;
  apply_order(id, order, s64);
  for (auto* v : {&type, &ix, &iy, &iz}) apply_order(*v, order, si);
  for (auto* v : {&x, &y, &z, &vx, &vy, &vz}) apply_order(*v, order, sd);
  for (auto* v : {&fx, &fy, &fz}) v->resize(order.size());
  for (auto* v : {&fx, &fy, &fz}) apply_order(*v, order, sd);
}

void Atoms::clear() {
  id.clear();
  type.clear();
  for (auto* v : {&x, &y, &z, &vx, &vy, &vz, &fx, &fy, &fz}) v->clear();
  for (auto* v : {&ix, &iy, &iz}) v->clear();
}

std::int64_t Atoms::max_id() const {
  return id.empty() ? 0 : *std::max_element(id.begin(), id.end());
}

}  // namespace molstep::core
