// SPDX-License-Identifier: MIT
// The analysis engine's shared per-frame work: the fused one-body sums and the pair histograms,
// on the CPU (cell lists and all pairs) and on the GPU, against direct loops.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <random>

#include "molstep/analysis/backend.hpp"
#include "molstep/analysis/pair_distance.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "support/require_gpu.hpp"

using namespace molstep;
using namespace molstep::analysis;

namespace {

core::Frame random_frame(std::size_t n, double box, unsigned seed, bool outside = false) {
  std::mt19937_64 rng(seed);
  // Some coordinates outside the box, as in unwrapped trajectories.
  std::uniform_real_distribution<double> u(outside ? -0.5 * box : 0.0, outside ? 1.5 * box : box);
  core::Frame f;
  f.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    f.x[i] = u(rng);
    f.y[i] = u(rng);
    f.z[i] = u(rng);
  }
  f.box = {{{box, 0, 0}, {0, box, 0}, {0, 0, box}}};
  return f;
}

std::vector<std::uint32_t> range(std::uint32_t begin, std::uint32_t end, std::uint32_t stride = 1) {
  std::vector<std::uint32_t> v;
  for (auto i = begin; i < end; i += stride) v.push_back(i);
  return v;
}

// The direct O(N^2) definition of PairSpec.
std::vector<std::uint64_t> direct_counts(const PairTask& t, const core::Frame& f) {
  const PairBinning bin(t.spec, f);
  std::vector<std::uint64_t> h(static_cast<std::size_t>(t.spec.bins) + 1, 0);
  const auto& b = t.b.empty() ? t.a : t.b;
  for (std::size_t p = 0; p < t.a.size(); ++p) {
    for (std::size_t q = 0; q < b.size(); ++q) {
      const auto i = t.a[p], j = b[q];
      if (t.b.empty() ? q <= p : i == j) continue;
      ++h[static_cast<std::size_t>(pair_bin(bin, f.x[i], f.y[i], f.z[i], f.x[j], f.y[j], f.z[j]))];
    }
  }
  return h;
}

PairTask same_task(std::size_t n, double rmax, int bins, bool pbc) {
  return PairTask{PairSpec{0, 0, rmax, bins, pbc}, range(0, static_cast<std::uint32_t>(n)), {}};
}

std::uint64_t total(const std::vector<std::uint64_t>& h) {
  std::uint64_t s = 0;
  for (auto c : h) s += c;
  return s;
}

}  // namespace

TEST(AnalysisPairs, UnitCubeCornersFallInTheExpectedBins) {
  core::Frame f;
  f.resize(8);
  for (int k = 0; k < 8; ++k) {
    f.x[k] = k & 1;
    f.y[k] = (k >> 1) & 1;
    f.z[k] = (k >> 2) & 1;
  }
  const auto task = same_task(8, 2.0, 4, false);  // width 0.5
  std::vector<std::uint64_t> h;
  add_pair_counts(task, f, h);
  EXPECT_EQ(h, (std::vector<std::uint64_t>{0, 0, 24, 4, 0}));  // 12 at 1 and 12 at sqrt 2, 4 at sqrt 3
}

TEST(AnalysisPairs, AllPairsCountedOnceForEveryParityAndBlockBoundary) {
  for (std::size_t n : {1u, 2u, 3u, 15u, 255u, 256u, 257u, 511u, 512u, 513u, 1000u, 1001u}) {
    const auto f = random_frame(n, 10.0, static_cast<unsigned>(n));
    for (bool pbc : {false, true}) {
      const auto task = same_task(n, pbc ? 8.7 : 17.4, 50, pbc);
      std::vector<std::uint64_t> h;
      add_pair_counts(task, f, h);
      EXPECT_EQ(total(h), n * (n - 1) / 2) << "n=" << n;
      EXPECT_EQ(h.back(), 0u) << "n=" << n << ": rmax covers every distance";
      EXPECT_EQ(h, direct_counts(task, f)) << "n=" << n;
    }
  }
}

TEST(AnalysisPairs, CellListsGiveTheDirectHistogram) {
  // rmax well below a third of the box: the cell path, with coordinates outside the box.
  const auto f = random_frame(3000, 20.0, 7, true);
  for (const double rmax : {2.5, 6.0}) {
    const auto task = same_task(3000, rmax, 37, true);
    std::vector<std::uint64_t> h;
    add_pair_counts(task, f, h);
    EXPECT_EQ(h, direct_counts(task, f));
    // Two selections that overlap: atoms in both are not paired with themselves.
    const PairTask cross{PairSpec{0, 1, rmax, 37, true}, range(0, 2000), range(1000, 3000, 2)};
    std::vector<std::uint64_t> hc;
    add_pair_counts(cross, f, hc);
    EXPECT_EQ(hc, direct_counts(cross, f));
    EXPECT_EQ(total(hc), 2000u * 1000u - 500u);
  }
}

TEST(AnalysisPairs, CountsDoNotDependOnTheThreadCount) {
  const auto f = random_frame(4000, 15.0, 3);
  const auto task = same_task(4000, 7.0, 64, true);
  std::vector<std::uint64_t> h1, h2;
  add_pair_counts(task, f, h1);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  add_pair_counts(task, f, h2);
  omp_set_num_threads(threads);
  EXPECT_EQ(h1, h2);
}

TEST(AnalysisMoments, FusedSumsMatchDirectSums) {
  auto f = random_frame(10000, 30.0, 11, true);
  Plan plan = [&] {
    SelectionSet sel(core::Topology{}, 10000);
    const int all = sel.resolve("all");
    const int some = sel.resolve("index 100-5000");
    Requests r;
    r.moments(all);
    r.moments(some);
    std::vector<double> m(10000), q(10000);
    for (std::size_t i = 0; i < m.size(); ++i) {
      m[i] = 1.0 + static_cast<double>(i % 3);
      q[i] = (i % 2 ? 0.5 : -0.25);
    }
    return Plan(sel, r, m, q);
  }();
  const auto got = compute_moments(plan, f);
  ASSERT_EQ(got.size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) {
    Moments want;
    for (const auto i : plan.moment_atoms[s]) {
      const double m = plan.mass[i], q = plan.charge[i];
      want.count += 1;
      want.mass += m;
      want.charge += q;
      want.mr[0] += m * f.x[i];
      want.qr[2] += q * f.z[i];
      want.mrr[3] += m * f.x[i] * f.y[i];
    }
    EXPECT_EQ(got[s].count, want.count);
    EXPECT_NEAR(got[s].mass, want.mass, 1e-12 * want.mass);
    EXPECT_NEAR(got[s].charge, want.charge, 1e-9);
    EXPECT_NEAR(got[s].mr[0], want.mr[0], 1e-12 * std::abs(want.mr[0]));
    EXPECT_NEAR(got[s].qr[2], want.qr[2], 1e-12 * std::abs(want.mr[0]));
    EXPECT_NEAR(got[s].mrr[3], want.mrr[3], 1e-12 * std::abs(want.mrr[3]));
  }
}

TEST(AnalysisCuda, HistogramsIdenticalAndMomentsAgreeWithTheCpu) {
  REQUIRE_GPU();
  for (std::size_t n : {1u, 2u, 3u, 255u, 256u, 257u, 512u, 513u, 1000u, 1001u, 20000u}) {
    SelectionSet sel(core::Topology{}, n);
    Requests r;
    const int all = sel.resolve("all");
    const int half = sel.resolve(n > 1 ? "index 0-" + std::to_string(n / 2) : "all");
    r.moments(all);
    r.moments(half);
    r.pairs(PairSpec{all, all, 8.7, 97, true});
    r.pairs(PairSpec{all, all, 17.4, 60, false});
    if (n > 1) r.pairs(PairSpec{all, half, 5.0, 31, true});
    const std::vector<double> m(n, 2.0), q(n, 0.5);
    const Plan plan(sel, r, m, q);
    auto cpu = make_cpu_backend(plan);
    auto gpu = make_cuda_backend(plan);
    std::vector<core::Frame> frames;
    for (unsigned k = 0; k < 3; ++k) frames.push_back(random_frame(n, 10.0, 100 * static_cast<unsigned>(n) + k, k == 1));
    for (const auto& f : frames) {
      cpu->submit(f);
      gpu->submit(f);
      const auto mc = cpu->collect();
      const auto mg = gpu->collect();
      for (std::size_t s = 0; s < mc.size(); ++s) {
        EXPECT_EQ(mc[s].count, mg[s].count);
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(mc[s].mr[d], mg[s].mr[d], 1e-12 * std::abs(mc[s].mr[d]) + 1e-12);
        for (int v = 0; v < 6; ++v) EXPECT_NEAR(mc[s].mrr[v], mg[s].mrr[v], 1e-12 * std::abs(mc[s].mrr[v]) + 1e-12);
      }
    }
    EXPECT_EQ(cpu->pair_totals(), gpu->pair_totals()) << "n=" << n;
  }
}
