// SPDX-License-Identifier: MIT
#include "molstep/io/planar_code.hpp"

#include <array>
#include <cctype>
#include <string_view>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"

namespace molstep::io {
namespace {

constexpr std::string_view kHeader = ">>planar_code<<";
constexpr std::string_view kHeaderStem = ">>planar_code";
constexpr int kLargestOneByteGraph = 255;
constexpr int kLargestGraph = 65535;

/// An Error located at g's file (when it has one) that names the graph.
[[noreturn]] void graph_error(const PlanarGraph& g, const std::string& what) {
  const std::string message = "graph " + std::to_string(g.index) + ": " + what;
  if (g.file.empty()) throw Error(message);
  throw Error(SourceLoc{g.file, 0}, message);
}

/// Checks the degrees, copies the lists into `graph` (a Triangulation or CubicGraph with its
/// rows allocated) and validates it.
template <class Graph>
Graph convert(const PlanarGraph& g, int lowest, int highest, const char* kind, Graph graph) {
  for (int v = 0; v < g.size(); ++v) {
    const int d = g.degree(v);
    if (d < lowest || d > highest)
      graph_error(g, "vertex " + std::to_string(v) + " has degree " + std::to_string(d) + "; " + kind);
    for (int j = 0; j < d; ++j) graph.adj[v][j] = g.neighbours_of(v)[j];
  }
  try {
    fullerene::validate(graph);
  } catch (const Error& e) {
    graph_error(g, e.message());
  }
  return graph;
}

}  // namespace

PlanarGraph planar_graph(const fullerene::Triangulation& t) {
  PlanarGraph g;
  for (int v = 0; v < t.size(); ++v) g.add_vertex(std::span<const int>(t.adj[v].data(), t.degree[v]));
  return g;
}

PlanarGraph planar_graph(const fullerene::CubicGraph& c) {
  PlanarGraph g;
  for (const auto& list : c.adj) g.add_vertex(list);
  return g;
}

fullerene::Triangulation to_triangulation(const PlanarGraph& g) {
  fullerene::Triangulation t;
  t.adj.assign(static_cast<std::size_t>(g.size()), {-1, -1, -1, -1, -1, -1});
  t.degree.resize(static_cast<std::size_t>(g.size()));
  for (int v = 0; v < g.size(); ++v) t.degree[v] = static_cast<std::uint8_t>(g.degree(v));
  return convert(g, 5, 6, "a fullerene dual has degrees 5 and 6 only", std::move(t));
}

fullerene::CubicGraph to_cubic(const PlanarGraph& g) {
  fullerene::CubicGraph c;
  c.adj.resize(static_cast<std::size_t>(g.size()));
  return convert(g, 3, 3, "a fullerene is cubic (degree 3)", std::move(c));
}

PlanarCodeReader::PlanarCodeReader(const std::filesystem::path& path) : path_(path), buffer_(1 << 16) {
  in_.rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  in_.open(path, std::ios::binary);
  if (!in_) throw Error("cannot open '" + path.string() + "' for reading");
  read_header();
}

void PlanarCodeReader::read_header() {
  std::array<char, 20> head{};
  in_.read(head.data(), head.size());
  const std::string_view start(head.data(), static_cast<std::size_t>(in_.gcount()));
  in_.clear();
  std::size_t length = 0;
  if (start.starts_with(kHeaderStem)) {
    const std::string_view rest = start.substr(kHeaderStem.size());
    if (rest.starts_with("<<")) {
      length = kHeader.size();
    } else if (rest.starts_with(" le<<") || rest.starts_with(" be<<")) {
      length = kHeaderStem.size() + 5;
      big_endian_ = rest[1] == 'b';
    } else {
      throw Error(SourceLoc{path_.string(), 0},
                  "at byte 0: expected the header >>planar_code<<, >>planar_code le<< or >>planar_code be<<");
    }
  } else if (start.size() > 2 && start.starts_with(">>") && std::isalpha(static_cast<unsigned char>(start[2]))) {
    // A graph cannot start so: a letter is more than the vertex count 62 that '>' would give.
    const std::size_t end = start.find("<<");
    throw Error(SourceLoc{path_.string(), 0},
                "not planar_code: the file starts with the header '" +
                    std::string(end == std::string_view::npos ? start : start.substr(0, end + 2)) + "'");
  }
  in_.seekg(static_cast<std::streamoff>(length));
  offset_ = static_cast<std::int64_t>(length);
}

void PlanarCodeReader::fail(std::int64_t at, const std::string& what) const {
  throw Error(SourceLoc{path_.string(), 0},
              "graph " + std::to_string(index_) + " at byte " + std::to_string(at) + ": " + what);
}

void PlanarCodeReader::truncated(std::int64_t graph_start, const std::string& expected) const {
  throw Error(SourceLoc{path_.string(), 0}, "truncated: graph " + std::to_string(index_) + " (from byte " +
                                                std::to_string(graph_start) + ") ends at byte " +
                                                std::to_string(offset_) + ", where " + expected +
                                                " was expected");
}

int PlanarCodeReader::read_entry(int width) {
  std::streambuf& buf = *in_.rdbuf();
  int value = 0;
  for (int k = 0; k < width; ++k) {
    const auto c = buf.sbumpc();
    if (c == std::char_traits<char>::eof()) return -1;
    ++offset_;
    const int shift = width == 1 ? 0 : 8 * (big_endian_ ? 1 - k : k);
    value |= static_cast<unsigned char>(c) << shift;
  }
  return value;
}

std::optional<PlanarGraph> PlanarCodeReader::next() {
  const std::int64_t start = offset_;
  int width = 1, n = read_entry(1);
  if (n < 0) return std::nullopt;
  if (n == 0) {
    width = 2;
    n = read_entry(2);
    if (n < 0) truncated(start, "the 2-byte vertex count that follows a 0 byte");
    if (n == 0) fail(start, "expected a vertex count of at least 1, found 0");
  }
  PlanarGraph g;
  g.file = path_.string();
  g.index = index_;
  g.first.reserve(static_cast<std::size_t>(n) + 1);
  g.neighbours.reserve(6 * static_cast<std::size_t>(n));
  // Vertices are named from 0, as molstep numbers them; entries are quoted as stored.
  auto expected = [n](int v) {
    return "a neighbour (1.." + std::to_string(n) + ") or the 0 that ends the list of vertex " + std::to_string(v);
  };
  for (int v = 0; v < n; ++v) {
    for (;;) {
      const std::int64_t at = offset_;
      const int w = read_entry(width);
      if (w < 0) truncated(start, expected(v));
      if (w == 0) break;
      if (w > n) fail(at, "expected " + expected(v) + ", found " + std::to_string(w));
      g.neighbours.push_back(w - 1);
    }
    g.first.push_back(static_cast<int>(g.neighbours.size()));
  }
  ++index_;
  return g;
}

PlanarCodeWriter::PlanarCodeWriter(const std::filesystem::path& path)
    : file_(std::make_unique<core::AtomicFile>(path)), out_(&file_->stream()), name_(path.string()) {
  name_.insert(0, 1, '\'');
  name_.push_back('\'');
  *out_ << kHeader;
}

PlanarCodeWriter::PlanarCodeWriter(std::ostream& out, std::string name) : out_(&out), name_(std::move(name)) {
  *out_ << kHeader;
}

void PlanarCodeWriter::write(const PlanarGraph& g) {
  if (closed_) throw Error("planar_code writer for " + name_ + ": write after close()");
  const int n = g.size();
  if (n < 1 || n > kLargestGraph)
    throw Error("cannot write a graph of " + std::to_string(n) + " vertices to " + name_ +
                ": planar_code holds 1.." + std::to_string(kLargestGraph));
  const bool wide = n > kLargestOneByteGraph;
  code_.clear();
  auto put = [&](int value) {
    code_.push_back(static_cast<char>(value & 0xff));
    if (wide) code_.push_back(static_cast<char>(value >> 8));
  };
  if (wide) code_.push_back('\0');
  put(n);
  for (int v = 0; v < n; ++v) {
    for (int w : g.neighbours_of(v)) {
      if (w < 0 || w >= n)
        throw Error("cannot write to " + name_ + ": graph " + std::to_string(written_) +
                    " has a neighbour " + std::to_string(w) + " outside 0.." + std::to_string(n - 1));
      put(w + 1);
    }
    put(0);
  }
  out_->write(code_.data(), static_cast<std::streamsize>(code_.size()));
  ++written_;
}

void PlanarCodeWriter::write(const fullerene::Triangulation& t) { write(planar_graph(t)); }

void PlanarCodeWriter::write(const fullerene::CubicGraph& g) { write(planar_graph(g)); }

void PlanarCodeWriter::close() {
  if (file_) {
    file_->commit();
  } else {
    out_->flush();
  }
  closed_ = true;
}

}  // namespace molstep::io
