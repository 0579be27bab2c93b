// SPDX-License-Identifier: MIT
#include "molstep/io/planar_code.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/file_bytes.hpp"
#include "io/scratch_dir_test.hpp"
#include "molstep/core/error.hpp"
#include "molstep/fullerene/dual.hpp"
#include "molstep/fullerene/spiral.hpp"
#include "support/paths.hpp"

namespace fs = std::filesystem;
using molstep::Error;
using namespace molstep::io;
using namespace molstep::fullerene;
using namespace molstep::test;

namespace {

fs::path buckygen_file(const std::string& name) { return data_dir() / "fullerene" / name; }

std::vector<PlanarGraph> read_all(const fs::path& path) {
  PlanarCodeReader reader(path);
  std::vector<PlanarGraph> out;
  while (auto g = reader.next()) out.push_back(std::move(*g));
  return out;
}

/// The error reading all of `path` gives ("" when none).
std::string reading_error(const fs::path& path) {
  try {
    (void)read_all(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

/// The [5,0] nanotube C520: 262 faces, so planar_code needs 2-byte entries for its dual.
Triangulation c520() {
  return triangulation_from_spiral(520, {1, 2, 3, 4, 5, 6, 257, 258, 259, 260, 261, 262});
}

class PlanarCode : public ScratchDirTest {
 protected:
  PlanarCode() : ScratchDirTest("planar_code_") {}
};

}  // namespace

TEST_F(PlanarCode, ReadsBuckyGenTriangulations) {
  for (const auto& [file, count, faces] : {std::tuple{"c40.pc", 40u, 22}, std::tuple{"c50.pc", 271u, 27}}) {
    SCOPED_TRACE(file);
    const auto graphs = read_all(buckygen_file(file));
    ASSERT_EQ(graphs.size(), count);
    for (std::size_t i = 0; i < graphs.size(); ++i) {
      EXPECT_EQ(graphs[i].index, static_cast<std::int64_t>(i));
      EXPECT_EQ(graphs[i].file, buckygen_file(file).string());
      const Triangulation t = to_triangulation(graphs[i]);
      EXPECT_EQ(t.size(), faces);
      EXPECT_NO_THROW(validate(dualize(t)));
    }
  }
}

TEST_F(PlanarCode, BuckyGenDualsAreOurDuals) {
  // buckygen -d writes the cubic graph of each triangulation, in the same order.
  const auto triangulations = read_all(buckygen_file("c40.pc"));
  const auto cubic = read_all(buckygen_file("c40_dual.pc"));
  ASSERT_EQ(cubic.size(), triangulations.size());
  for (std::size_t i = 0; i < cubic.size(); ++i) {
    SCOPED_TRACE(i);
    const CubicGraph g = to_cubic(cubic[i]);
    EXPECT_EQ(g.size(), 40);
    const Triangulation t = to_triangulation(triangulations[i]);
    EXPECT_TRUE(isomorphic_oriented(dualize(t), g));
    EXPECT_TRUE(isomorphic_oriented(dualize(g), t));
  }
}

TEST_F(PlanarCode, RewritingABuckyGenFileGivesTheSameBytes) {
  for (const std::string file : {"c40.pc", "c40_dual.pc", "c50.pc"}) {
    SCOPED_TRACE(file);
    const fs::path out = dir_ / file;
    PlanarCodeWriter writer(out);
    PlanarCodeReader reader(buckygen_file(file));
    while (auto g = reader.next()) {
      if (g->degree(0) == 3)
        writer.write(to_cubic(*g));
      else
        writer.write(to_triangulation(*g));
    }
    EXPECT_EQ(writer.graphs_written(), file == "c50.pc" ? 271 : 40);
    writer.close();
    EXPECT_EQ(read_bytes(out), read_bytes(buckygen_file(file)));
  }
}

TEST_F(PlanarCode, LargeGraphsUseTwoByteEntriesInEitherByteOrder) {
  const Triangulation t = c520();
  const CubicGraph g = dualize(t);
  const fs::path out = dir_ / "c520.pc";
  {
    PlanarCodeWriter writer(out);
    writer.write(t);
    writer.write(g);
    writer.write(triangulation_from_spiral(60, {1, 7, 9, 11, 13, 15, 18, 20, 22, 24, 26, 32}));
    writer.close();
  }
  const std::vector<char> le = read_bytes(out);
  // Header, then 0, vertex count 262 little-endian, first neighbour 2 (vertex 1).
  ASSERT_GT(le.size(), 20u);
  EXPECT_EQ(std::string(le.begin(), le.begin() + 15), ">>planar_code<<");
  EXPECT_EQ(std::vector<int>(le.begin() + 15, le.begin() + 20), (std::vector<int>{0, 6, 1, 2, 0}));
  const auto graphs = read_all(out);
  ASSERT_EQ(graphs.size(), 3u);
  EXPECT_EQ(to_triangulation(graphs[0]), t);
  EXPECT_EQ(to_cubic(graphs[1]), g);
  EXPECT_EQ(graphs[2].size(), 32);

  // The same graphs with the header ">>planar_code be<<" and every 2-byte entry swapped:
  // graph 0 spans [0, e0) of the body, graph 1 [e0, e1); each opens with a single 0 byte.
  std::vector<char> be(le.begin() + 15, le.end());
  const std::size_t n = static_cast<std::size_t>(t.size()), atoms = static_cast<std::size_t>(g.size());
  const std::size_t e0 = 1 + 2 * (1 + (6 * n - 12) + n), e1 = e0 + 1 + 2 * (1 + 3 * atoms + atoms);
  ASSERT_EQ(be[e1], 32);
  for (const auto& [from, to] : {std::pair{std::size_t{0}, e0}, std::pair{e0, e1}})
    for (std::size_t at = from + 1; at < to; at += 2) std::swap(be[at], be[at + 1]);
  const std::string header = ">>planar_code be<<";
  be.insert(be.begin(), header.begin(), header.end());
  write_bytes(dir_ / "be.pc", be);
  PlanarCodeReader reader(dir_ / "be.pc");
  EXPECT_TRUE(reader.big_endian());
  EXPECT_EQ(reader.next(), graphs[0]);
  EXPECT_EQ(reader.next(), graphs[1]);
  EXPECT_EQ(reader.next(), graphs[2]);
  EXPECT_EQ(reader.next(), std::nullopt);
}

TEST_F(PlanarCode, ReadsHeaderVariantsAndHeaderlessFiles) {
  const std::vector<char> bytes = read_bytes(buckygen_file("c40.pc"));
  const std::vector<char> body(bytes.begin() + 15, bytes.end());
  const auto expected = read_all(buckygen_file("c40.pc"));
  for (const std::string header : {"", ">>planar_code le<<", ">>planar_code be<<"}) {
    SCOPED_TRACE(header);
    std::vector<char> file(header.begin(), header.end());
    file.insert(file.end(), body.begin(), body.end());
    write_bytes(dir_ / "variant.pc", file);
    EXPECT_EQ(read_all(dir_ / "variant.pc"), expected);
  }
  write_bytes(dir_ / "empty.pc", {});
  EXPECT_TRUE(read_all(dir_ / "empty.pc").empty());
  write_bytes(dir_ / "header_only.pc", std::vector<char>(bytes.begin(), bytes.begin() + 15));
  EXPECT_TRUE(read_all(dir_ / "header_only.pc").empty());
}

TEST_F(PlanarCode, TruncatedAndCorruptFilesNameGraphAndByte) {
  const std::vector<char> bytes = read_bytes(buckygen_file("c40.pc"));
  // Each C40 dual takes 1 + 22 + 120 = 143 bytes; graph 2 starts at byte 15 + 286 = 301.
  const fs::path cut = dir_ / "cut.pc";
  write_bytes(cut, std::vector<char>(bytes.begin(), bytes.begin() + 301 + 50));
  const std::string p = cut.string();
  const std::string e = reading_error(cut);
  EXPECT_EQ(e.rfind(p + ": truncated: graph 2 (from byte 301) ends at byte 351, where a neighbour (1..22) or the 0 "
                        "that ends the list of vertex ",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find(" was expected"), std::string::npos) << e;

  std::vector<char> bad = bytes;
  bad[301 + 3] = 23;
  write_bytes(dir_ / "bad.pc", bad);
  EXPECT_EQ(reading_error(dir_ / "bad.pc"),
            (dir_ / "bad.pc").string() +
                ": graph 2 at byte 304: expected a neighbour (1..22) or the 0 that ends the list of vertex 0, "
                "found 23");

  write_bytes(dir_ / "zero.pc", {'\0', '\0', '\0'});
  EXPECT_EQ(reading_error(dir_ / "zero.pc"),
            (dir_ / "zero.pc").string() + ": graph 0 at byte 0: expected a vertex count of at least 1, found 0");
  write_bytes(dir_ / "half.pc", {'\0', '\7'});
  EXPECT_EQ(reading_error(dir_ / "half.pc"),
            (dir_ / "half.pc").string() +
                ": truncated: graph 0 (from byte 0) ends at byte 2, where the 2-byte vertex count that follows a 0 "
                "byte was expected");

  const std::string g6 = ">>graph6<<Bw\n";
  write_bytes(dir_ / "g6.pc", std::vector<char>(g6.begin(), g6.end()));
  EXPECT_EQ(reading_error(dir_ / "g6.pc"),
            (dir_ / "g6.pc").string() + ": not planar_code: the file starts with the header '>>graph6<<'");
  const std::string odd = ">>planar_code xx<<";
  write_bytes(dir_ / "odd.pc", std::vector<char>(odd.begin(), odd.end()));
  EXPECT_EQ(reading_error(dir_ / "odd.pc"),
            (dir_ / "odd.pc").string() +
                ": at byte 0: expected the header >>planar_code<<, >>planar_code le<< or >>planar_code be<<");
  EXPECT_THROW(PlanarCodeReader(dir_ / "missing.pc"), Error);
}

TEST_F(PlanarCode, WrongKindOfGraphNamesFileAndGraph) {
  const auto triangulations = read_all(buckygen_file("c40.pc"));
  const std::string where = buckygen_file("c40.pc").string() + ": graph 7: ";
  try {
    (void)to_cubic(triangulations[7]);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, buckygen_file("c40.pc").string());
    EXPECT_EQ(std::string(e.what()).rfind(where + "vertex 0 has degree ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("; a fullerene is cubic (degree 3)"), std::string::npos) << e.what();
  }
  // Degrees right, rotation wrong: validate's message, located.
  PlanarGraph g = triangulations[7];
  std::swap(g.neighbours[0], g.neighbours[1]);
  try {
    (void)to_triangulation(g);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(where + "not a fullerene dual (triangulation): inconsistent rotation", 0),
              0u)
        << e.what();
  }
  const auto cubic = read_all(buckygen_file("c40_dual.pc"));
  EXPECT_THROW((void)to_triangulation(cubic[0]), Error);
}

TEST_F(PlanarCode, WriterPublishesTheFileOnlyAtClose) {
  const fs::path out = dir_ / "out.pc";
  const Triangulation t = triangulation_from_spiral(20, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  {
    PlanarCodeWriter writer(out);
    writer.write(t);
    EXPECT_FALSE(fs::exists(out));
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(dir_));
  PlanarCodeWriter writer(out);
  writer.write(t);
  writer.close();
  ASSERT_TRUE(fs::exists(out));
  EXPECT_EQ(fs::file_size(out), 15u + 1 + 12 * 6);
  EXPECT_THROW(writer.write(t), Error);
  PlanarCodeReader reader(out);
  EXPECT_EQ(to_triangulation(*reader.next()), t);
  EXPECT_EQ(reader.next(), std::nullopt);
}

TEST_F(PlanarCode, WriterRefusesGraphsItCannotEncode) {
  PlanarCodeWriter writer(dir_ / "out.pc");
  EXPECT_THROW(writer.write(PlanarGraph{}), Error);
  PlanarGraph g;
  g.add_vertex(std::vector<int>{1});
  g.add_vertex(std::vector<int>{-1});
  try {
    writer.write(g);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write to '" + (dir_ / "out.pc").string() + "': graph 0 has a neighbour -1 outside 0..1");
  }
  g.neighbours[1] = 0;
  writer.write(g);
  writer.close();
  PlanarCodeReader reader(dir_ / "out.pc");
  EXPECT_EQ(reader.next(), g);
  EXPECT_EQ(reader.next(), std::nullopt);
}
