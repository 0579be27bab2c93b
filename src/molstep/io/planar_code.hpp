// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "molstep/core/atomic_file.hpp"
#include "molstep/fullerene/graph.hpp"

namespace molstep::io {

/// One graph of a planar_code file: a rotation system with vertices numbered from 0 and each
/// vertex's neighbours in clockwise order. The lists are stored one after another: vertex v's
/// are neighbours[first[v] .. first[v+1]).
struct PlanarGraph {
  std::vector<int> first{0};
  std::vector<int> neighbours;
  std::string file;        ///< the file it was read from; empty for a graph made in memory
  std::int64_t index = 0;  ///< its position in that file, counted from 0

  [[nodiscard]] int size() const { return static_cast<int>(first.size()) - 1; }
  [[nodiscard]] int degree(int v) const { return first[v + 1] - first[v]; }
  [[nodiscard]] std::span<const int> neighbours_of(int v) const {
    return {neighbours.data() + first[v], static_cast<std::size_t>(degree(v))};
  }
  /// Appends a vertex with these neighbours, clockwise.
  void add_vertex(std::span<const int> clockwise) {
    neighbours.insert(neighbours.end(), clockwise.begin(), clockwise.end());
    first.push_back(static_cast<int>(neighbours.size()));
  }
  bool operator==(const PlanarGraph& other) const {
    return first == other.first && neighbours == other.neighbours;
  }
};

[[nodiscard]] PlanarGraph planar_graph(const fullerene::Triangulation& t);
[[nodiscard]] PlanarGraph planar_graph(const fullerene::CubicGraph& g);

/// The graph as a fullerene dual, vertex numbers unchanged. Throws molstep::Error naming the
/// file and graph when a degree is not 5 or 6 or fullerene::validate fails.
[[nodiscard]] fullerene::Triangulation to_triangulation(const PlanarGraph& g);
/// The graph as a fullerene, vertex numbers unchanged. Throws molstep::Error naming the file
/// and graph when a degree is not 3 or fullerene::validate fails.
[[nodiscard]] fullerene::CubicGraph to_cubic(const PlanarGraph& g);

/// Reads planar_code as plantri and BuckyGen write it (docs/file-formats.md): an optional
/// header ">>planar_code<<", ">>planar_code le<<" or ">>planar_code be<<", then graphs
/// back to back. One graph is held at a time, so files of any length stream in constant
/// memory. Corrupt or truncated data gives a molstep::Error with the file, the graph (from
/// 0), the byte offset and what was expected.
class PlanarCodeReader {
 public:
  explicit PlanarCodeReader(const std::filesystem::path& path);

  /// The next graph, or nullopt at the end of the file.
  std::optional<PlanarGraph> next();
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// Whether 2-byte entries (graphs of 256 or more vertices) are big-endian.
  [[nodiscard]] bool big_endian() const { return big_endian_; }

 private:
  [[noreturn]] void fail(std::int64_t at, const std::string& what) const;
  [[noreturn]] void truncated(std::int64_t graph_start, const std::string& expected) const;
  /// The next 1- or 2-byte number; -1 at the end of the file.
  int read_entry(int width);
  void read_header();

  std::filesystem::path path_;
  std::vector<char> buffer_;
  std::ifstream in_;
  std::int64_t offset_ = 0;
  std::int64_t index_ = 0;
  bool big_endian_ = false;
};

/// Writes planar_code that BuckyGen and plantri read: the header ">>planar_code<<" once, then
/// each graph; graphs of more than 255 vertices in the 2-byte form, little-endian. The file
/// appears under its name only at close(); a writer destroyed before that leaves nothing.
class PlanarCodeWriter {
 public:
  /// Writes to `path`, which appears only at close() (written to a temporary and renamed).
  explicit PlanarCodeWriter(const std::filesystem::path& path);
  /// Writes to an open stream (e.g. std::cout); `name` is how errors refer to it.
  PlanarCodeWriter(std::ostream& out, std::string name);

  void write(const PlanarGraph& g);
  void write(const fullerene::Triangulation& t);
  void write(const fullerene::CubicGraph& g);
  void close();
  [[nodiscard]] std::int64_t graphs_written() const { return written_; }

 private:
  std::unique_ptr<core::AtomicFile> file_;
  std::ostream* out_ = nullptr;
  std::string name_;
  std::string code_;
  std::int64_t written_ = 0;
  bool closed_ = false;
};

}  // namespace molstep::io
