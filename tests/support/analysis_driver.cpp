// SPDX-License-Identifier: MIT
#include "support/analysis_driver.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/paths.hpp"

namespace molstep::test {

QueryDriver::QueryDriver(core::Topology topology, core::Frame first_frame, std::string units)
    : selections_(std::move(topology), first_frame.natoms()),
      first_(std::move(first_frame)),
      context_{selections_, requests_, first_, std::move(units)} {}

analysis::Query& QueryDriver::add(const std::string& spec) {
  queries_.push_back(analysis::make_query(analysis::parse_query_spec(spec), context_));
  return *queries_.back();
}

void QueryDriver::push(const core::Frame& frame) {
  const auto& top = selections_.topology();
  std::vector<analysis::Moments> moments;
  for (const int s : requests_.moment_selections())
    moments.push_back(brute_moments(frame, top, selections_[s].indices));
  const auto& specs = requests_.pair_specs();
  pair_counts_.resize(specs.size());
  for (std::size_t p = 0; p < specs.size(); ++p) {
    pair_counts_[p].resize(static_cast<std::size_t>(specs[p].bins) + 1);
    brute_pair_counts(specs[p], selections_[specs[p].a].indices, selections_[specs[p].b].indices, frame,
                      pair_counts_[p]);
  }
  const analysis::FrameData data{frame, frames_, moments};
  for (auto& q : queries_) q->push(data);
  ++frames_;
}

nlohmann::json QueryDriver::finish(const std::filesystem::path& dir, bool plot) {
  pair_counts_.resize(requests_.pair_specs().size());
  for (std::size_t p = 0; p < pair_counts_.size(); ++p) {
    pair_counts_[p].resize(static_cast<std::size_t>(requests_.pair_specs()[p].bins) + 1);
  }
  const analysis::FinalData data{frames_, pair_counts_};
  nlohmann::json summary = nlohmann::json::object();
  for (auto& q : queries_) {
    auto& entry = summary[q->label()];
    entry = nlohmann::json::object();
    q->finish(data, analysis::QueryOutput{dir, plot, entry});
  }
  return summary;
}

QueryRun run_queries(const core::Topology& topology, const std::vector<core::Frame>& frames,
                     const std::vector<std::string>& specs, const std::string& scratch_name, const std::string& units) {
  QueryDriver driver(topology, frames.at(0), units);
  for (const auto& spec : specs) driver.add(spec);
  for (const auto& f : frames) driver.push(f);
  QueryRun run;
  run.dir = scratch_dir(scratch_name);
  run.summary = driver.finish(run.dir);
  return run;
}

analysis::Moments brute_moments(const core::Frame& frame, const core::Topology& topology,
                                const std::vector<std::uint32_t>& atoms) {
  analysis::Moments m;
  for (const auto i : atoms) {
    const double mass = topology.mass.empty() ? 1.0 : topology.mass[i];
    const double q = topology.charge.empty() ? 0.0 : topology.charge[i];
    const double r[3] = {frame.x[i], frame.y[i], frame.z[i]};
    m.count += 1;
    m.mass += mass;
    m.charge += q;
    for (int a = 0; a < 3; ++a) {
      m.mr[a] += mass * r[a];
      m.qr[a] += q * r[a];
    }
    m.mrr[0] += mass * r[0] * r[0];
    m.mrr[1] += mass * r[1] * r[1];
    m.mrr[2] += mass * r[2] * r[2];
    m.mrr[3] += mass * r[0] * r[1];
    m.mrr[4] += mass * r[0] * r[2];
    m.mrr[5] += mass * r[1] * r[2];
  }
  return m;
}

void brute_pair_counts(const analysis::PairSpec& spec, const std::vector<std::uint32_t>& a,
                       const std::vector<std::uint32_t>& b, const core::Frame& frame,
                       std::vector<std::uint64_t>& counts) {
  const double width = spec.rmax / spec.bins;
  const auto count = [&](std::uint32_t i, std::uint32_t j) {
    double d[3] = {frame.x[j] - frame.x[i], frame.y[j] - frame.y[i], frame.z[j] - frame.z[i]};
    if (spec.minimum_image) {
      for (int k = 0; k < 3; ++k) d[k] -= frame.box[k][k] * std::round(d[k] / frame.box[k][k]);
    }
    const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const auto bin = r < spec.rmax
                         ? std::min(static_cast<std::size_t>(r / width), static_cast<std::size_t>(spec.bins - 1))
                         : static_cast<std::size_t>(spec.bins);
    ++counts[bin];
  };
  if (spec.a == spec.b) {
    for (std::size_t x = 0; x < a.size(); ++x) {
      for (std::size_t y = x + 1; y < a.size(); ++y) count(a[x], a[y]);
    }
  } else {
    for (const auto i : a) {
      for (const auto j : b) {
        if (i != j) count(i, j);
      }
    }
  }
}

const std::vector<double>& CsvFile::at(const std::string& name) const {
  const auto it = columns.find(name);
  if (it == columns.end()) throw std::runtime_error("no CSV column '" + name + "'");
  return it->second;
}

CsvFile read_csv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  CsvFile csv;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      csv.comments.push_back(line.substr(2));
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (csv.names.empty()) {
      csv.names = cells;
      for (const auto& n : cells) csv.columns[n];
      continue;
    }
    if (cells.size() != csv.names.size()) throw std::runtime_error("ragged CSV row in " + path.string());
    for (std::size_t c = 0; c < cells.size(); ++c) csv.columns[csv.names[c]].push_back(std::stod(cells[c]));
  }
  return csv;
}

core::Frame make_frame(const std::vector<std::array<double, 3>>& positions, double box, double time,
                       std::int64_t step) {
  core::Frame f;
  f.step = step;
  f.time = time;
  f.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    f.x[i] = positions[i][0];
    f.y[i] = positions[i][1];
    f.z[i] = positions[i][2];
  }
  for (int d = 0; d < 3; ++d) f.box[d][d] = box;
  return f;
}

}  // namespace molstep::test
