// SPDX-License-Identifier: MIT
// The lockstep GPU graph stages against the CPU's, for the first 10,000 isomers (generator order)
// of C60 (all 1812), C100 and C200: dualise exactly, the Tutte layout and the spherical
// projection to round-off. And the kernels touch only the slots that are due.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/graph_stages.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/embed.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "support/fullerene_isomers.hpp"
#include "support/require_gpu.hpp"

namespace molstep::fullerene {
namespace {

using test::first_isomers;

constexpr std::size_t kIsomers = 10000;

/// Largest |a - b| over every coordinate; NaN if any coordinate is NaN.
template <std::size_t D>
double max_difference(const std::vector<std::array<double, D>>& a, const std::vector<std::array<double, D>>& b) {
  double worst = a.size() == b.size() ? 0.0 : NAN;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    for (std::size_t c = 0; c < D; ++c)
      if (const double d = std::abs(a[i][c] - b[i][c]); !(d <= worst)) worst = d;
  return worst;
}

/// Largest |coordinate|.
double max_magnitude(const std::vector<std::array<double, 3>>& x) {
  double m = 0.0;
  for (const auto& p : x)
    for (const double c : p) m = std::max(m, std::abs(c));
  return m;
}

/// What one isomer's GPU results differ from the CPU's by.
struct Comparison {
  bool status_new = false;
  bool graph_equal = false;
  double layout = NAN;    ///< absolute, against tutte_layout
  double stage = NAN;     ///< relative to the cage size, against spherical_projection of the GPU layout
  double pipeline = NAN;  ///< relative to the cage size, against the CPU pipeline end to end
};

void expect_matches_cpu(int atoms, std::size_t expected_isomers) {
  REQUIRE_GPU();
  const std::vector<Triangulation> duals = first_isomers(atoms, kIsomers);
  ASSERT_EQ(duals.size(), expected_isomers);
  const cuda::GraphStagesOutput gpu = cuda::run_graph_stages(duals);
  ASSERT_EQ(gpu.status.size(), duals.size());

  std::vector<Comparison> cmp(duals.size());
  const auto count = static_cast<long>(duals.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (long i = 0; i < count; ++i) {
    Comparison& c = cmp[i];
    const CubicGraph g = dualize(duals[i]);
    c.status_new = gpu.status[i] == cuda::kNew;
    c.graph_equal = gpu.graphs[i] == g;
    if (!c.status_new || !c.graph_equal) continue;
    const std::vector<std::array<double, 2>> layout = tutte_layout(g);
    c.layout = max_difference(gpu.layouts[i], layout);
    const std::vector<std::array<double, 3>> stage = spherical_projection(g, gpu.layouts[i]);
    c.stage = max_difference(gpu.positions[i], stage) / max_magnitude(stage);
    const std::vector<std::array<double, 3>> pipeline = spherical_projection(g, layout);
    c.pipeline = max_difference(gpu.positions[i], pipeline) / max_magnitude(pipeline);
  }

  int not_new = 0, wrong_graphs = 0;
  std::size_t first_not_new = 0, first_wrong_graph = 0, worst[3] = {0, 0, 0};
  const auto worse = [](double a, double b) { return !std::isnan(b) && !(a <= b); };  // a NaN stays worst
  for (std::size_t i = 0; i < cmp.size(); ++i) {
    if (!cmp[i].status_new && not_new++ == 0) first_not_new = i;
    if (!cmp[i].graph_equal && wrong_graphs++ == 0) first_wrong_graph = i;
    if (worse(cmp[i].layout, cmp[worst[0]].layout)) worst[0] = i;
    if (worse(cmp[i].stage, cmp[worst[1]].stage)) worst[1] = i;
    if (worse(cmp[i].pipeline, cmp[worst[2]].pipeline)) worst[2] = i;
  }
  EXPECT_EQ(not_new, 0) << "C" << atoms << ": first at isomer " << first_not_new << ", status "
                        << gpu.status[first_not_new];
  EXPECT_EQ(wrong_graphs, 0) << "C" << atoms << ": first at isomer " << first_wrong_graph;
  if (not_new + wrong_graphs > 0) return;  // the differences below are NaN for those
  EXPECT_LE(cmp[worst[0]].layout, 1e-9) << "C" << atoms << " isomer " << worst[0] << ": layout";
  EXPECT_LE(cmp[worst[1]].stage, 1e-9) << "C" << atoms << " isomer " << worst[1] << ": projection of the GPU layout";
  EXPECT_LE(cmp[worst[2]].pipeline, 1e-9) << "C" << atoms << " isomer " << worst[2] << ": CPU pipeline";
}

TEST(FullereneCudaGraphStages, MatchTheCpuForEveryC60Isomer) { expect_matches_cpu(60, 1812); }

TEST(FullereneCudaGraphStages, MatchTheCpuForTheFirst10000C100Isomers) { expect_matches_cpu(100, kIsomers); }

TEST(FullereneCudaGraphStages, MatchTheCpuForTheFirst10000C200Isomers) { expect_matches_cpu(200, kIsomers); }

TEST(FullereneCudaGraphStages, ActOnlyOnNewSlotsAndMarkABrokenDualInvalid) {
  REQUIRE_GPU();
  std::vector<Triangulation> duals = first_isomers(60, 5);
  ASSERT_EQ(duals.size(), 5u);
  // Slot 1: every neighbour 0 and every degree 0, no triangles at all.
  for (auto& row : duals[1].adj) row.fill(0);
  std::fill(duals[1].degree.begin(), duals[1].degree.end(), 0);
  using enum cuda::SlotStatus;
  const std::vector<int> before{kNew, kNew, kEmpty, kConverged, kNew};
  const cuda::GraphStagesOutput gpu = cuda::run_graph_stages(duals, before);
  ASSERT_EQ(gpu.status.size(), 5u);
  EXPECT_EQ(gpu.status, (std::vector<int>{kNew, kInvalid, kEmpty, kConverged, kNew}));

  for (const std::size_t i : {std::size_t{0}, std::size_t{4}}) {
    const CubicGraph g = dualize(duals[i]);
    EXPECT_EQ(gpu.graphs[i], g) << "slot " << i;
    EXPECT_LE(max_difference(gpu.layouts[i], tutte_layout(g)), 1e-9) << "slot " << i;
    const auto x = spherical_projection(g, gpu.layouts[i]);
    EXPECT_LE(max_difference(gpu.positions[i], x) / max_magnitude(x), 1e-9) << "slot " << i;
  }
  // Skipped slots keep what run_graph_stages put there (-1 and NaN); so does the broken one's
  // layout and geometry, and its graph is all -1 (no triangles).
  for (const std::size_t i : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    for (const auto& row : gpu.graphs[i].adj)
      for (const int v : row) EXPECT_EQ(v, -1) << "slot " << i;
    for (const auto& p : gpu.layouts[i])
      for (const double c : p) EXPECT_TRUE(std::isnan(c)) << "slot " << i;
    for (const auto& p : gpu.positions[i])
      for (const double c : p) EXPECT_TRUE(std::isnan(c)) << "slot " << i;
  }
}

TEST(FullereneCudaGraphStages, RejectDualsOfDifferentSizes) {  // also without CUDA: that throws too
  std::vector<Triangulation> duals = first_isomers(60, 1);
  duals.push_back(first_isomers(70, 1).at(0));
  EXPECT_THROW(static_cast<void>(cuda::run_graph_stages(duals)), Error);
}

}  // namespace
}  // namespace molstep::fullerene
