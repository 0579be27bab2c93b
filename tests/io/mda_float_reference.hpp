// SPDX-License-Identifier: MIT
#pragma once

// What MDAnalysis read from an XTC or TRR file: tests/data/traj/{xtc,trr}_*.mda.txt, written by
// make_mdanalysis.py. Values stay the float32 that MDAnalysis holds (parsed with strtof: going
// through double first could round differently), so that tests can compare exactly or in
// float ulps.

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace molstep::test {

struct FloatRefFrame {
  std::int64_t step = 0;
  double time = 0, lambda = 0;  // lambda: TRR only
  std::vector<float> box, dims;
  std::vector<std::string> arrays;  // "x", "v", "f": which of x, v, f MDAnalysis found
  std::vector<float> x, v, f;       // interleaved xyz in MDAnalysis units
};

struct FloatReference {
  std::size_t natoms = 0;
  std::vector<FloatRefFrame> frames;
};

inline FloatReference read_float_reference(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  const auto to_float = [](const std::string& s) { return std::strtof(s.c_str(), nullptr); };
  FloatReference ref;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key, word;
    ls >> key;
    if (key.empty() || key[0] == '#') continue;
    if (key == "natoms") {
      ls >> ref.natoms;
    } else if (key == "frame") {
      FloatRefFrame f;
      std::string index;
      ls >> index >> word >> f.step >> word >> f.time >> word >> f.lambda;
      ref.frames.push_back(f);
    } else if (key == "box" || key == "dimensions") {
      auto& v = key == "box" ? ref.frames.back().box : ref.frames.back().dims;
      while (ls >> word) v.push_back(to_float(word));
    } else if (key == "atoms") {
      auto& f = ref.frames.back();
      while (ls >> word) f.arrays.push_back(word);
      for (std::size_t i = 0; i < ref.natoms; ++i) {
        std::getline(in, line);
        std::istringstream as(line);
        for (const auto& name : f.arrays) {
          auto& dst = name == "x" ? f.x : name == "v" ? f.v : f.f;
          for (int k = 0; k < 3 && as >> word; ++k) dst.push_back(to_float(word));
        }
      }
    }
  }
  return ref;
}

}  // namespace molstep::test
