// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "molstep/analysis/params.hpp"
#include "molstep/analysis/selection.hpp"
#include "molstep/core/frame.hpp"

namespace molstep::analysis {

/// Sums over the atoms of one selection in one frame. The engine computes every requested
/// selection's sums in one fused pass per frame (CPU or GPU); one-body queries (mass, charge,
/// centre of mass, gyration, inertia, dipole) derive their results from these.
struct Moments {
  double count = 0;
  double mass = 0;
  double charge = 0;
  std::array<double, 3> mr{};   ///< sum m r
  std::array<double, 3> qr{};   ///< sum q r
  std::array<double, 6> mrr{};  ///< sum m x x, m y y, m z z, m x y, m x z, m y z

  /// The sums as 15 doubles in the order above: the layout the GPU kernel writes and MPI ranks
  /// exchange.
  static constexpr int kValues = 15;
  [[nodiscard]] std::array<double, kValues> packed() const {
    return {count,  mass,   charge, mr[0],  mr[1],  mr[2],  qr[0], qr[1],
            qr[2],  mrr[0], mrr[1], mrr[2], mrr[3], mrr[4], mrr[5]};
  }
  template <class Values>
  static Moments unpack(const Values& v) {
    Moments m;
    m.count = v[0];
    m.mass = v[1];
    m.charge = v[2];
    for (int d = 0; d < 3; ++d) {
      m.mr[d] = v[3 + d];
      m.qr[d] = v[6 + d];
    }
    for (int k = 0; k < 6; ++k) m.mrr[k] = v[9 + k];
    return m;
  }
};

/// A distance histogram between two selections: bins of width rmax/bins on [0, rmax); counts
/// has bins + 1 entries, the last counting pairs at r >= rmax. When a == b each unordered pair
/// i < j counts once; otherwise every (i in a, j in b, i != j) counts once. Distances use the
/// minimum image of an orthorhombic box when minimum_image is set.
struct PairSpec {
  int a = 0;
  int b = 0;
  double rmax = 0;
  int bins = 0;
  bool minimum_image = true;
  bool operator==(const PairSpec&) const = default;
};

/// What queries ask of the engine; equal requests are shared between queries.
class Requests {
 public:
  /// Per-frame moments of selection `selection`; returns the index into FrameData::moments.
  int moments(int selection);
  /// Pair counts summed over all frames; returns the index into FinalData::pair_counts.
  int pairs(const PairSpec& spec);
  /// Ask for per-atom positions (velocities) of each frame on the host.
  void positions() { need_positions_ = true; }
  void velocities() { need_velocities_ = true; }

  [[nodiscard]] const std::vector<int>& moment_selections() const { return moment_selections_; }
  [[nodiscard]] const std::vector<PairSpec>& pair_specs() const { return pair_specs_; }
  [[nodiscard]] bool need_positions() const { return need_positions_; }
  [[nodiscard]] bool need_velocities() const { return need_velocities_; }

 private:
  std::vector<int> moment_selections_;
  std::vector<PairSpec> pair_specs_;
  bool need_positions_ = false;
  bool need_velocities_ = false;
};

/// One frame as it reaches the queries. `frame` always has step, time, box and scalars; its
/// positions/velocities are filled only when some query asked for them (Requests).
struct FrameData {
  const core::Frame& frame;
  std::size_t index;                 ///< 0-based frame number in the stream
  std::span<const Moments> moments;  ///< by Requests::moments id
};

/// What the engine hands every query at the end.
struct FinalData {
  std::size_t frames = 0;
  std::span<const std::vector<std::uint64_t>> pair_counts;  ///< by Requests::pairs id, summed over frames
};

/// Where a query writes its results: `dir/<label>.csv` (and more files named `<label>_*.csv`),
/// `dir/<label>.png` when plotting, and its entry in the JSON summary.
struct QueryOutput {
  std::filesystem::path dir;
  bool plot = false;
  nlohmann::json& summary;
};

/// Fixed facts a query sees when it is built.
struct QueryContext {
  SelectionSet& selections;
  Requests& requests;
  const core::Frame& first_frame;  ///< the first frame of the source (box, natoms, what it carries)
  std::string units = "real";      ///< unit system of the source: real, metal, lj, gromacs
};

/// A query of the push network: constructed once, fed every frame in order, finished once.
class Query {
 public:
  virtual ~Query() = default;
  [[nodiscard]] const std::string& label() const { return label_; }
  virtual void push(const FrameData& data) = 0;
  virtual void finish(const FinalData& data, const QueryOutput& out) = 0;

 protected:
  explicit Query(std::string label) : label_(std::move(label)) {}

 private:
  std::string label_;
};

/// Builds the query described by `spec` ("rdf:sel1=O,sel2=O,rmax=10,bins=200"). Throws
/// molstep::Error for an unknown kind (listing the known ones), an unknown or malformed
/// parameter, or a source that lacks what the query needs (velocities for vacf, ...).
std::unique_ptr<Query> make_query(const QuerySpec& spec, QueryContext& context);
/// Kinds make_query knows, with a one-line description each.
const std::map<std::string, std::string>& query_kinds();

}  // namespace molstep::analysis
