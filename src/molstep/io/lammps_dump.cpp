// SPDX-License-Identifier: MIT
#include "molstep/io/lammps_dump.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <numeric>

#include "molstep/core/error.hpp"

namespace molstep::io {

const std::vector<std::string>& CustomDump::fields() {
  static const std::vector<std::string> f = {"id", "type", "mass", "x",  "y",  "z",  "xu", "yu", "zu", "ix",
                                             "iy", "iz",   "vx",   "vy", "vz", "fx", "fy", "fz"};
  return f;
}

CustomDump::CustomDump(std::string id, long every, const std::filesystem::path& path, std::vector<std::string> columns)
    : md::Dump(std::move(id), every), columns_(std::move(columns)) {
  if (every <= 0) throw Error("dump " + this->id() + ": interval must be a positive number of steps");
  if (columns_.empty()) throw Error("dump " + this->id() + ": no fields given");
  for (const auto& c : columns_)
    if (std::find(fields().begin(), fields().end(), c) == fields().end()) {
      std::string known;
      for (const auto& k : fields()) known += (known.empty() ? "" : " ") + k;
      throw Error("dump " + this->id() + ": unknown field '" + c + "' (known: " + known + ")");
    }
  file_ = std::make_unique<core::AtomicFile>(path);
}

void CustomDump::write(const md::System& s, long step) {
  if (step == last_step_) return;
  last_step_ = step;
  const auto& a = s.atoms;
  std::vector<std::size_t> order(a.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return a.id[i] < a.id[j]; });
  auto& out = file_->stream();
  fmt::print(out, "ITEM: TIMESTEP\n{}\nITEM: NUMBER OF ATOMS\n{}\nITEM: BOX BOUNDS pp pp pp\n", step, a.size());
  for (int d = 0; d < 3; ++d) fmt::print(out, "{} {}\n", s.box.lo[d], s.box.hi[d]);
  std::string head = "ITEM: ATOMS";
  for (const auto& c : columns_) head += " " + c;
  out << head << '\n';
  std::string line;
  for (std::size_t i : order) {
    line.clear();
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c) line += ' ';
      const std::string& k = columns_[c];
      if (k == "id") line += std::to_string(a.id[i]);
      else if (k == "type") line += std::to_string(a.type[i]);
      else if (k == "mass") line += fmt::format("{}", s.mass_of(i));
      else if (k == "x") line += fmt::format("{}", a.x[i]);
      else if (k == "y") line += fmt::format("{}", a.y[i]);
      else if (k == "z") line += fmt::format("{}", a.z[i]);
      else if (k == "xu") line += fmt::format("{}", s.unwrapped(i, 0));
      else if (k == "yu") line += fmt::format("{}", s.unwrapped(i, 1));
      else if (k == "zu") line += fmt::format("{}", s.unwrapped(i, 2));
      else if (k == "ix") line += std::to_string(a.ix[i]);
      else if (k == "iy") line += std::to_string(a.iy[i]);
      else if (k == "iz") line += std::to_string(a.iz[i]);
      else if (k == "vx") line += fmt::format("{}", a.vx[i]);
      else if (k == "vy") line += fmt::format("{}", a.vy[i]);
      else if (k == "vz") line += fmt::format("{}", a.vz[i]);
      else if (k == "fx") line += fmt::format("{}", a.fx[i]);
      else if (k == "fy") line += fmt::format("{}", a.fy[i]);
      else if (k == "fz") line += fmt::format("{}", a.fz[i]);
    }
    out << line << '\n';
  }
}

void CustomDump::commit() { file_->commit(); }

}  // namespace molstep::io
