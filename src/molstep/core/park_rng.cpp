// SPDX-License-Identifier: MIT
#include "molstep/core/park_rng.hpp"

#include <cmath>
#include <cstring>

#include "molstep/core/error.hpp"

namespace molstep::core {

namespace {
constexpr int kIA = 16807;
constexpr int kIM = 2147483647;
constexpr double kAM = 1.0 / kIM;
constexpr int kIQ = 127773;
constexpr int kIR = 2836;

// One-at-a-time hash over bytes read as (signed) char, as LAMMPS does on x86.
void hash_bytes(unsigned int& hash, const void* data, std::size_t n) {
  const auto* bytes = static_cast<const signed char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    hash += static_cast<unsigned int>(static_cast<int>(bytes[i]));
    hash += (hash << 10);
    hash ^= (hash >> 6);
  }
}
}  // namespace

ParkRng::ParkRng(int seed) : seed_(seed) {
  if (seed <= 0) throw Error("random seed must be a positive integer, got " + std::to_string(seed));
}

double ParkRng::uniform() {
  const int k = seed_ / kIQ;
  seed_ = kIA * (seed_ - k * kIQ) - kIR * k;
  if (seed_ < 0) seed_ += kIM;
  return kAM * seed_;
}

double ParkRng::gaussian() {
  if (have_saved_) {
    have_saved_ = false;
    return saved_;
  }
  double v1, v2, rsq;
  do {
    v1 = 2.0 * uniform() - 1.0;
    v2 = 2.0 * uniform() - 1.0;
    rsq = v1 * v1 + v2 * v2;
  } while (rsq >= 1.0 || rsq == 0.0);
  const double fac = std::sqrt(-2.0 * std::log(rsq) / rsq);
  saved_ = v1 * fac;
  have_saved_ = true;
  return v2 * fac;
}

void ParkRng::reset(int base, const double coord[3]) {
  unsigned int hash = 0;
  hash_bytes(hash, &base, sizeof(base));
  hash_bytes(hash, coord, 3 * sizeof(double));
  hash += (hash << 3);
  hash ^= (hash >> 11);
  hash += (hash << 15);
  // LAMMPS keeps 27 bits (its mask is 0x7ffffff); reproduced as is for compatibility.
  seed_ = static_cast<int>(hash & 0x7ffffff);
  if (seed_ == 0) seed_ = 1;
  for (int i = 0; i < 5; ++i) uniform();
  have_saved_ = false;
}

}  // namespace molstep::core
