// SPDX-License-Identifier: MIT
// The lockstep GPU properties stage against fullerene::isomer_properties (the reference), field
// by field, on optimised and on projected (unoptimised) geometries, with and without the
// flatness term. Skipped, with a message, where no CUDA device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/properties_cuda.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/embed.hpp"
#include "molstep/fullerene/forcefield.hpp"
#include "molstep/fullerene/isomerspace.hpp"
#include "molstep/fullerene/properties.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "molstep/md/cuda/run_cuda.hpp"
#include "support/fullerene_isomers.hpp"
#include "support/require_gpu.hpp"

namespace molstep::fullerene {
namespace {

using Coords = std::vector<std::array<double, 3>>;

constexpr const char* kC60Ih = "60:1,7,9,11,13,15,18,20,22,24,26,32";

/// Isomers with their coordinates, as properties_on_gpu takes them.
struct Geometries {
  std::vector<CubicGraph> graphs;
  std::vector<Coords> positions;
};

/// The CPU pipeline's optimised geometries (optimize_isomer on several threads) of `duals`;
/// isomers whose optimisation went invalid (NaN) are left out.
Geometries optimised(const std::vector<Triangulation>& duals) {
  const IsomerSource source = [&duals](const auto& take) {
    for (std::size_t i = 0; i < duals.size(); ++i) take(i, duals[i]);
  };
  StreamOptions options;
  options.threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 8U));
  Geometries out;
  optimize_stream(source, options, [&out](std::vector<OptimizedIsomer>& batch) {
    for (OptimizedIsomer& i : batch)
      if (i.result.status != IsomerStatus::invalid) {
        out.graphs.push_back(std::move(i.graph));
        out.positions.push_back(std::move(i.positions));
      }
  });
  return out;
}

/// The optimiser's starting geometries: Tutte layout and spherical projection (bonds near 6 A).
Geometries projected(const std::vector<Triangulation>& duals) {
  Geometries out;
  for (const Triangulation& t : duals) {
    const CubicGraph g = dualize(t);
    out.positions.push_back(spherical_projection(g, tutte_layout(g)));
    out.graphs.push_back(g);
  }
  return out;
}

/// Appends "name gpu vs cpu" to `why` unless |gpu - cpu| <= tolerance.
void check(std::ostringstream& why, const char* name, double gpu, double cpu, double tolerance) {
  if (!(std::abs(gpu - cpu) <= tolerance)) why << "  " << name << " " << gpu << " vs " << cpu << "\n";
}

/// Every field of the GPU's properties against the CPU's: 1e-12 relative, with an absolute floor
/// for fields that are small differences of values of order `scale` (the RMSDs of a relaxed
/// cage); the Hueckel gap to 1e-10 absolute. Stops reporting after a few isomers.
void expect_matches_cpu(const Geometries& isomers, bool flatness, const std::string& label) {
  ASSERT_FALSE(isomers.graphs.empty()) << label;
  const std::vector<IsomerProperties> gpu = cuda::properties_on_gpu(isomers.graphs, isomers.positions, flatness);
  ASSERT_EQ(gpu.size(), isomers.graphs.size()) << label;
  constexpr double kRelative = 1e-12;
  int reported = 0;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    const IsomerProperties cpu =
        isomer_properties(ForceField(isomers.graphs[i], {.flatness = flatness}), isomers.positions[i]);
    const IsomerProperties& g = gpu[i];
    const auto tol = [&](double value, double scale) { return kRelative * (std::abs(value) + scale); };
    std::ostringstream why;
    check(why, "energy", g.energy, cpu.energy, tol(cpu.energy, 1.0));
    check(why, "bond_rmsd", g.bond_rmsd, cpu.bond_rmsd, tol(cpu.bond_rmsd, 1.0));
    check(why, "angle_rmsd", g.angle_rmsd, cpu.angle_rmsd, tol(cpu.angle_rmsd, 1.0));
    check(why, "dihedral_rmsd", g.dihedral_rmsd, cpu.dihedral_rmsd, tol(cpu.dihedral_rmsd, 1.0));
    check(why, "bond_rrmse", g.bond_rrmse, cpu.bond_rrmse, tol(cpu.bond_rrmse, 1e-2));
    check(why, "angle_rrmse", g.angle_rrmse, cpu.angle_rrmse, tol(cpu.angle_rrmse, 1e-2));
    check(why, "dihedral_rrmse", g.dihedral_rrmse, cpu.dihedral_rrmse, tol(cpu.dihedral_rrmse, 1e-2));
    check(why, "volume", g.volume, cpu.volume, tol(cpu.volume, 0.0));
    check(why, "area", g.area, cpu.area, tol(cpu.area, 0.0));
    check(why, "sphericity", g.sphericity, cpu.sphericity, tol(cpu.sphericity, 0.0));
    check(why, "circumradius", g.circumradius, cpu.circumradius, tol(cpu.circumradius, 0.0));
    check(why, "mean_radius", g.mean_radius, cpu.mean_radius, tol(cpu.mean_radius, 0.0));
    check(why, "homo_lumo_gap", g.homo_lumo_gap, cpu.homo_lumo_gap, 1e-10);
    if (!why.str().empty() && reported++ < 5)
      ADD_FAILURE() << label << (flatness ? " with flatness" : "") << ", isomer " << i << " (GPU vs CPU):\n"
                    << why.str();
  }
  EXPECT_EQ(reported, 0) << label << (flatness ? " with flatness" : "") << ": isomers that differ";
}

void expect_matches_cpu(const Geometries& isomers, const std::string& label) {
  expect_matches_cpu(isomers, false, label);
  expect_matches_cpu(isomers, true, label);
}

TEST(CudaProperties, OptimisedC60MatchTheCpu) {
  REQUIRE_GPU();
  Geometries isomers = optimised(test::first_isomers(60, 200));
  // C60-Ih relaxes to (nearly) every equilibrium value: RMSDs close to zero.
  const Spiral ih = parse_spiral(kC60Ih);
  const Geometries relaxed = optimised({triangulation_from_spiral(ih.atoms, ih.pentagons)});
  isomers.graphs.insert(isomers.graphs.end(), relaxed.graphs.begin(), relaxed.graphs.end());
  isomers.positions.insert(isomers.positions.end(), relaxed.positions.begin(), relaxed.positions.end());
  expect_matches_cpu(isomers, "optimised C60");
  const auto gpu = cuda::properties_on_gpu(relaxed.graphs, relaxed.positions);
  ASSERT_EQ(gpu.size(), 1U);
  EXPECT_NEAR(gpu[0].homo_lumo_gap, 0.7566, 1e-4);  // Hueckel C60: 0.618 - (-0.139)
}

TEST(CudaProperties, OptimisedC100AndC200MatchTheCpu) {
  REQUIRE_GPU();
  expect_matches_cpu(optimised(test::first_isomers(100, 50)), "optimised C100");
  expect_matches_cpu(optimised(test::first_isomers(200, 10)), "optimised C200");
}

TEST(CudaProperties, ProjectedStartsMatchTheCpu) {
  REQUIRE_GPU();
  // C20 runs on a single warp; C60, C100 and C200 keep the Hueckel matrix's triangle in shared
  // memory, C400 (416 threads, the generator's limit) in global scratch.
  expect_matches_cpu(projected(test::first_isomers(20, 1)), "projected C20");
  expect_matches_cpu(projected(test::first_isomers(60, 200)), "projected C60");
  expect_matches_cpu(projected(test::first_isomers(100, 50)), "projected C100");
  expect_matches_cpu(projected(test::first_isomers(200, 10)), "projected C200");
  expect_matches_cpu(projected(test::first_isomers(400, 2)), "projected C400");
}

TEST(CudaProperties, BrokenGraphsGetNanAndLeaveTheirNeighboursAlone) {
  REQUIRE_GPU();
  const Spiral ih = parse_spiral(kC60Ih);
  Geometries isomers = projected({triangulation_from_spiral(ih.atoms, ih.pentagons)});
  const CubicGraph good = isomers.graphs[0];
  const Coords x = isomers.positions[0];
  CubicGraph reversed = good;  // atom 0 turns the other way: its faces no longer close
  std::swap(reversed.adj[0][1], reversed.adj[0][2]);
  CubicGraph out_of_range = good;
  out_of_range.adj[7][2] = 60;
  isomers.graphs = {reversed, good, out_of_range};
  isomers.positions = {x, x, x};
  const auto gpu = cuda::properties_on_gpu(isomers.graphs, isomers.positions);
  ASSERT_EQ(gpu.size(), 3U);
  for (const std::size_t i : {0U, 2U}) {
    EXPECT_TRUE(std::isnan(gpu[i].energy)) << i;
    EXPECT_TRUE(std::isnan(gpu[i].volume)) << i;
    EXPECT_TRUE(std::isnan(gpu[i].homo_lumo_gap)) << i;
  }
  const IsomerProperties cpu = isomer_properties(ForceField(good), x);
  EXPECT_NEAR(gpu[1].energy, cpu.energy, 1e-12 * cpu.energy);
  EXPECT_NEAR(gpu[1].homo_lumo_gap, cpu.homo_lumo_gap, 1e-10);
}

TEST(CudaProperties, NanCoordinatesGiveNanEnergyAndTheGraphsGap) {
  REQUIRE_GPU();
  const Spiral ih = parse_spiral(kC60Ih);
  Geometries isomers = projected({triangulation_from_spiral(ih.atoms, ih.pentagons)});
  isomers.positions[0][17][1] = std::nan("");
  const auto gpu = cuda::properties_on_gpu(isomers.graphs, isomers.positions);
  ASSERT_EQ(gpu.size(), 1U);
  const IsomerProperties cpu = isomer_properties(ForceField(isomers.graphs[0]), isomers.positions[0]);
  EXPECT_TRUE(std::isnan(cpu.energy));
  EXPECT_TRUE(std::isnan(gpu[0].energy));
  EXPECT_TRUE(std::isnan(gpu[0].bond_rmsd));
  EXPECT_NEAR(gpu[0].homo_lumo_gap, cpu.homo_lumo_gap, 1e-10);
}

TEST(CudaProperties, RejectsMismatchedInput) {
  REQUIRE_GPU();
  EXPECT_TRUE(cuda::properties_on_gpu({}, {}).empty());
  const Spiral ih = parse_spiral(kC60Ih);
  const Geometries c60 = projected({triangulation_from_spiral(ih.atoms, ih.pentagons)});
  const Geometries c20 = projected(test::first_isomers(20, 1));
  EXPECT_THROW((void)cuda::properties_on_gpu(c60.graphs, {}), Error);
  EXPECT_THROW((void)cuda::properties_on_gpu({c60.graphs[0], c20.graphs[0]}, {c60.positions[0], c20.positions[0]}),
               Error);
  EXPECT_THROW((void)cuda::properties_on_gpu(c60.graphs, c20.positions), Error);
}

}  // namespace
}  // namespace molstep::fullerene
