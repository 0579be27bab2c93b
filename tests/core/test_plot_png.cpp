// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "molstep/core/error.hpp"
#include "molstep/core/plot_png.hpp"
#include "support/paths.hpp"

using molstep::core::adler32;
using molstep::core::crc32;
using molstep::core::encode_png_rgb;
using molstep::core::nice_ticks;
using molstep::core::plot_series_colour;
using molstep::core::PlotSeries;
using molstep::core::PlotSpec;
using molstep::core::Rgb;
using molstep::core::tick_labels;
using molstep::core::write_plot_png;

namespace {

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  if (at + 4 > b.size()) throw std::runtime_error("truncated at byte " + std::to_string(at));
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

struct DecodedPng {
  int width = 0, height = 0;
  std::vector<std::string> chunks;  // chunk types in file order
  int stored_blocks = 0;
  std::vector<std::uint8_t> rgb;

  [[nodiscard]] Rgb at(int x, int y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

// An independent reader for exactly what the writer promises (8-bit RGB, stored deflate
// blocks, filter type 0): any deviation from the PNG and zlib formats throws.
DecodedPng decode_png(const std::vector<std::uint8_t>& file) {
  const std::vector<std::uint8_t> signature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (file.size() < 8 || !std::equal(signature.begin(), signature.end(), file.begin()))
    throw std::runtime_error("bad signature");
  DecodedPng png;
  std::vector<std::uint8_t> zdata;
  std::size_t at = 8;
  while (at < file.size()) {
    const std::uint32_t len = be32(file, at);
    if (at + 12 + len > file.size()) throw std::runtime_error("chunk runs past the end of the file");
    const std::string type(file.begin() + static_cast<std::ptrdiff_t>(at + 4), file.begin() + static_cast<std::ptrdiff_t>(at + 8));
    const auto body = std::span<const std::uint8_t>(file).subspan(at + 4, 4 + len);
    if (crc32(body) != be32(file, at + 8 + len)) throw std::runtime_error("bad CRC in chunk " + type);
    const auto data = body.subspan(4);
    if (png.chunks.empty() && type != "IHDR") throw std::runtime_error("first chunk is " + type);
    if (!png.chunks.empty() && png.chunks.back() == "IEND") throw std::runtime_error("data after IEND");
    if (type == "IHDR") {
      if (len != 13) throw std::runtime_error("IHDR length");
      const std::vector<std::uint8_t> h(data.begin(), data.end());
      png.width = static_cast<int>(be32(h, 0));
      png.height = static_cast<int>(be32(h, 4));
      if (h[8] != 8 || h[9] != 2 || h[10] != 0 || h[11] != 0 || h[12] != 0) throw std::runtime_error("not 8-bit RGB");
    } else if (type == "IDAT") {
      if (png.chunks.back() != "IDAT" && png.chunks.back() != "IHDR") throw std::runtime_error("IDAT not consecutive");
      zdata.insert(zdata.end(), data.begin(), data.end());
    } else if (type == "IEND") {
      if (len != 0) throw std::runtime_error("IEND with data");
    }
    png.chunks.push_back(type);
    at += 12 + len;
  }
  if (png.chunks.empty() || png.chunks.back() != "IEND") throw std::runtime_error("no IEND");

  // zlib: CMF/FLG, stored deflate blocks, Adler-32 of the inflated data.
  if (zdata.size() < 6) throw std::runtime_error("zlib stream too short");
  if ((zdata[0] & 0x0F) != 8 || (zdata[0] * 256 + zdata[1]) % 31 != 0 || (zdata[1] & 0x20) != 0)
    throw std::runtime_error("bad zlib header");
  std::vector<std::uint8_t> raw;
  std::size_t pos = 2;
  for (bool last = false; !last;) {
    if (pos + 5 > zdata.size()) throw std::runtime_error("truncated deflate block");
    last = (zdata[pos] & 1) != 0;
    if (((zdata[pos] >> 1) & 3) != 0) throw std::runtime_error("not a stored block");
    const unsigned len = zdata[pos + 1] | unsigned{zdata[pos + 2]} << 8;
    const unsigned nlen = zdata[pos + 3] | unsigned{zdata[pos + 4]} << 8;
    if ((len ^ 0xFFFFu) != nlen) throw std::runtime_error("LEN/NLEN mismatch");
    pos += 5;
    if (pos + len > zdata.size()) throw std::runtime_error("stored block past the end");
    raw.insert(raw.end(), zdata.begin() + static_cast<std::ptrdiff_t>(pos), zdata.begin() + static_cast<std::ptrdiff_t>(pos + len));
    pos += len;
    ++png.stored_blocks;
  }
  if (pos + 4 != zdata.size()) throw std::runtime_error("zlib stream length");
  if (be32(zdata, pos) != adler32(raw)) throw std::runtime_error("bad Adler-32");

  const std::size_t row = static_cast<std::size_t>(png.width) * 3;
  if (raw.size() != (row + 1) * static_cast<std::size_t>(png.height)) throw std::runtime_error("image data size");
  for (std::size_t y = 0; y < static_cast<std::size_t>(png.height); ++y) {
    if (raw[y * (row + 1)] != 0) throw std::runtime_error("filter byte of row " + std::to_string(y));
    const auto begin = raw.begin() + static_cast<std::ptrdiff_t>(y * (row + 1) + 1);
    png.rgb.insert(png.rgb.end(), begin, begin + static_cast<std::ptrdiff_t>(row));
  }
  return png;
}

bool column_has(const DecodedPng& png, int x, Rgb colour) {
  for (int y = 0; y < png.height; ++y)
    if (png.at(x, y) == colour) return true;
  return false;
}

constexpr Rgb white{255, 255, 255};

}  // namespace

TEST(PlotPng, Crc32KnownValues) {
  EXPECT_EQ(crc32(bytes_of("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32(bytes_of("The quick brown fox jumps over the lazy dog")), 0x414FA339u);
  EXPECT_EQ(crc32(bytes_of("")), 0u);
  EXPECT_EQ(crc32(bytes_of("IEND")), 0xAE426082u);  // the fixed trailer of every PNG
  EXPECT_EQ(crc32(bytes_of("6789"), crc32(bytes_of("12345"))), 0xCBF43926u);
}

TEST(PlotPng, Adler32KnownValues) {
  EXPECT_EQ(adler32(bytes_of("Wikipedia")), 0x11E60398u);
  EXPECT_EQ(adler32(bytes_of("")), 1u);
  EXPECT_EQ(adler32(bytes_of("pedia"), adler32(bytes_of("Wiki"))), 0x11E60398u);
  // Long runs of 0xFF exercise the deferred modulo; compare with the per-byte definition.
  const std::vector<std::uint8_t> ones(100000, 0xFF);
  std::uint32_t a = 1, b = 0;
  for (const std::uint8_t v : ones) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  EXPECT_EQ(adler32(ones), b << 16 | a);
}

TEST(PlotPng, EncodeSmallImageRoundTrips) {
  const std::vector<std::uint8_t> rgb{255, 0, 0, 0, 255, 0, 0, 0, 255, 1, 2, 3, 250, 251, 252, 0, 0, 0};
  const std::vector<std::uint8_t> file = encode_png_rgb(3, 2, rgb);
  DecodedPng png;
  ASSERT_NO_THROW(png = decode_png(file));
  EXPECT_EQ(png.width, 3);
  EXPECT_EQ(png.height, 2);
  EXPECT_EQ(png.chunks, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
  EXPECT_EQ(png.stored_blocks, 1);
  EXPECT_EQ(png.rgb, rgb);
  EXPECT_THROW(encode_png_rgb(3, 3, rgb), molstep::Error);
  EXPECT_THROW(encode_png_rgb(0, 2, {}), molstep::Error);
}

TEST(PlotPng, EncodeLargeImageSplitsBlocksAndChunks) {
  // 700 x 600 RGB is 1,260,600 bytes of scanlines: 20 stored blocks and two IDAT chunks.
  const int w = 700, h = 600;
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(w) * h * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i * 7 + i / 3);
  DecodedPng png;
  ASSERT_NO_THROW(png = decode_png(encode_png_rgb(w, h, rgb)));
  EXPECT_EQ(png.stored_blocks, 20);
  EXPECT_EQ(png.chunks, (std::vector<std::string>{"IHDR", "IDAT", "IDAT", "IEND"}));
  EXPECT_EQ(png.rgb, rgb);
}

TEST(PlotPng, NiceTicks) {
  auto t = nice_ticks(0.0, 1.0, 5);
  EXPECT_DOUBLE_EQ(t.step, 0.2);
  EXPECT_DOUBLE_EQ(t.lo, 0.0);
  EXPECT_DOUBLE_EQ(t.hi, 1.0);
  ASSERT_EQ(t.values.size(), 6u);
  EXPECT_DOUBLE_EQ(t.values[3], 0.6);

  t = nice_ticks(0.13, 9.7, 5);
  EXPECT_DOUBLE_EQ(t.step, 2.0);
  EXPECT_DOUBLE_EQ(t.lo, 0.0);
  EXPECT_DOUBLE_EQ(t.hi, 10.0);

  t = nice_ticks(9.7, 0.13, 5);  // limits in either order
  EXPECT_DOUBLE_EQ(t.lo, 0.0);
  EXPECT_DOUBLE_EQ(t.hi, 10.0);

  t = nice_ticks(-3.2, 4.9, 8);
  EXPECT_DOUBLE_EQ(t.step, 2.0);
  EXPECT_DOUBLE_EQ(t.lo, -4.0);
  EXPECT_DOUBLE_EQ(t.hi, 6.0);

  t = nice_ticks(1e-7, 3e-7, 4);
  EXPECT_DOUBLE_EQ(t.step, 5e-8);
  EXPECT_DOUBLE_EQ(t.lo, 1e-7);
  EXPECT_DOUBLE_EQ(t.hi, 3e-7);

  t = nice_ticks(0.0, 1e6, 5);
  EXPECT_DOUBLE_EQ(t.step, 2e5);

  // Constant data still gets an axis around the value.
  for (const double v : {0.0, 1000.0, -2.5, 1e-12, 7.0 + 1e-15}) {
    t = nice_ticks(v, v, 5);
    EXPECT_LT(t.lo, v);
    EXPECT_GT(t.hi, v);
    EXPECT_GE(t.values.size(), 2u);
  }

  // Over many ranges: steps are 1, 2 or 5 times a power of ten, the range is covered, and the
  // interval count respects the limit.
  for (int i = 0; i < 500; ++i) {
    const double lo = std::sin(i * 1.3) * std::pow(10.0, i % 9 - 4);
    const double hi = lo + std::pow(10.0, (i * 7) % 11 - 5) * (1.0 + (i % 13));
    const int max_intervals = 1 + i % 10;
    t = nice_ticks(lo, hi, max_intervals);
    const double mantissa = t.step / std::pow(10.0, std::floor(std::log10(t.step) + 1e-9));
    EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9)
        << "step " << t.step << " for [" << lo << ", " << hi << "]";
    EXPECT_LE(t.lo, lo + 1e-9 * t.step);
    EXPECT_GE(t.hi, hi - 1e-9 * t.step);
    EXPECT_LE(static_cast<int>(t.values.size()) - 1, max_intervals);
  }

  EXPECT_THROW(nice_ticks(0.0, std::numeric_limits<double>::quiet_NaN(), 5), molstep::Error);
  EXPECT_THROW(nice_ticks(0.0, std::numeric_limits<double>::infinity(), 5), molstep::Error);
  EXPECT_THROW(nice_ticks(-1e308, 1e308, 5), molstep::Error);
}

TEST(PlotPng, TickLabels) {
  EXPECT_EQ(tick_labels(nice_ticks(0.0, 1.0, 5)), (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  EXPECT_EQ(tick_labels(nice_ticks(0.0, 1000.0, 5)), (std::vector<std::string>{"0", "200", "400", "600", "800", "1000"}));
  EXPECT_EQ(tick_labels(nice_ticks(-1.0, 1.0, 4)), (std::vector<std::string>{"-1.0", "-0.5", "0.0", "0.5", "1.0"}));
  EXPECT_EQ(tick_labels(nice_ticks(0.0, 3e-6, 3)), (std::vector<std::string>{"0", "1e-6", "2e-6", "3e-6"}));
  EXPECT_EQ(tick_labels(nice_ticks(1e6, 2e6, 2)), (std::vector<std::string>{"1.0e6", "1.5e6", "2.0e6"}));
}

TEST(PlotPng, WritesDecodableLinePlot) {
  const auto dir = molstep::test::scratch_dir("plot_png_lines");
  PlotSpec spec;
  spec.title = "Mean squared displacement";
  spec.xlabel = "time (ps)";
  spec.ylabel = "MSD (A^2)";
  PlotSeries flat{"flat", {}, {}}, parabola{"parabola", {}, {}};
  for (int i = 0; i <= 100; ++i) {
    const double x = 0.1 * i;
    flat.x.push_back(x);
    flat.y.push_back(0.5);
    parabola.x.push_back(x);
    parabola.y.push_back(x * x / 100.0);
  }
  // Non-finite points are skipped (and break the line) rather than spoiling the axis range.
  parabola.y[20] = std::numeric_limits<double>::quiet_NaN();
  parabola.y[30] = std::numeric_limits<double>::infinity();
  flat.x[10] = -std::numeric_limits<double>::infinity();
  spec.series = {flat, parabola};

  const auto path = dir / "msd.png";
  ASSERT_NO_THROW(write_plot_png(path, spec));
  DecodedPng png;
  ASSERT_NO_THROW(png = decode_png(read_bytes(path)));
  EXPECT_EQ(png.width, 800);
  EXPECT_EQ(png.height, 500);
  EXPECT_GT(png.stored_blocks, 1);
  EXPECT_EQ(png.at(0, 0), white);
  EXPECT_EQ(png.at(png.width - 1, png.height - 1), white);
  EXPECT_EQ(png.at(png.width / 2, 1), white);
  // Both curves cross the middle column of the plot.
  EXPECT_TRUE(column_has(png, png.width / 2, plot_series_colour(0)));
  EXPECT_TRUE(column_has(png, png.width / 2, plot_series_colour(1)));
  EXPECT_NE(plot_series_colour(0), plot_series_colour(1));
  // Only the finished file is left: no temporary sibling.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(dir);
}

TEST(PlotPng, WritesHistogramsAndConstantData) {
  const auto dir = molstep::test::scratch_dir("plot_png_bars");
  PlotSpec bars;
  bars.bars = true;
  bars.title = "Speed distribution";
  bars.series = {{"all equal", {0.5, 1.5, 2.5, 3.5}, {3, 3, 3, 3}}, {"ramp", {0.5, 1.5, 2.5, 3.5}, {1, 2, 3, 4}}};
  ASSERT_NO_THROW(write_plot_png(dir / "bars.png", bars));
  DecodedPng png;
  ASSERT_NO_THROW(png = decode_png(read_bytes(dir / "bars.png")));
  EXPECT_EQ(png.at(2, 2), white);
  EXPECT_TRUE(column_has(png, png.width / 2, plot_series_colour(0)));

  PlotSpec constant;
  constant.width = 200;
  constant.height = 150;
  constant.series = {{"", {1, 2, 3}, {2, 2, 2}}};
  ASSERT_NO_THROW(write_plot_png(dir / "constant.png", constant));
  ASSERT_NO_THROW(png = decode_png(read_bytes(dir / "constant.png")));
  EXPECT_EQ(png.width, 200);
  EXPECT_EQ(png.height, 150);
  EXPECT_TRUE(column_has(png, png.width / 2, plot_series_colour(0)));

  // A single point, many series, labels beyond ASCII.
  PlotSpec many;
  many.title = "\xC3\x85ngstr\xC3\xB6m";
  for (int i = 0; i < 8; ++i)
    many.series.push_back({"s" + std::to_string(i), {0.0, 1.0}, {static_cast<double>(i), i + 1.0}});
  many.series.push_back({"one point", {0.5}, {3.0}});
  ASSERT_NO_THROW(write_plot_png(dir / "many.png", many));
  ASSERT_NO_THROW(png = decode_png(read_bytes(dir / "many.png")));
  std::filesystem::remove_all(dir);
}

TEST(PlotPng, DenseSeries) {
  // Far more points than pixel columns: drawn through a per-column envelope.
  const auto dir = molstep::test::scratch_dir("plot_png_dense");
  PlotSpec spec;
  spec.series.push_back({"sin", {}, {}});
  for (int i = 0; i < 200000; ++i) {
    spec.series[0].x.push_back(i * 1e-3);
    spec.series[0].y.push_back(std::sin(i * 1e-3));
  }
  ASSERT_NO_THROW(write_plot_png(dir / "dense.png", spec));
  DecodedPng png;
  ASSERT_NO_THROW(png = decode_png(read_bytes(dir / "dense.png")));
  EXPECT_TRUE(column_has(png, png.width / 2, plot_series_colour(0)));
  EXPECT_TRUE(column_has(png, png.width / 4, plot_series_colour(0)));
  std::filesystem::remove_all(dir);
}

TEST(PlotPng, BadInputThrowsAndLeavesNothing) {
  const auto dir = molstep::test::scratch_dir("plot_png_bad");
  const auto path = dir / "bad.png";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();

  PlotSpec no_series;
  EXPECT_THROW(write_plot_png(path, no_series), molstep::Error);

  PlotSpec mismatch;
  mismatch.series = {{"a", {1, 2, 3}, {1, 2}}};
  EXPECT_THROW(write_plot_png(path, mismatch), molstep::Error);

  PlotSpec empty;
  empty.series = {{"a", {1, 2}, {1, 2}}, {"b", {}, {}}};
  EXPECT_THROW(write_plot_png(path, empty), molstep::Error);

  PlotSpec not_finite;
  not_finite.series = {{"a", {1, nan, 3}, {nan, 2, inf}}};
  EXPECT_THROW(write_plot_png(path, not_finite), molstep::Error);
  not_finite.bars = true;
  EXPECT_THROW(write_plot_png(path, not_finite), molstep::Error);

  PlotSpec tiny;
  tiny.width = 10;
  tiny.series = {{"a", {1, 2}, {1, 2}}};
  EXPECT_THROW(write_plot_png(path, tiny), molstep::Error);

  PlotSpec huge_range;
  huge_range.series = {{"a", {-1e308, 1e308}, {1, 2}}};
  EXPECT_THROW(write_plot_png(path, huge_range), molstep::Error);

  PlotSpec good;
  good.series = {{"a", {1, 2}, {1, 2}}};
  EXPECT_THROW(write_plot_png(dir / "missing" / "x.png", good), molstep::Error);

  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}
