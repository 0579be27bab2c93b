// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "molstep/analysis/query.hpp"
#include "molstep/analysis/selection.hpp"
#include "molstep/core/frame.hpp"
#include "molstep/core/topology.hpp"

namespace molstep::test {

/// Drives analysis queries without the engine, for tests: builds them through make_query, then
/// computes what the engine would hand them with plain loops (the Moments of every requested
/// selection; pair counts by brute force over all pairs) and feeds the frames.
class QueryDriver {
 public:
  /// Masses and charges for the moments come from `topology` (1 and 0 when it has none).
  QueryDriver(core::Topology topology, core::Frame first_frame, std::string units = "real");

  analysis::SelectionSet& selections() { return selections_; }
  /// Builds the query from "kind:key=value,..." (molstep::Error as make_query throws).
  analysis::Query& add(const std::string& spec);
  void push(const core::Frame& frame);
  /// Finishes every query into `dir`; returns the summary entries by label.
  nlohmann::json finish(const std::filesystem::path& dir, bool plot = false);

 private:
  analysis::SelectionSet selections_;
  analysis::Requests requests_;
  core::Frame first_;
  analysis::QueryContext context_;
  std::vector<std::unique_ptr<analysis::Query>> queries_;
  std::vector<std::vector<std::uint64_t>> pair_counts_;
  std::size_t frames_ = 0;
};

/// What one pass of queries over a trajectory left: the folder of its outputs and the summary
/// entries by label.
struct QueryRun {
  std::filesystem::path dir;
  nlohmann::json summary;
};
/// Builds the queries `specs` on the first of `frames` (masses and charges from `topology`),
/// pushes every frame and finishes into a fresh scratch folder `scratch_name`.
QueryRun run_queries(const core::Topology& topology, const std::vector<core::Frame>& frames,
                     const std::vector<std::string>& specs, const std::string& scratch_name,
                     const std::string& units = "real");

/// The sums of analysis::Moments over `atoms`, one atom after another.
analysis::Moments brute_moments(const core::Frame& frame, const core::Topology& topology,
                                const std::vector<std::uint32_t>& atoms);
/// Adds one frame's pair counts of `spec` (as its comment defines them) by looping over all
/// pairs; minimum image with round() in an orthorhombic box.
void brute_pair_counts(const analysis::PairSpec& spec, const std::vector<std::uint32_t>& a,
                       const std::vector<std::uint32_t>& b, const core::Frame& frame,
                       std::vector<std::uint64_t>& counts);

/// A CSV file as written by analysis::write_csv: columns by name, every value as a double.
struct CsvFile {
  std::vector<std::string> comments;
  std::vector<std::string> names;
  std::map<std::string, std::vector<double>> columns;
  [[nodiscard]] const std::vector<double>& at(const std::string& name) const;
  [[nodiscard]] std::size_t rows() const { return columns.empty() ? 0 : columns.begin()->second.size(); }
};
CsvFile read_csv(const std::filesystem::path& path);

/// A frame of `n` atoms in a cubic box of side `box` (no box when 0) with the given positions.
core::Frame make_frame(const std::vector<std::array<double, 3>>& positions, double box, double time = 0,
                       std::int64_t step = 0);

}  // namespace molstep::test
