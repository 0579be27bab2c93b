// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

// A small plot writer for analysis results (`molstep analyze --plot`). It has no dependencies
// on purpose: the PNG is encoded here with stored (uncompressed) deflate blocks, and text uses
// a built-in bitmap font, so plots work on any cluster node without image libraries.

namespace molstep::core {

/// One curve (or one histogram when PlotSpec::bars is set). Points whose x or y is NaN or
/// infinite are skipped; in line plots they break the line.
struct PlotSeries {
  std::string label;  ///< legend text; series with an empty label are left out of the legend
  std::vector<double> x, y;
};

struct PlotSpec {
  std::string title, xlabel, ylabel;  ///< printable ASCII; other characters are drawn as '?'
  std::vector<PlotSeries> series;
  /// Draws each series as a histogram: x are bin centres, bins meet halfway between them,
  /// bars start at y = 0 and are filled translucently so that overlapping series stay visible.
  bool bars = false;
  int width = 800, height = 500;
};

/// Renders `spec` and writes it as an 8-bit RGB PNG. The file appears only when complete.
/// Throws molstep::Error when there are no series, a series is empty or has x and y of
/// different lengths, no point at all is finite, or the size is outside 160x120 .. 8192x8192.
void write_plot_png(const std::filesystem::path& path, const PlotSpec& spec);

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

/// The colour of series `index` (a palette of 8 distinct colours, reused cyclically).
Rgb plot_series_colour(std::size_t index);

/// Axis ticks at multiples of a "nice" step (1, 2 or 5 times a power of ten).
struct AxisTicks {
  double lo = 0.0, hi = 1.0;  ///< the axis range: the first and the last tick
  double step = 1.0;
  std::vector<double> values;
};

/// Ticks covering [lo, hi] (given in either order) with at most `max_intervals` steps
/// (clamped to at least 1). A range that is empty, or too narrow to label at double precision,
/// is widened around its value. Throws molstep::Error for non-finite limits.
AxisTicks nice_ticks(double lo, double hi, int max_intervals);

/// Labels for `ticks.values`, all with the same number of decimals; scientific notation
/// (e.g. "2.5e-6") for very large values or very small steps.
std::vector<std::string> tick_labels(const AxisTicks& ticks);

/// A complete PNG file (8-bit RGB, no interlacing) for `rgb`, which holds width * height
/// pixels row by row from the top, 3 bytes each. Throws molstep::Error on a size mismatch.
std::vector<std::uint8_t> encode_png_rgb(int width, int height, std::span<const std::uint8_t> rgb);

/// CRC-32 (ISO-HDLC, as in PNG and zlib). Pass an earlier result as `crc` to continue it.
std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0);
/// Adler-32 (zlib). Pass an earlier result as `adler` to continue it.
std::uint32_t adler32(std::span<const std::uint8_t> bytes, std::uint32_t adler = 1);

}  // namespace molstep::core
