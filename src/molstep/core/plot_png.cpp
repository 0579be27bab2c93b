// SPDX-License-Identifier: MIT
#include "molstep/core/plot_png.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"

namespace molstep::core {
namespace {

// ---------------------------------------------------------------------------------------------
// Checksums

constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}
constexpr auto crc_table = make_crc_table();

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 24));
  out.push_back(static_cast<std::uint8_t>(v >> 16));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

void put_chunk(std::vector<std::uint8_t>& out, std::string_view type, std::span<const std::uint8_t> data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out.insert(out.end(), type.begin(), type.end());
  out.insert(out.end(), data.begin(), data.end());
  // The chunk CRC covers the type and the data but not the length.
  put_u32(out, crc32(std::span<const std::uint8_t>(out).subspan(start)));
}

// ---------------------------------------------------------------------------------------------
// Font: 5 columns x 9 rows per glyph for ASCII 32..126, drawn for this file. Rows 0-6 hold
// capitals and digits, rows 7-8 descenders; bit 4 is the leftmost column. Characters advance
// by 6 columns so that one blank column separates them.

constexpr int glyph_rows = 9;
constexpr int cap_rows = 7;
constexpr int glyph_advance = 6;

// clang-format off
constexpr std::array<std::array<std::uint8_t, glyph_rows>, 95> font = {{
    {{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},  // space
    {{0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04, 0x00, 0x00}},  // !
    {{0x0A, 0x0A, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},  // "
    {{0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A, 0x00, 0x00}},  // #
    {{0x04, 0x0F, 0x14, 0x0E, 0x05, 0x1E, 0x04, 0x00, 0x00}},  // $
    {{0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03, 0x00, 0x00}},  // %
    {{0x0C, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0D, 0x00, 0x00}},  // &
    {{0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},  // '
    {{0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02, 0x00, 0x00}},  // (
    {{0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08, 0x00, 0x00}},  // )
    {{0x00, 0x04, 0x15, 0x0E, 0x15, 0x04, 0x00, 0x00, 0x00}},  // *
    {{0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00, 0x00, 0x00}},  // +
    {{0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C, 0x04, 0x08}},  // ,
    {{0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00}},  // -
    {{0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C, 0x00, 0x00}},  // .
    {{0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00, 0x00, 0x00}},  // /
    {{0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E, 0x00, 0x00}},  // 0
    {{0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E, 0x00, 0x00}},  // 1
    {{0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F, 0x00, 0x00}},  // 2
    {{0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E, 0x00, 0x00}},  // 3
    {{0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02, 0x00, 0x00}},  // 4
    {{0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E, 0x00, 0x00}},  // 5
    {{0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E, 0x00, 0x00}},  // 6
    {{0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08, 0x00, 0x00}},  // 7
    {{0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E, 0x00, 0x00}},  // 8
    {{0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C, 0x00, 0x00}},  // 9
    {{0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00, 0x00, 0x00}},  // :
    {{0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x04, 0x08, 0x00}},  // ;
    {{0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02, 0x00, 0x00}},  // <
    {{0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00, 0x00, 0x00}},  // =
    {{0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08, 0x00, 0x00}},  // >
    {{0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04, 0x00, 0x00}},  // ?
    {{0x0E, 0x11, 0x01, 0x0D, 0x15, 0x15, 0x0E, 0x00, 0x00}},  // @
    {{0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x00, 0x00}},  // A
    {{0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E, 0x00, 0x00}},  // B
    {{0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E, 0x00, 0x00}},  // C
    {{0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C, 0x00, 0x00}},  // D
    {{0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F, 0x00, 0x00}},  // E
    {{0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10, 0x00, 0x00}},  // F
    {{0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F, 0x00, 0x00}},  // G
    {{0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11, 0x00, 0x00}},  // H
    {{0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E, 0x00, 0x00}},  // I
    {{0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C, 0x00, 0x00}},  // J
    {{0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11, 0x00, 0x00}},  // K
    {{0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F, 0x00, 0x00}},  // L
    {{0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11, 0x00, 0x00}},  // M
    {{0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x00, 0x00}},  // N
    {{0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E, 0x00, 0x00}},  // O
    {{0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10, 0x00, 0x00}},  // P
    {{0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D, 0x00, 0x00}},  // Q
    {{0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11, 0x00, 0x00}},  // R
    {{0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E, 0x00, 0x00}},  // S
    {{0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x00}},  // T
    {{0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E, 0x00, 0x00}},  // U
    {{0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04, 0x00, 0x00}},  // V
    {{0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A, 0x00, 0x00}},  // W
    {{0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11, 0x00, 0x00}},  // X
    {{0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04, 0x00, 0x00}},  // Y
    {{0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F, 0x00, 0x00}},  // Z
    {{0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E, 0x00, 0x00}},  // [
    {{0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00, 0x00, 0x00}},  // backslash
    {{0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E, 0x00, 0x00}},  // ]
    {{0x04, 0x0A, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},  // ^
    {{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F, 0x00}},  // _
    {{0x08, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},  // `
    {{0x00, 0x00, 0x0E, 0x01, 0x0F, 0x11, 0x0F, 0x00, 0x00}},  // a
    {{0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1E, 0x00, 0x00}},  // b
    {{0x00, 0x00, 0x0E, 0x10, 0x10, 0x11, 0x0E, 0x00, 0x00}},  // c
    {{0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F, 0x00, 0x00}},  // d
    {{0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E, 0x00, 0x00}},  // e
    {{0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08, 0x00, 0x00}},  // f
    {{0x00, 0x00, 0x0F, 0x11, 0x11, 0x11, 0x0F, 0x01, 0x0E}},  // g
    {{0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11, 0x00, 0x00}},  // h
    {{0x04, 0x00, 0x0C, 0x04, 0x04, 0x04, 0x0E, 0x00, 0x00}},  // i
    {{0x02, 0x00, 0x06, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}},  // j
    {{0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12, 0x00, 0x00}},  // k
    {{0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E, 0x00, 0x00}},  // l
    {{0x00, 0x00, 0x1A, 0x15, 0x15, 0x15, 0x15, 0x00, 0x00}},  // m
    {{0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11, 0x00, 0x00}},  // n
    {{0x00, 0x00, 0x0E, 0x11, 0x11, 0x11, 0x0E, 0x00, 0x00}},  // o
    {{0x00, 0x00, 0x1E, 0x11, 0x11, 0x11, 0x1E, 0x10, 0x10}},  // p
    {{0x00, 0x00, 0x0F, 0x11, 0x11, 0x11, 0x0F, 0x01, 0x01}},  // q
    {{0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10, 0x00, 0x00}},  // r
    {{0x00, 0x00, 0x0F, 0x10, 0x0E, 0x01, 0x1E, 0x00, 0x00}},  // s
    {{0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06, 0x00, 0x00}},  // t
    {{0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0D, 0x00, 0x00}},  // u
    {{0x00, 0x00, 0x11, 0x11, 0x11, 0x0A, 0x04, 0x00, 0x00}},  // v
    {{0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0A, 0x00, 0x00}},  // w
    {{0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x00, 0x00}},  // x
    {{0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x0F, 0x01, 0x0E}},  // y
    {{0x00, 0x00, 0x1F, 0x02, 0x04, 0x08, 0x1F, 0x00, 0x00}},  // z
    {{0x03, 0x04, 0x04, 0x08, 0x04, 0x04, 0x03, 0x00, 0x00}},  // {
    {{0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x00}},  // |
    {{0x18, 0x04, 0x04, 0x02, 0x04, 0x04, 0x18, 0x00, 0x00}},  // }
    {{0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00, 0x00, 0x00}},  // ~
}};
// clang-format on

/// For error messages: std::to_string would print 1e300 with 300 digits.
std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// Text as the font can draw it: printable ASCII stays, a UTF-8 sequence becomes one '?'.
std::string drawable(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 32 && c <= 126) {
      out += ch;
    } else if (c >= 0x80 && c < 0xC0) {
      continue;  // UTF-8 continuation byte: its lead byte has already produced the '?'
    } else {
      out += c == '\t' ? ' ' : '?';
    }
  }
  return out;
}

int text_width(std::string_view text, int scale) {
  return text.empty() ? 0 : (static_cast<int>(text.size()) * glyph_advance - 1) * scale;
}

// ---------------------------------------------------------------------------------------------
// Raster

struct Rect {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // inclusive
};

constexpr Rgb white{255, 255, 255};
constexpr Rgb ink{30, 30, 30};
constexpr Rgb frame_colour{60, 60, 60};
constexpr Rgb grid_colour{228, 228, 228};
constexpr Rgb legend_border{170, 170, 170};

class Canvas {
 public:
  Canvas(int width, int height)
      : width_(width), height_(height), rgb_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3, 255) {}

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] const std::vector<std::uint8_t>& rgb() const { return rgb_; }

  /// Paints `colour` over pixel (x, y) with opacity `alpha`; pixels off the canvas are ignored.
  void blend(int x, int y, Rgb colour, double alpha = 1.0) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_ || alpha <= 0.0) return;
    std::uint8_t* p = &rgb_[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)) * 3];
    if (alpha >= 1.0) {
      p[0] = colour.r;
      p[1] = colour.g;
      p[2] = colour.b;
      return;
    }
    const auto mix = [alpha](std::uint8_t under, std::uint8_t over) {
      return static_cast<std::uint8_t>(std::lround(under + alpha * (over - under)));
    };
    p[0] = mix(p[0], colour.r);
    p[1] = mix(p[1], colour.g);
    p[2] = mix(p[2], colour.b);
  }

  void fill(Rect r, Rgb colour, double alpha = 1.0) {
    for (int y = r.y0; y <= r.y1; ++y)
      for (int x = r.x0; x <= r.x1; ++x) blend(x, y, colour, alpha);
  }

  void outline(Rect r, Rgb colour) {
    fill({r.x0, r.y0, r.x1, r.y0}, colour);
    fill({r.x0, r.y1, r.x1, r.y1}, colour);
    fill({r.x0, r.y0, r.x0, r.y1}, colour);
    fill({r.x1, r.y0, r.x1, r.y1}, colour);
  }

  /// Left-to-right text whose top-left corner (top of the capitals) is at (x, y).
  void text(int x, int y, std::string_view s, int scale, Rgb colour) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto& glyph = font[static_cast<std::size_t>(s[i] - 32)];
      const int gx = x + static_cast<int>(i) * glyph_advance * scale;
      for (int row = 0; row < glyph_rows; ++row)
        for (int col = 0; col < 5; ++col)
          if (((glyph[static_cast<std::size_t>(row)] >> (4 - col)) & 1u) != 0)
            fill({gx + col * scale, y + row * scale, gx + (col + 1) * scale - 1, y + (row + 1) * scale - 1}, colour);
    }
  }

  /// Text turned a quarter turn anticlockwise (reading upwards), for the y-axis label: the top
  /// of the glyphs faces left, x is the leftmost column and y the row below the first character.
  void text_up(int x, int y, std::string_view s, int scale, Rgb colour) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto& glyph = font[static_cast<std::size_t>(s[i] - 32)];
      const int along = static_cast<int>(i) * glyph_advance;
      for (int row = 0; row < glyph_rows; ++row)
        for (int col = 0; col < 5; ++col)
          if (((glyph[static_cast<std::size_t>(row)] >> (4 - col)) & 1u) != 0) {
            const int px = x + row * scale;
            const int py = y - (along + col + 1) * scale;
            fill({px, py, px + scale - 1, py + scale - 1}, colour);
          }
    }
  }

 private:
  int width_, height_;
  std::vector<std::uint8_t> rgb_;
};

/// Anti-aliased strokes of one series: coverage is accumulated as a maximum and painted once,
/// so that segment joins and overlapping segments do not darken the line's edges.
class Stroke {
 public:
  Stroke(int width, int height, Rect clip)
      : width_(width), clip_(clip), cover_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 0.0f) {}

  /// A segment of width 2 * half_width between pixel-space points (pixel centres at +0.5).
  void segment(double ax, double ay, double bx, double by, double half_width) {
    const double reach = half_width + 0.5;
    const int x0 = std::max(clip_.x0, static_cast<int>(std::floor(std::min(ax, bx) - reach)));
    const int x1 = std::min(clip_.x1, static_cast<int>(std::ceil(std::max(ax, bx) + reach)));
    const int y0 = std::max(clip_.y0, static_cast<int>(std::floor(std::min(ay, by) - reach)));
    const int y1 = std::min(clip_.y1, static_cast<int>(std::ceil(std::max(ay, by) + reach)));
    const double dx = bx - ax, dy = by - ay;
    const double len2 = dx * dx + dy * dy;
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const double px = x + 0.5 - ax, py = y + 0.5 - ay;
        const double t = len2 > 0.0 ? std::clamp((px * dx + py * dy) / len2, 0.0, 1.0) : 0.0;
        const double ex = px - t * dx, ey = py - t * dy;
        mark(x, y, reach - std::sqrt(ex * ex + ey * ey));
      }
    }
  }

  void dot(double cx, double cy, double radius) { segment(cx, cy, cx, cy, radius); }

  /// Paints the accumulated coverage and records it in `ink_mask` (pixels a legend should avoid).
  void paint(Canvas& canvas, Rgb colour, std::vector<std::uint8_t>& ink_mask) {
    if (dirty_.x1 < dirty_.x0) return;
    for (int y = dirty_.y0; y <= dirty_.y1; ++y) {
      for (int x = dirty_.x0; x <= dirty_.x1; ++x) {
        float& c = cover_[index(x, y)];
        if (c <= 0.0f) continue;
        canvas.blend(x, y, colour, c);
        if (c > 0.25f) ink_mask[index(x, y)] = 1;
        c = 0.0f;
      }
    }
    dirty_ = Rect{clip_.x1 + 1, clip_.y1 + 1, clip_.x0 - 1, clip_.y0 - 1};
  }

 private:
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x);
  }
  void mark(int x, int y, double coverage) {
    if (coverage <= 0.0) return;
    float& c = cover_[index(x, y)];
    c = std::max(c, static_cast<float>(std::min(coverage, 1.0)));
    dirty_.x0 = std::min(dirty_.x0, x);
    dirty_.x1 = std::max(dirty_.x1, x);
    dirty_.y0 = std::min(dirty_.y0, y);
    dirty_.y1 = std::max(dirty_.y1, y);
  }

  int width_;
  Rect clip_;
  std::vector<float> cover_;
  Rect dirty_{clip_.x1 + 1, clip_.y1 + 1, clip_.x0 - 1, clip_.y0 - 1};
};

// ---------------------------------------------------------------------------------------------
// Data

struct Point {
  double x, y;
};

/// The finite points of a series, in order, split where a non-finite point breaks the line.
std::vector<std::vector<Point>> finite_runs(const PlotSeries& s) {
  std::vector<std::vector<Point>> runs(1);
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
      runs.back().push_back({s.x[i], s.y[i]});
    } else if (!runs.back().empty()) {
      runs.emplace_back();
    }
  }
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

/// Collapses each stretch of consecutive pixel-space points that share a pixel column to its
/// first, lowest, highest and last point, in their original order. The line drawn through them
/// differs by under a pixel, and a series of a million points costs about as much to draw as
/// one with a few points per column.
std::vector<Point> thin_to_columns(const std::vector<Point>& pts) {
  std::vector<Point> out;
  std::size_t i = 0;
  while (i < pts.size()) {
    const double column = std::floor(pts[i].x);
    std::size_t end = i + 1, lowest = i, highest = i;
    for (; end < pts.size() && std::floor(pts[end].x) == column; ++end) {
      if (pts[end].y < pts[lowest].y) lowest = end;
      if (pts[end].y > pts[highest].y) highest = end;
    }
    std::array<std::size_t, 4> keep{i, std::min(lowest, highest), std::max(lowest, highest), end - 1};
    for (std::size_t k = 0; k < keep.size(); ++k)
      if (k == 0 || keep[k] != keep[k - 1]) out.push_back(pts[keep[k]]);
    i = end;
  }
  return out;
}

/// Histogram bins of a series: finite points sorted by x, with edges halfway between centres.
struct Bins {
  std::vector<double> edges;  // size() == heights.size() + 1
  std::vector<double> heights;
};

Bins make_bins(const PlotSeries& s) {
  std::vector<Point> pts;
  for (std::size_t i = 0; i < s.x.size(); ++i)
    if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) pts.push_back({s.x[i], s.y[i]});
  std::stable_sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  Bins bins;
  if (pts.empty()) return bins;
  const std::size_t n = pts.size();
  // A lone bin has no neighbour to size it by; unit width suits counts of integer values.
  const double first_half = n > 1 ? 0.5 * (pts[1].x - pts[0].x) : 0.5;
  const double last_half = n > 1 ? 0.5 * (pts[n - 1].x - pts[n - 2].x) : 0.5;
  bins.edges.push_back(pts[0].x - first_half);
  for (std::size_t i = 0; i + 1 < n; ++i) bins.edges.push_back(0.5 * (pts[i].x + pts[i + 1].x));
  bins.edges.push_back(pts[n - 1].x + last_half);
  for (const Point& p : pts) bins.heights.push_back(p.y);
  return bins;
}

void validate(const PlotSpec& spec) {
  constexpr int min_w = 160, min_h = 120, max_side = 8192;
  if (spec.width < min_w || spec.height < min_h || spec.width > max_side || spec.height > max_side)
    throw Error("plot size " + std::to_string(spec.width) + "x" + std::to_string(spec.height) + " is outside " +
                std::to_string(min_w) + "x" + std::to_string(min_h) + " .. " + std::to_string(max_side) + "x" +
                std::to_string(max_side));
  if (spec.series.empty()) throw Error("plot '" + spec.title + "' has no series to draw");
  bool any_finite = false;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& s = spec.series[i];
    const std::string name = "plot series " + std::to_string(i + 1) + (s.label.empty() ? "" : " ('" + s.label + "')");
    if (s.x.size() != s.y.size())
      throw Error(name + " has " + std::to_string(s.x.size()) + " x values but " + std::to_string(s.y.size()) +
                  " y values");
    if (s.x.empty()) throw Error(name + " has no points");
    for (std::size_t k = 0; k < s.x.size() && !any_finite; ++k) any_finite = std::isfinite(s.x[k]) && std::isfinite(s.y[k]);
  }
  if (!any_finite) throw Error("plot '" + spec.title + "' has no point with finite x and y");
}

// ---------------------------------------------------------------------------------------------
// Layout and drawing

struct Axis {
  AxisTicks ticks;
  std::vector<std::string> labels;
  int widest = 0;  // pixels
};

/// Ticks for an axis `length` pixels long, about `spacing` pixels apart; on the horizontal
/// axis the step grows until neighbouring labels leave a gap of two characters between them.
Axis fit_axis(double lo, double hi, int length, int spacing, bool horizontal, int scale) {
  Axis axis;
  for (int target = std::max(1, length / spacing);; --target) {
    axis.ticks = nice_ticks(lo, hi, target);
    axis.labels = tick_labels(axis.ticks);
    axis.widest = 0;
    for (const std::string& l : axis.labels) axis.widest = std::max(axis.widest, text_width(l, scale));
    if (!horizontal || target == 1) break;
    const double gap = length * axis.ticks.step / (axis.ticks.hi - axis.ticks.lo);
    if (gap >= axis.widest + 2 * glyph_advance * scale) break;
  }
  return axis;
}

/// The pixel whose centre lies nearest to continuous coordinate `c` (centres sit at k + 0.5).
int pixel_at(double c) { return static_cast<int>(std::floor(c)); }

/// First pixel whose centre is at or after continuous coordinate `c`.
int first_pixel_from(double c) { return static_cast<int>(std::ceil(c - 0.5)); }

Canvas render(const PlotSpec& spec) {
  const int w = spec.width, h = spec.height;
  const int s = w >= 640 && h >= 400 ? 2 : 1;  // text and line scale
  const int margin = 6 * s;
  const int tick_len = 4 * s;
  const int line_h = glyph_rows * s;
  const int cap_h = cap_rows * s;
  const double half_width = s == 2 ? 1.25 : 1.0;
  const std::string title = drawable(spec.title), xlabel = drawable(spec.xlabel), ylabel = drawable(spec.ylabel);

  // Data limits. Bars need their outer bin edges inside the x range and their base, y = 0, in
  // the y range.
  std::vector<Bins> bins;
  double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL, ymax = -HUGE_VAL;
  if (spec.bars) {
    ymin = ymax = 0.0;
    for (const PlotSeries& series : spec.series) {
      bins.push_back(make_bins(series));
      const Bins& b = bins.back();
      if (b.heights.empty()) continue;
      xmin = std::min(xmin, b.edges.front());
      xmax = std::max(xmax, b.edges.back());
      for (const double y : b.heights) {
        ymin = std::min(ymin, y);
        ymax = std::max(ymax, y);
      }
    }
  } else {
    for (const PlotSeries& series : spec.series)
      for (std::size_t i = 0; i < series.x.size(); ++i) {
        if (!std::isfinite(series.x[i]) || !std::isfinite(series.y[i])) continue;
        xmin = std::min(xmin, series.x[i]);
        xmax = std::max(xmax, series.x[i]);
        ymin = std::min(ymin, series.y[i]);
        ymax = std::max(ymax, series.y[i]);
      }
  }

  // Vertical layout first: the y ticks depend on the plot height, the left margin on the width
  // of their labels, and the x ticks on the remaining width.
  Rect plot;
  plot.y0 = margin + (title.empty() ? cap_h / 2 : line_h + 5 * s);
  plot.y1 = h - 1 - margin - (xlabel.empty() ? 0 : line_h + 3 * s) - (tick_len + 3 * s + line_h);
  const Axis yaxis = fit_axis(ymin, ymax, plot.y1 - plot.y0, 36 * s, false, s);
  plot.x0 = margin + (ylabel.empty() ? 0 : line_h + 5 * s) + yaxis.widest + 3 * s + tick_len;
  plot.x1 = w - 1 - margin;
  Axis xaxis;
  for (int pass = 0; pass < 2; ++pass) {
    xaxis = fit_axis(xmin, xmax, plot.x1 - plot.x0, 50 * s, true, s);
    // The last x label is centred on the right edge of the plot; keep it on the canvas.
    const int overhang = plot.x1 + text_width(xaxis.labels.back(), s) / 2 - (w - 1 - 2 * s);
    if (overhang <= 0) break;
    plot.x1 -= overhang;
  }

  const AxisTicks& xt = xaxis.ticks;
  const AxisTicks& yt = yaxis.ticks;
  const auto map_x = [&](double x) { return plot.x0 + 0.5 + (x - xt.lo) / (xt.hi - xt.lo) * (plot.x1 - plot.x0); };
  const auto map_y = [&](double y) { return plot.y1 + 0.5 - (y - yt.lo) / (yt.hi - yt.lo) * (plot.y1 - plot.y0); };

  Canvas canvas(w, h);
  const Rect inside{plot.x0 + 1, plot.y0 + 1, plot.x1 - 1, plot.y1 - 1};

  // Grid, frame, ticks and their labels.
  for (std::size_t i = 0; i < xt.values.size(); ++i) {
    const int col = pixel_at(map_x(xt.values[i]));
    if (col > plot.x0 && col < plot.x1) canvas.fill({col, inside.y0, col, inside.y1}, grid_colour);
    canvas.fill({col, plot.y1 + 1, col, plot.y1 + tick_len}, frame_colour);
    const std::string& label = xaxis.labels[i];
    const int lw = text_width(label, s);
    canvas.text(std::clamp(col - lw / 2, 0, w - lw), plot.y1 + tick_len + 3 * s, label, s, ink);
  }
  for (std::size_t i = 0; i < yt.values.size(); ++i) {
    const int row = pixel_at(map_y(yt.values[i]));
    if (row > plot.y0 && row < plot.y1) canvas.fill({inside.x0, row, inside.x1, row}, grid_colour);
    canvas.fill({plot.x0 - tick_len, row, plot.x0 - 1, row}, frame_colour);
    const std::string& label = yaxis.labels[i];
    canvas.text(plot.x0 - tick_len - 3 * s - text_width(label, s), row - cap_h / 2, label, s, ink);
  }
  canvas.outline(plot, frame_colour);

  if (!title.empty()) {
    const int tw = text_width(title, s) + 1;
    const int tx = std::clamp((plot.x0 + plot.x1 - tw) / 2, 0, std::max(0, w - tw));
    // Drawn twice one pixel apart: a bold face without a second font.
    canvas.text(tx, margin, title, s, ink);
    canvas.text(tx + 1, margin, title, s, ink);
  }
  if (!xlabel.empty()) {
    const int lw = text_width(xlabel, s);
    canvas.text(std::clamp((plot.x0 + plot.x1 - lw) / 2, 0, std::max(0, w - lw)), h - margin - line_h, xlabel, s, ink);
  }
  if (!ylabel.empty()) {
    const int lw = text_width(ylabel, s);
    canvas.text_up(margin, std::clamp((plot.y0 + plot.y1 + lw) / 2, std::min(lw, h), h), ylabel, s, ink);
  }

  // Series, clipped to the plot including its frame so that data on the limits stay visible.
  std::vector<std::uint8_t> ink_mask(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  Stroke stroke(w, h, plot);
  constexpr double bar_alpha = 0.22;
  for (std::size_t si = 0; si < spec.series.size(); ++si) {
    const Rgb colour = plot_series_colour(si);
    if (spec.bars) {
      const Bins& b = bins[si];
      if (b.heights.empty()) continue;
      const double base = std::clamp(0.0, yt.lo, yt.hi);
      for (std::size_t k = 0; k < b.heights.size(); ++k) {
        // Half-open pixel ranges so that neighbouring bins never blend the same column twice.
        const Rect bar{std::max(inside.x0, first_pixel_from(map_x(b.edges[k]))),
                       std::max(inside.y0, first_pixel_from(map_y(std::max(b.heights[k], base)))),
                       std::min(inside.x1, first_pixel_from(map_x(b.edges[k + 1])) - 1),
                       std::min(inside.y1, first_pixel_from(map_y(std::min(b.heights[k], base))) - 1)};
        canvas.fill(bar, colour, bar_alpha);
        for (int y = bar.y0; y <= bar.y1; ++y)
          for (int x = bar.x0; x <= bar.x1; ++x) ink_mask[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] = 1;
      }
      // The outline steps along the bar tops and drops to the base at both ends.
      std::vector<Point> path{{b.edges.front(), base}};
      for (std::size_t k = 0; k < b.heights.size(); ++k) {
        path.push_back({b.edges[k], b.heights[k]});
        path.push_back({b.edges[k + 1], b.heights[k]});
      }
      path.push_back({b.edges.back(), base});
      for (std::size_t k = 0; k + 1 < path.size(); ++k)
        stroke.segment(map_x(path[k].x), map_y(path[k].y), map_x(path[k + 1].x), map_y(path[k + 1].y), half_width);
    } else {
      for (std::vector<Point> run : finite_runs(spec.series[si])) {
        for (Point& p : run) p = {map_x(p.x), map_y(p.y)};
        run = thin_to_columns(run);
        // A point with no finite neighbour would have no line: show it as a dot.
        if (run.size() == 1) stroke.dot(run[0].x, run[0].y, 2.0 * half_width);
        for (std::size_t k = 0; k + 1 < run.size(); ++k)
          stroke.segment(run[k].x, run[k].y, run[k + 1].x, run[k + 1].y, half_width);
      }
    }
    stroke.paint(canvas, colour, ink_mask);
  }

  // Legend in the inside corner that hides the fewest plotted pixels.
  std::vector<std::size_t> entries;
  for (std::size_t i = 0; i < spec.series.size(); ++i)
    if (!spec.series[i].label.empty()) entries.push_back(i);
  if (!entries.empty()) {
    const int pad = 4 * s, swatch = 14 * s, gap = 4 * s, row_h = line_h + 2 * s, inset = 6 * s;
    int widest = 0;
    for (const std::size_t i : entries) widest = std::max(widest, text_width(drawable(spec.series[i].label), s));
    const int box_w = pad + swatch + gap + widest + pad;
    const int box_h = 2 * pad + row_h * static_cast<int>(entries.size()) - 2 * s;
    const int left = plot.x0 + inset, right = plot.x1 - inset - box_w + 1;
    const int top = plot.y0 + inset, bottom = plot.y1 - inset - box_h + 1;
    const std::array<std::pair<int, int>, 4> corners{{{right, top}, {left, top}, {right, bottom}, {left, bottom}}};
    Rect best;
    long best_count = -1;
    for (const auto& [x0, y0] : corners) {
      const Rect box{x0, y0, x0 + box_w - 1, y0 + box_h - 1};
      long count = 0;
      for (int y = std::max(0, box.y0); y <= std::min(h - 1, box.y1); ++y)
        for (int x = std::max(0, box.x0); x <= std::min(w - 1, box.x1); ++x)
          count += ink_mask[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
      if (best_count < 0 || count < best_count) {
        best = box;
        best_count = count;
      }
    }
    canvas.fill(best, white);
    canvas.outline(best, legend_border);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const Rgb colour = plot_series_colour(entries[k]);
      const int ty = best.y0 + pad + static_cast<int>(k) * row_h;
      const int sx = best.x0 + pad;
      if (spec.bars) {
        const Rect patch{sx, ty, sx + swatch - 1, ty + cap_h - 1};
        canvas.fill(patch, colour, bar_alpha);
        canvas.outline(patch, colour);
      } else {
        const int thick = static_cast<int>(std::lround(2.0 * half_width));
        const int cy = ty + cap_h / 2 - thick / 2;
        canvas.fill({sx, cy, sx + swatch - 1, cy + thick - 1}, colour);
      }
      canvas.text(sx + swatch + gap, ty, drawable(spec.series[entries[k]].label), s, ink);
    }
  }
  return canvas;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public interface

std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc) {
  crc = ~crc;
  for (const std::uint8_t b : bytes) crc = crc_table[(crc ^ b) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}

std::uint32_t adler32(std::span<const std::uint8_t> bytes, std::uint32_t adler) {
  constexpr std::uint32_t mod = 65521;
  // zlib's NMAX: the most bytes that can be summed before the 32-bit sums could overflow.
  constexpr std::size_t block = 5552;
  std::uint32_t a = adler & 0xFFFFu, b = adler >> 16;
  for (std::size_t pos = 0; pos < bytes.size(); pos += block) {
    const std::size_t end = std::min(bytes.size(), pos + block);
    for (std::size_t i = pos; i < end; ++i) {
      a += bytes[i];
      b += a;
    }
    a %= mod;
    b %= mod;
  }
  return b << 16 | a;
}

std::vector<std::uint8_t> encode_png_rgb(int width, int height, std::span<const std::uint8_t> rgb) {
  if (width <= 0 || height <= 0)
    throw Error("PNG size " + std::to_string(width) + "x" + std::to_string(height) + " is not positive");
  const std::size_t row_bytes = static_cast<std::size_t>(width) * 3;
  if (rgb.size() != row_bytes * static_cast<std::size_t>(height))
    throw Error("PNG pixel buffer has " + std::to_string(rgb.size()) + " bytes, expected " +
                std::to_string(row_bytes * static_cast<std::size_t>(height)));

  // Scanlines, each led by its filter type: 0 (none), since nothing is compressed anyway.
  std::vector<std::uint8_t> raw;
  raw.reserve((row_bytes + 1) * static_cast<std::size_t>(height));
  for (std::size_t y = 0; y < static_cast<std::size_t>(height); ++y) {
    raw.push_back(0);
    const auto row = rgb.subspan(y * row_bytes, row_bytes);
    raw.insert(raw.end(), row.begin(), row.end());
  }

  // zlib stream of stored deflate blocks. Header 0x78 0x01: deflate with a 32 KiB window, no
  // dictionary, "fastest" level, and a check value making the 16-bit header a multiple of 31.
  constexpr std::size_t max_block = 65535;
  std::vector<std::uint8_t> z;
  z.reserve(raw.size() + (raw.size() / max_block + 1) * 5 + 6);
  z.push_back(0x78);
  z.push_back(0x01);
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min(max_block, raw.size() - pos);
    const bool last = pos + n == raw.size();
    // BFINAL in bit 0, BTYPE 00 (stored) in bits 1-2; the rest of the byte is padding, so the
    // lengths and data that follow are byte-aligned.
    z.push_back(last ? 1 : 0);
    const auto len = static_cast<std::uint16_t>(n);
    const auto nlen = static_cast<std::uint16_t>(~len);
    z.push_back(static_cast<std::uint8_t>(len & 0xFFu));
    z.push_back(static_cast<std::uint8_t>(len >> 8));
    z.push_back(static_cast<std::uint8_t>(nlen & 0xFFu));
    z.push_back(static_cast<std::uint8_t>(nlen >> 8));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos), raw.begin() + static_cast<std::ptrdiff_t>(pos + n));
    pos += n;
  } while (pos < raw.size());
  put_u32(z, adler32(raw));

  std::vector<std::uint8_t> png{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<std::uint8_t> ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(width));
  put_u32(ihdr, static_cast<std::uint32_t>(height));
  // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});
  put_chunk(png, "IHDR", ihdr);
  // Several IDAT chunks keep each chunk far below the 2^31 - 1 byte limit whatever the size.
  constexpr std::size_t max_idat = std::size_t{1} << 20;
  for (std::size_t at = 0; at < z.size(); at += max_idat)
    put_chunk(png, "IDAT", std::span<const std::uint8_t>(z).subspan(at, std::min(max_idat, z.size() - at)));
  put_chunk(png, "IEND", {});
  return png;
}

Rgb plot_series_colour(std::size_t index) {
  // Hues far apart and dark enough to read as thin lines on white.
  static constexpr std::array<Rgb, 8> palette{{{0, 90, 200},
                                               {230, 120, 0},
                                               {0, 150, 60},
                                               {210, 30, 40},
                                               {130, 60, 180},
                                               {140, 90, 40},
                                               {210, 60, 160},
                                               {0, 150, 160}}};
  return palette[index % palette.size()];
}

AxisTicks nice_ticks(double lo, double hi, int max_intervals) {
  if (!std::isfinite(lo) || !std::isfinite(hi))
    throw Error("axis range [" + short_number(lo) + ", " + short_number(hi) + "] is not finite");
  if (lo > hi) std::swap(lo, hi);
  max_intervals = std::clamp(max_intervals, 1, 1000);
  // Doubles carry about 16 digits and the labels need a few beyond the step, so a range under
  // 1e-10 of its magnitude cannot be told apart on the axis: show it as one value with some
  // room around it, and likewise a range of nothing at all.
  const double magnitude = std::max(std::abs(lo), std::abs(hi));
  if (hi - lo <= 1e-10 * magnitude || hi - lo < 1e-290) {
    const double centre = 0.5 * (lo + hi);
    const double half = std::abs(centre) < 1e-290 ? 1.0 : 0.1 * std::abs(centre);
    lo = centre - half;
    hi = centre + half;
  }
  const double span = hi - lo;
  if (!std::isfinite(span))
    throw Error("axis range [" + short_number(lo) + ", " + short_number(hi) + "] is too wide to plot");

  // step = mantissa * 10^exponent. Negative powers divide by an exact 10^k so that ticks such
  // as 0.3 come out as the double nearest 0.3 rather than 3 * 0.1.
  constexpr std::array<int, 3> mantissas{1, 2, 5};
  const double raw = span / max_intervals;
  int exponent = static_cast<int>(std::floor(std::log10(raw)));
  std::size_t m = 0;
  const auto scaled = [&](double k) {
    const double p = std::pow(10.0, std::abs(exponent));
    return exponent >= 0 ? k * mantissas[m] * p : k * mantissas[m] / p;
  };
  while (scaled(1.0) < raw * (1.0 - 1e-12)) {
    if (++m == mantissas.size()) {
      m = 0;
      ++exponent;
    }
  }
  AxisTicks t;
  for (;;) {
    t.step = scaled(1.0);
    if (!std::isfinite(t.step))
      throw Error("axis range [" + short_number(lo) + ", " + short_number(hi) + "] is too wide to plot");
    // The tolerance keeps a limit that is a multiple of the step up to rounding from gaining an
    // extra interval.
    const double n0 = std::floor(lo / t.step + 1e-9);
    const double n1 = std::max(n0 + 1.0, std::ceil(hi / t.step - 1e-9));
    if (n1 - n0 <= max_intervals) {
      for (double k = n0; k <= n1; k += 1.0) t.values.push_back(scaled(k));
      t.lo = t.values.front();
      t.hi = t.values.back();
      return t;
    }
    if (++m == mantissas.size()) {
      m = 0;
      ++exponent;
    }
  }
}

std::vector<std::string> tick_labels(const AxisTicks& ticks) {
  const int exponent = static_cast<int>(std::floor(std::log10(ticks.step) + 1e-9));
  const double magnitude = std::max(std::abs(ticks.lo), std::abs(ticks.hi));
  // Past these limits fixed notation needs more than about 7 characters per label.
  const bool scientific = magnitude >= 1e6 || exponent < -4;
  std::vector<std::string> labels;
  for (const double v : ticks.values) {
    char buf[64];
    std::string label;
    if (!scientific) {
      std::snprintf(buf, sizeof buf, "%.*f", std::max(0, -exponent), v);
      label = buf;
    } else if (v == 0.0) {
      label = "0";
    } else {
      // Enough mantissa digits to show the step, and a short exponent: "2.5e-6", not "2.5e-06".
      const int digits = std::clamp(static_cast<int>(std::floor(std::log10(std::abs(v)))) - exponent, 0, 12);
      std::snprintf(buf, sizeof buf, "%.*e", digits, v);
      const std::string text = buf;
      const std::size_t e = text.find('e');
      label = text.substr(0, e) + "e" + std::to_string(std::stoi(text.substr(e + 1)));
    }
    // A value that rounds to zero must not read "-0".
    if (label.front() == '-' && label.find_first_of("123456789") == std::string::npos) label.erase(0, 1);
    labels.push_back(label);
  }
  return labels;
}

void write_plot_png(const std::filesystem::path& path, const PlotSpec& spec) {
  validate(spec);
  const Canvas canvas = render(spec);
  const std::vector<std::uint8_t> png = encode_png_rgb(canvas.width(), canvas.height(), canvas.rgb());
  // Everything that can fail on bad input has run before the output is opened.
  AtomicFile file(path);
  file.stream().write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  file.commit();
}

}  // namespace molstep::core
