// SPDX-License-Identifier: MIT
#include "molstep/io/pdb.hpp"

#include <fmt/format.h>

#include <cctype>

#include "molstep/core/elements.hpp"
#include "molstep/core/error.hpp"
#include "molstep/io/text_lines.hpp"

namespace molstep::io {

namespace {

// Columns [from, to] (1-based, inclusive, as the PDB format description counts them) of a
// line, blank-trimmed; "" where the line is shorter.
std::string_view columns(std::string_view line, std::size_t from, std::size_t to) {
  if (line.size() < from) return {};
  return trim(line.substr(from - 1, to - from + 1));
}

// A formal charge as PDB writes it ("2+", "1-"), or the sign first ("+2").
bool parse_charge(std::string_view s, double& q) {
  if (s.size() == 1 && (s[0] == '+' || s[0] == '-')) {
    q = s[0] == '+' ? 1 : -1;
    return true;
  }
  if (s.size() != 2) return false;
  const char digit = std::isdigit(static_cast<unsigned char>(s[0])) ? s[0] : s[1];
  const char sign = digit == s[0] ? s[1] : s[0];
  if (!std::isdigit(static_cast<unsigned char>(digit)) || (sign != '+' && sign != '-')) return false;
  q = (sign == '+' ? 1 : -1) * (digit - '0');
  return true;
}

}  // namespace

Structure read_pdb(const std::filesystem::path& path) {
  TextLines in(path);
  Structure s;
  auto& t = s.topology;
  core::Frame frame;
  std::vector<double> charges;
  bool any_charge = false;
  int models = 0;
  std::string_view line;
  while (in.next(line)) {
    const std::string_view record = trim(line.substr(0, std::min<std::size_t>(6, line.size())));
    if (record == "MODEL") {
      if (++models > 1) break;
    } else if (record == "ENDMDL" || record == "END") {
      break;
    } else if (record == "CRYST1") {
      double v[6];
      static constexpr std::size_t cols[6][2] = {{7, 15}, {16, 24}, {25, 33}, {34, 40}, {41, 47}, {48, 54}};
      static constexpr const char* names[6] = {"a", "b", "c", "alpha", "beta", "gamma"};
      for (int k = 0; k < 6; ++k) {
        const std::string_view text = columns(line, cols[k][0], cols[k][1]);
        if (!parse_number(text, v[k]))
          in.fail(fmt::format("CRYST1: expected a number for {} in columns {}-{}, found {}", names[k], cols[k][0],
                              cols[k][1], excerpt(text)));
      }
      const bool placeholder = v[0] == 1 && v[1] == 1 && v[2] == 1 && v[3] == 90 && v[4] == 90 && v[5] == 90;
      frame.box = placeholder ? decltype(frame.box){} : core::box_from_lengths_angles(v[0], v[1], v[2], v[3], v[4], v[5]);
    } else if (record == "ATOM" || record == "HETATM") {
      const std::size_t i = t.name.size() + 1;
      const std::string_view body = line.substr(0, line.find_last_not_of(" \t\r") + 1);
      if (body.size() < 54)
        in.fail(fmt::format("{} record (atom {}) is {} characters long; x y z need columns 31-54", record, i,
                            body.size()));
      t.name.emplace_back(columns(line, 13, 16));
      t.resname.emplace_back(columns(line, 18, 21));
      std::int64_t resid = 0;
      const std::string_view resid_text = columns(line, 23, 26);
      if (!parse_int(resid_text, resid))
        in.fail(fmt::format("atom {}: expected the residue number in columns 23-26, found {}", i, excerpt(resid_text)));
      t.resid.push_back(resid);
      double r[3];
      for (std::size_t d = 0; d < 3; ++d) {
        const std::string_view text = columns(line, 31 + 8 * d, 38 + 8 * d);
        if (!parse_number(text, r[d]))
          in.fail(fmt::format("atom {}: expected a number for {} in columns {}-{}, found {}", i, "xyz"[d], 31 + 8 * d,
                              38 + 8 * d, excerpt(text)));
      }
      frame.x.push_back(r[0]);
      frame.y.push_back(r[1]);
      frame.z.push_back(r[2]);
      const std::string_view el = columns(line, 77, 78);
      const core::Element* e = el.empty() ? nullptr : core::find_element(el);
      t.element.push_back(e ? std::string(e->symbol) : core::guess_element(t.name.back()));
      const std::string_view q = columns(line, 79, 80);
      double charge = 0;
      if (!q.empty()) {
        if (!parse_charge(q, charge))
          in.fail(fmt::format("atom {}: expected a formal charge like '2+' or '1-' in columns 79-80, found {}", i,
                              excerpt(q)));
        any_charge = true;
      }
      charges.push_back(charge);
    }
  }
  if (t.name.empty()) in.fail_at(0, "no ATOM or HETATM records in the first model");
  if (any_charge) t.charge = std::move(charges);
  core::guess_masses(t);
  s.frame = std::move(frame);
  return s;
}

}  // namespace molstep::io
