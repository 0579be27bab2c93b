// SPDX-License-Identifier: MIT
#include "molstep/md/potentials/lj_cpu_avx2.hpp"

#include "molstep/core/error.hpp"
#include "molstep/md/potentials/pair_loop_cpu.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>

// The helpers below pass AVX values between functions compiled for AVX2 only; they never cross
// into code built for the baseline ABI, so GCC's ABI note does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace molstep::md::potentials {

namespace {

using neighbor::PackedAtom;
using neighbor::PackedForce;

#define MOLSTEP_AVX2 __attribute__((target("avx2,fma"))) inline
#define MOLSTEP_AVX2_LAMBDA __attribute__((target("avx2,fma")))

// Loads four packed atoms and transposes them into x, y, z rows (their type rows are unused).
MOLSTEP_AVX2 void load4(const PackedAtom* a, const std::uint32_t j[4], __m256d& x, __m256d& y, __m256d& z) {
  const __m256d r0 = _mm256_load_pd(&a[j[0]].x), r1 = _mm256_load_pd(&a[j[1]].x);
  const __m256d r2 = _mm256_load_pd(&a[j[2]].x), r3 = _mm256_load_pd(&a[j[3]].x);
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  x = _mm256_permute2f128_pd(t0, t2, 0x20);
  z = _mm256_permute2f128_pd(t0, t2, 0x31);
  y = _mm256_permute2f128_pd(t1, t3, 0x20);
}

// Subtracts (tx, ty, tz)[lane] from the force of atom j[lane], one 32-byte row per lane.
MOLSTEP_AVX2 void subtract4(PackedForce* f, const std::uint32_t j[4], __m256d tx, __m256d ty, __m256d tz) {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d u0 = _mm256_unpacklo_pd(tx, ty), u1 = _mm256_unpackhi_pd(tx, ty);
  const __m256d u2 = _mm256_unpacklo_pd(tz, zero), u3 = _mm256_unpackhi_pd(tz, zero);
  const __m256d rows[4] = {_mm256_permute2f128_pd(u0, u2, 0x20), _mm256_permute2f128_pd(u1, u3, 0x20),
                           _mm256_permute2f128_pd(u0, u2, 0x31), _mm256_permute2f128_pd(u1, u3, 0x31)};
  for (int l = 0; l < 4; ++l) {
    double* p = &f[j[l]].x;
    _mm256_store_pd(p, _mm256_sub_pd(_mm256_load_pd(p), rows[l]));
  }
}

MOLSTEP_AVX2 double hsum(__m256d v) {
  const __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
  return (_mm_cvtsd_f64(lo) + _mm_cvtsd_f64(_mm_unpackhi_pd(lo, lo))) +
         (_mm_cvtsd_f64(hi) + _mm_cvtsd_f64(_mm_unpackhi_pd(hi, hi)));
}

// kLaneMasks[n]: the first n of four lanes with all bits set.
constexpr std::uint64_t kOn = ~std::uint64_t{0};
alignas(32) const std::uint64_t kLaneMasks[4][4] = {
    {0, 0, 0, 0}, {kOn, 0, 0, 0}, {kOn, kOn, 0, 0}, {kOn, kOn, kOn, 0}};

// Per-lane LJ constants: broadcast for a single type pair, gathered from the table otherwise.
struct Terms4 {
  __m256d cutsq, lj1, lj2, lj3, lj4, offset;
};

template <bool EV>
MOLSTEP_AVX2 Terms4 terms4(const LjEval& eval, int ti, const PackedAtom* a, const std::uint32_t j[4], bool single) {
  const LjTerms* base = eval.terms;
  if (single) {
    const LjTerms& p = base[ti * eval.stride + ti];
    return {_mm256_set1_pd(p.cutsq), _mm256_set1_pd(p.lj1), _mm256_set1_pd(p.lj2),
            _mm256_set1_pd(p.lj3), _mm256_set1_pd(p.lj4), _mm256_set1_pd(p.offset)};
  }
  constexpr int kWords = sizeof(LjTerms) / sizeof(double);
  const __m128i idx = _mm_set_epi32((ti * eval.stride + a[j[3]].type) * kWords, (ti * eval.stride + a[j[2]].type) * kWords,
                                    (ti * eval.stride + a[j[1]].type) * kWords, (ti * eval.stride + a[j[0]].type) * kWords);
  const double* d = &base->cutsq;
  const __m256d zero = _mm256_setzero_pd();
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  Terms4 t{zero, zero, zero, zero, zero, zero};
  t.cutsq = _mm256_mask_i32gather_pd(zero, d + 0, idx, all, 8);
  t.lj1 = _mm256_mask_i32gather_pd(zero, d + 1, idx, all, 8);
  t.lj2 = _mm256_mask_i32gather_pd(zero, d + 2, idx, all, 8);
  if constexpr (EV) {
    t.lj3 = _mm256_mask_i32gather_pd(zero, d + 3, idx, all, 8);
    t.lj4 = _mm256_mask_i32gather_pd(zero, d + 4, idx, all, 8);
    t.offset = _mm256_mask_i32gather_pd(zero, d + 5, idx, all, 8);
  }
  return t;
}

template <bool EV, bool NEWTON>
MOLSTEP_AVX2 EnergyVirial half_loop(const neighbor::NeighborList& list, const PackedAtom* x, PackedForce* f,
                                    const LjEval& eval, bool single) {
  static_assert(sizeof(LjTerms) == 6 * sizeof(double), "LjTerms is gathered as six doubles");
  const std::size_t nlocal = list.nlocal;
  std::vector<EnergyVirial> partial(list.slabs.size() - 1);
  const std::uint32_t* nb = list.neighbors.data();
  const std::uint32_t* off = list.offsets.data();
  for_each_slab(list, [&](std::size_t s) MOLSTEP_AVX2_LAMBDA {
      const __m256d one = _mm256_set1_pd(1.0);
      const __m256d all_lanes = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
      __m256d e4 = _mm256_setzero_pd(), vxx = e4, vyy = e4, vzz = e4, vxy = e4, vxz = e4, vyz = e4;
      for (std::size_t i = list.slabs[s]; i < list.slabs[s + 1]; ++i) {
        const __m256d xi = _mm256_set1_pd(x[i].x), yi = _mm256_set1_pd(x[i].y), zi = _mm256_set1_pd(x[i].z);
        const int ti = x[i].type;
        __m256d fx = _mm256_setzero_pd(), fy = fx, fz = fx;
        const auto self = static_cast<std::uint32_t>(i);
        for (std::uint32_t k = off[i]; k < off[i + 1]; k += 4) {
          const std::uint32_t left = off[i + 1] - k;
          // The list is padded, so four indices can always be read; lanes past the end of this
          // atom's list point at atom i itself and are masked to a zero force.
          std::uint32_t j[4] = {nb[k], nb[k + 1], nb[k + 2], nb[k + 3]};
          __m256d valid = all_lanes;
          if (left < 4) {
            for (std::uint32_t l = left; l < 4; ++l) j[l] = self;
            valid = _mm256_castsi256_pd(_mm256_load_si256(reinterpret_cast<const __m256i*>(kLaneMasks[left])));
          }
          __m256d xj, yj, zj;
          load4(x, j, xj, yj, zj);
          const __m256d dx = _mm256_sub_pd(xi, xj), dy = _mm256_sub_pd(yi, yj), dz = _mm256_sub_pd(zi, zj);
          __m256d rsq = _mm256_fmadd_pd(dx, dx, _mm256_fmadd_pd(dy, dy, _mm256_mul_pd(dz, dz)));
          rsq = _mm256_blendv_pd(one, rsq, valid);
          const Terms4 p = terms4<EV>(eval, ti, x, j, single);
          const __m256d inside = _mm256_and_pd(_mm256_cmp_pd(rsq, p.cutsq, _CMP_LT_OQ), valid);
          const __m256d r2inv = _mm256_div_pd(one, rsq);
          const __m256d r6inv = _mm256_mul_pd(_mm256_mul_pd(r2inv, r2inv), r2inv);
          const __m256d fpair = _mm256_and_pd(
              _mm256_mul_pd(_mm256_mul_pd(r6inv, _mm256_fmsub_pd(p.lj1, r6inv, p.lj2)), r2inv), inside);
          const __m256d tx = _mm256_mul_pd(dx, fpair), ty = _mm256_mul_pd(dy, fpair), tz = _mm256_mul_pd(dz, fpair);
          fx = _mm256_add_pd(fx, tx);
          fy = _mm256_add_pd(fy, ty);
          fz = _mm256_add_pd(fz, tz);
          // Without newton an image gets no force and its pair counts half (its owner counts
          // the other half): those lanes are redirected to atom i with zero rows.
          __m256d w = one;
          if constexpr (NEWTON) {
            subtract4(f, j, tx, ty, tz);
          } else {
            const __m128i jv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(j));
            const __m128i image = _mm_cmpgt_epi32(jv, _mm_set1_epi32(static_cast<int>(nlocal) - 1));
            const __m256d owned = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_xor_si128(image, _mm_set1_epi32(-1))));
            w = _mm256_blendv_pd(_mm256_set1_pd(0.5), one, owned);
            std::uint32_t jw[4];
            for (int l = 0; l < 4; ++l) jw[l] = j[l] < nlocal ? j[l] : self;
            subtract4(f, jw, _mm256_and_pd(tx, owned), _mm256_and_pd(ty, owned), _mm256_and_pd(tz, owned));
          }
          if constexpr (EV) {
            const __m256d wf = _mm256_mul_pd(fpair, w);
            const __m256d e = _mm256_and_pd(
                _mm256_sub_pd(_mm256_mul_pd(r6inv, _mm256_fmsub_pd(p.lj3, r6inv, p.lj4)), p.offset), inside);
            e4 = _mm256_fmadd_pd(e, w, e4);
            vxx = _mm256_fmadd_pd(_mm256_mul_pd(dx, dx), wf, vxx);
            vyy = _mm256_fmadd_pd(_mm256_mul_pd(dy, dy), wf, vyy);
            vzz = _mm256_fmadd_pd(_mm256_mul_pd(dz, dz), wf, vzz);
            vxy = _mm256_fmadd_pd(_mm256_mul_pd(dx, dy), wf, vxy);
            vxz = _mm256_fmadd_pd(_mm256_mul_pd(dx, dz), wf, vxz);
            vyz = _mm256_fmadd_pd(_mm256_mul_pd(dy, dz), wf, vyz);
          }
        }
        f[i].x += hsum(fx);
        f[i].y += hsum(fy);
        f[i].z += hsum(fz);
      }
      if constexpr (EV) {
        partial[s].energy = hsum(e4);
        partial[s].virial = {hsum(vxx), hsum(vyy), hsum(vzz), hsum(vxy), hsum(vxz), hsum(vyz)};
      }
  });
  EnergyVirial total;
  for (const auto& p : partial) total += p;
  return total;
}

}  // namespace

EnergyVirial lj_half_avx2(const neighbor::NeighborList& list, const std::vector<neighbor::PackedAtom>& atoms,
                          std::vector<neighbor::PackedForce>& forces, const LjEval& eval, bool single_type,
                          bool energy_virial) {
  const PackedAtom* x = atoms.data();
  PackedForce* f = forces.data();
  if (list.newton)
    return energy_virial ? half_loop<true, true>(list, x, f, eval, single_type)
                         : half_loop<false, true>(list, x, f, eval, single_type);
  return energy_virial ? half_loop<true, false>(list, x, f, eval, single_type)
                       : half_loop<false, false>(list, x, f, eval, single_type);
}

}  // namespace molstep::md::potentials

#else

namespace molstep::md::potentials {

EnergyVirial lj_half_avx2(const neighbor::NeighborList&, const std::vector<neighbor::PackedAtom>&,
                          std::vector<neighbor::PackedForce>&, const LjEval&, bool, bool) {
  throw Error("internal: the AVX2 Lennard-Jones kernel was called on a processor without it");
}

}  // namespace molstep::md::potentials

#endif
