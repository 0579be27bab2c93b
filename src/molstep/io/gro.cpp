// SPDX-License-Identifier: MIT
#include "molstep/io/gro.hpp"

#include <fmt/format.h>

#include "molstep/core/elements.hpp"
#include "molstep/core/error.hpp"
#include "molstep/io/text_lines.hpp"

namespace molstep::io {

namespace {

constexpr double nm = 10.0;  // angstrom per nm

// "t= 10.00000 step= 5000" as trjconv writes it into the title.
void title_time_step(std::string_view title, core::Frame& frame) {
  const auto value_after = [&](std::string_view key, std::string_view& value) {
    std::size_t at = title.find(key);
    // The key must start a word ("step=" inside "timestep=" does not count).
    while (at != std::string_view::npos && at > 0 && title[at - 1] != ' ' && title[at - 1] != '\t')
      at = title.find(key, at + 1);
    if (at == std::string_view::npos) return false;
    std::string_view rest = title.substr(at + key.size());
    return next_field(rest, value);
  };
  std::string_view v;
  double t = 0;
  std::int64_t s = 0;
  if (value_after("t=", v) && parse_number(v, t)) frame.time = t;
  if (value_after("step=", v) && parse_int(v, s)) frame.step = s;
}

}  // namespace

Structure read_gro(const std::filesystem::path& path) {
  TextLines in(path);
  std::string_view line;
  if (!in.next(line)) in.fail_at(1, "empty file: expected the title line");
  core::Frame frame;
  title_time_step(line, frame);
  if (!in.next(line)) in.fail_at(2, "file ends where the atom count was expected");
  std::int64_t count = 0;
  if (!parse_int(trim(line), count) || count < 0) in.fail("expected the atom count, found " + excerpt(line));
  const auto n = static_cast<std::size_t>(count);
  Structure s;
  auto& t = s.topology;
  t.name.reserve(n);
  t.resname.reserve(n);
  t.resid.reserve(n);
  frame.resize(n);
  std::size_t width = 0;
  bool velocities = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!in.next(line))
      in.fail_at(in.line_number() + 1, fmt::format("file ends after {} of {} atom lines", i, n));
    const std::string_view body = trim(line).empty() ? std::string_view{} : line.substr(0, line.find_last_not_of(" \t\r") + 1);
    if (i == 0) {
      // GROMACS writes positions as %(p+5).pf; the distance between the first two decimal
      // points gives the field width for any precision p.
      const std::size_t p1 = body.find('.', 20);
      const std::size_t p2 = p1 == std::string_view::npos ? p1 : body.find('.', p1 + 1);
      if (p2 == std::string_view::npos)
        in.fail("cannot find the decimal points of x and y after column 20 in atom line 1: " + excerpt(line));
      width = p2 - p1;
      velocities = body.size() >= 20 + 6 * width;
    }
    if (body.size() < 20 + 3 * width)
      in.fail(fmt::format("atom line {} is {} characters long; the fixed columns need {} (resid, names, number, x y z of "
                          "width {})",
                          i + 1, body.size(), 20 + 3 * width, width));
    std::int64_t resid = 0;
    const std::string_view resid_text = trim(body.substr(0, 5));
    if (!parse_int(resid_text, resid))
      in.fail(fmt::format("atom line {}: expected the residue number in columns 1-5, found {}", i + 1, excerpt(resid_text)));
    t.resid.push_back(resid);
    t.resname.emplace_back(trim(body.substr(5, 5)));
    t.name.emplace_back(trim(body.substr(10, 5)));
    const auto field = [&](std::size_t k, const char* what) {
      const std::string_view text = trim(body.substr(20 + k * width, width));
      double v = 0;
      if (!parse_number(text, v))
        in.fail(fmt::format("atom line {}: expected a number for {} in columns {}-{}, found {}", i + 1, what,
                            21 + k * width, 20 + (k + 1) * width, excerpt(text)));
      return v * nm;
    };
    frame.x[i] = field(0, "x");
    frame.y[i] = field(1, "y");
    frame.z[i] = field(2, "z");
    if (velocities) {
      if (body.size() < 20 + 6 * width)
        in.fail(fmt::format("atom line {} has no velocities, but the first atom line has them", i + 1));
      if (i == 0) frame.resize_velocities(n);
      frame.vx[i] = field(3, "vx");
      frame.vy[i] = field(4, "vy");
      frame.vz[i] = field(5, "vz");
    }
  }
  if (!in.next(line)) in.fail_at(in.line_number() + 1, "file ends where the box line was expected");
  double b[9] = {};
  int k = 0;
  std::string_view rest = line, field;
  while (next_field(rest, field)) {
    if (k == 9 || !parse_number(field, b[k]))
      in.fail("expected 3 or 9 numbers on the box line (v1x v2y v3z [v1y v1z v2x v2z v3x v3y]), found " + excerpt(line));
    ++k;
  }
  if (k != 3 && k != 9)
    in.fail(fmt::format("expected 3 or 9 numbers on the box line, found {}", k));
  frame.box = {{{b[0] * nm, b[3] * nm, b[4] * nm}, {b[5] * nm, b[1] * nm, b[6] * nm}, {b[7] * nm, b[8] * nm, b[2] * nm}}};
  core::guess_elements(t);
  core::guess_masses(t);
  s.frame = std::move(frame);
  return s;
}

}  // namespace molstep::io
