// SPDX-License-Identifier: MIT
// Reads the peer reference files of tests/data/traj (NAME.mda.txt, NAME.ase.txt), written by
// io_make_peers.py; the format is described there.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/core/frame.hpp"
#include "molstep/io/trajectory.hpp"
#include "support/paths.hpp"

namespace molstep::test {

struct RefFrame {
  std::int64_t step = 0;
  double time = 0;
  std::optional<std::array<double, 6>> dimensions;
  std::optional<std::array<double, 9>> box;
  std::map<std::string, double> scalars;
  std::vector<std::array<double, 3>> x, v, f;
};

struct Reference {
  std::size_t natoms = 0;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // per atom, one entry per column
  std::vector<RefFrame> frames;

  /// The topology column `name`, one entry per atom; empty when absent.
  [[nodiscard]] std::vector<std::string> column(const std::string& name) const {
    std::vector<std::string> out;
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (columns[c] == name)
        for (const auto& r : rows) out.push_back(r[c]);
    return out;
  }
};

inline std::filesystem::path traj_data(const std::string& name) { return data_dir() / "traj" / name; }

inline Reference read_reference(const std::string& name) {
  std::ifstream in(traj_data(name));
  if (!in) throw std::runtime_error("cannot open reference " + name);
  Reference ref;
  std::string line;
  const auto read_triples = [&](std::vector<std::array<double, 3>>* dst[3]) {
    for (std::size_t i = 0; i < ref.natoms; ++i) {
      std::getline(in, line);
      std::istringstream s(line);
      for (int k = 0; k < 3; ++k) {
        if (!dst[k]) continue;
        std::array<double, 3> r{};
        s >> r[0] >> r[1] >> r[2];
        dst[k]->push_back(r);
      }
    }
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "natoms") {
      s >> ref.natoms;
    } else if (key == "columns") {
      for (std::string c; s >> c;) ref.columns.push_back(c);
      for (std::size_t i = 0; i < ref.natoms; ++i) {
        std::getline(in, line);
        std::istringstream r(line);
        std::vector<std::string> row;
        for (std::string w; r >> w;) row.push_back(w == "-" ? std::string() : w);
        ref.rows.push_back(row);
      }
    } else if (key == "frame") {
      RefFrame f;
      std::string w;
      int index = 0;
      s >> index >> w >> f.step >> w >> f.time;
      ref.frames.push_back(f);
    } else if (key == "dimensions") {
      std::string first;
      s >> first;
      if (first != "none") {
        std::array<double, 6> d{};
        d[0] = std::stod(first);
        for (int k = 1; k < 6; ++k) s >> d[static_cast<std::size_t>(k)];
        ref.frames.back().dimensions = d;
      }
    } else if (key == "box") {
      std::array<double, 9> b{};
      for (auto& v : b) s >> v;
      ref.frames.back().box = b;
    } else if (key == "scalars") {
      for (std::string kv; s >> kv;) {
        const auto eq = kv.find('=');
        ref.frames.back().scalars[kv.substr(0, eq)] = std::stod(kv.substr(eq + 1));
      }
    } else if (key == "atoms") {
      auto& f = ref.frames.back();
      std::vector<std::array<double, 3>>* dst[3] = {nullptr, nullptr, nullptr};
      int k = 0;
      for (std::string c; s >> c; ++k) dst[k] = c == "x" ? &f.x : c == "v" ? &f.v : &f.f;
      read_triples(dst);
    }
  }
  return ref;
}

/// Expects a and b to agree within abs_tol + rel_tol * |b|.
inline ::testing::AssertionResult near(double a, double b, double abs_tol, double rel_tol = 0.0) {
  if (std::fabs(a - b) <= abs_tol + rel_tol * std::fabs(b)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b << " (difference " << a - b << ")";
}

/// Compares a frame's positions (and velocities, forces when the reference has them) with a
/// reference frame, atom by atom; `offset` is added to our positions first.
inline void expect_positions(const core::Frame& f, const RefFrame& r, double tol,
                             std::array<double, 3> offset = {0, 0, 0}) {
  ASSERT_EQ(f.natoms(), r.x.size());
  for (std::size_t i = 0; i < f.natoms(); ++i) {
    EXPECT_TRUE(near(f.x[i] + offset[0], r.x[i][0], tol, tol)) << "atom " << i << " x";
    EXPECT_TRUE(near(f.y[i] + offset[1], r.x[i][1], tol, tol)) << "atom " << i << " y";
    EXPECT_TRUE(near(f.z[i] + offset[2], r.x[i][2], tol, tol)) << "atom " << i << " z";
  }
  if (!r.v.empty()) {
    ASSERT_TRUE(f.has_velocities());
    for (std::size_t i = 0; i < f.natoms(); ++i) {
      EXPECT_TRUE(near(f.vx[i], r.v[i][0], tol, tol)) << "atom " << i << " vx";
      EXPECT_TRUE(near(f.vy[i], r.v[i][1], tol, tol)) << "atom " << i << " vy";
      EXPECT_TRUE(near(f.vz[i], r.v[i][2], tol, tol)) << "atom " << i << " vz";
    }
  }
  if (!r.f.empty()) {
    ASSERT_TRUE(f.has_forces());
    for (std::size_t i = 0; i < f.natoms(); ++i) {
      EXPECT_TRUE(near(f.fx[i], r.f[i][0], tol, tol)) << "atom " << i << " fx";
      EXPECT_TRUE(near(f.fy[i], r.f[i][1], tol, tol)) << "atom " << i << " fy";
      EXPECT_TRUE(near(f.fz[i], r.f[i][2], tol, tol)) << "atom " << i << " fz";
    }
  }
}

/// Compares a frame's box, as lengths and angles, with the reference's dimensions.
inline void expect_dimensions(const core::Frame& f, const RefFrame& r, double tol) {
  if (!r.dimensions) {
    EXPECT_FALSE(f.has_box());
    return;
  }
  ASSERT_TRUE(f.has_box());
  const auto la = core::box_lengths_angles(f.box);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_TRUE(near(la[k], (*r.dimensions)[k], tol, tol)) << "dimension " << k;
}

/// Expects a frame read back from a file to hold exactly the step and the per-atom arrays
/// (positions, velocities, forces) of the frame written, for formats that write full precision.
inline void expect_same_atoms(const core::Frame& back, const core::Frame& written) {
  using Array = std::vector<double> core::Frame::*;
  const std::pair<const char*, Array> arrays[] = {
      {"x", &core::Frame::x},   {"y", &core::Frame::y},   {"z", &core::Frame::z},
      {"vx", &core::Frame::vx}, {"vy", &core::Frame::vy}, {"vz", &core::Frame::vz},
      {"fx", &core::Frame::fx}, {"fy", &core::Frame::fy}, {"fz", &core::Frame::fz}};
  EXPECT_EQ(back.step, written.step);
  for (const auto& [name, array] : arrays) EXPECT_EQ(back.*array, written.*array) << name;
}

/// Reads every frame of a trajectory.
inline std::vector<core::Frame> read_all(io::TrajectoryReader& reader) {
  std::vector<core::Frame> frames;
  core::Frame f;
  while (reader.next(f)) frames.push_back(f);
  return frames;
}

/// The message of the molstep::Error that `fn` throws ("" when it throws none).
template <class F>
std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace molstep::test
