// SPDX-License-Identifier: MIT
#include "molstep/io/dcd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"

namespace molstep::io {

namespace {

static_assert(std::endian::native == std::endian::little, "the DCD code assumes a little-endian host");

// 1 AKMA time unit in ps (MDAnalysis.units: 4.888821e-14 s).
constexpr double akma_ps = 4.888821e-2;

std::uint32_t swap32(std::uint32_t v) { return __builtin_bswap32(v); }
std::uint64_t swap64(std::uint64_t v) { return __builtin_bswap64(v); }

std::int32_t get_i32(const unsigned char* p, bool big) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return static_cast<std::int32_t>(big ? swap32(v) : v);
}
float get_f32(const unsigned char* p, bool big) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if (big) v = swap32(v);
  return std::bit_cast<float>(v);
}
double get_f64(const unsigned char* p, bool big) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if (big) v = swap64(v);
  return std::bit_cast<double>(v);
}

// Box vectors from a DCD unit cell record, as MDAnalysis 2.4 (coordinates/DCD.py) interprets
// it. The record is [A, gamma, B, beta, alpha, C]: when all three angle entries lie in [-1, 1]
// they are cosines (CHARMM, NAMD > 2.5, LAMMPS: exact 90 degrees for 0), when an entry is
// negative or an angle above 180 the record is CHARMM's symmetric box matrix, and otherwise the
// angles are in degrees (NAMD 2.5, MDAnalysis's own writer).
std::array<std::array<double, 3>, 3> box_from_unit_cell(const double uc[6]) {
  double dim[6] = {uc[0], uc[2], uc[5], uc[4], uc[3], uc[1]};  // A B C alpha beta gamma
  const auto in_unit = [](double c) { return c >= -1.0 && c <= 1.0; };
  if (in_unit(dim[3]) && in_unit(dim[4]) && in_unit(dim[5])) {
    for (int i = 3; i < 6; ++i) dim[i] = 90.0 - std::asin(dim[i]) * 90.0 / (std::numbers::pi / 2);
  } else if (std::any_of(dim, dim + 6, [](double v) { return v < 0.0; }) || dim[3] > 180 || dim[4] > 180 ||
             dim[5] > 180) {
    const std::array<std::array<double, 3>, 3> h = {{{uc[0], uc[1], uc[3]}, {uc[1], uc[2], uc[4]}, {uc[3], uc[4], uc[5]}}};
    const auto la = core::box_lengths_angles(h);
    std::copy(la.begin(), la.end(), dim);
  }
  return core::box_from_lengths_angles(dim[0], dim[1], dim[2], dim[3], dim[4], dim[5]);
}

}  // namespace

DcdReader::DcdReader(const std::filesystem::path& path) : TrajectoryReader(path) {
  in_ = std::fopen(path.c_str(), "rb");
  if (!in_) throw Error("cannot open '" + path.string() + "' for reading: " + std::strerror(errno));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  file_size_ = ec ? -1 : static_cast<std::int64_t>(size);
  read_header();
}

DcdReader::~DcdReader() {
  if (in_) std::fclose(in_);
}

void DcdReader::fail(std::int64_t at, const std::string& what) const {
  const std::string where = in_header_ ? fmt::format("header at byte {}", at) : fmt::format("frame {} at byte {}", frame_, at);
  throw Error(SourceLoc{path().string(), 0}, where + ": " + what);
}

std::size_t DcdReader::read_some(void* p, std::size_t n) {
  const std::size_t got = std::fread(p, 1, n, in_);
  offset_ += static_cast<std::int64_t>(got);
  if (got < n && std::ferror(in_)) fail(offset_, "read error");
  return got;
}

void DcdReader::read_exact(void* p, std::size_t n, std::int64_t record_start, const char* what) {
  const std::size_t got = read_some(p, n);
  if (got < n)
    fail(record_start, fmt::format("file ends inside the {} (needs {} more bytes, {} left)", what, n, got));
}

std::uint64_t DcdReader::read_marker(std::int64_t record_start, const char* what) {
  unsigned char b[8];
  const auto n = static_cast<std::size_t>(header_.marker_bytes);
  const std::size_t got = read_some(b, n);
  if (got < n)
    fail(record_start, fmt::format("file ends inside the record marker of the {} ({} of {} bytes)", what, got, n));
  if (n == 4) return static_cast<std::uint32_t>(get_i32(b, header_.big_endian));
  std::uint64_t v;
  std::memcpy(&v, b, 8);
  return header_.big_endian ? swap64(v) : v;
}

void DcdReader::read_record_end(std::uint64_t marker, const char* what) {
  const std::int64_t at = offset_;
  const std::uint64_t end = read_marker(at, what);
  if (end != marker)
    fail(at, fmt::format("record end marker {} does not match its start marker {} ({})", end, marker, what));
}

void DcdReader::skip(std::uint64_t n, std::int64_t record_start, const char* what) {
  if (file_size_ >= 0 && offset_ + static_cast<std::int64_t>(n) > file_size_)
    fail(record_start, fmt::format("file ends inside the {} (needs {} more bytes, {} left)", what, n, file_size_ - offset_));
  if (std::fseek(in_, static_cast<long>(n), SEEK_CUR) != 0) fail(offset_, "seek failed");
  offset_ += static_cast<std::int64_t>(n);
}

void DcdReader::read_header() {
  unsigned char first[12];
  if (read_some(first, 12) < 12) fail(0, "file is too short for a DCD header");
  DcdHeader& h = header_;
  const auto le = static_cast<std::uint32_t>(get_i32(first, false));
  const auto be = static_cast<std::uint32_t>(get_i32(first, true));
  std::uint64_t le8, be8;
  std::memcpy(&le8, first, 8);
  be8 = swap64(le8);
  if ((le == 84 || be == 84) && std::memcmp(first + 4, "CORD", 4) == 0) {
    h.marker_bytes = 4;
    h.big_endian = le != 84;
  } else if ((le8 == 84 || be8 == 84) && std::memcmp(first + 8, "CORD", 4) == 0) {
    h.marker_bytes = 8;
    h.big_endian = le8 != 84;
  } else {
    fail(0, fmt::format("not a DCD file: expected a record marker 84 (either byte order, 4 or 8 bytes) followed by "
                        "'CORD', found bytes {:02x}",
                        fmt::join(first, first + 12, " ")));
  }
  if (std::fseek(in_, h.marker_bytes, SEEK_SET) != 0) fail(0, "seek failed");
  offset_ = h.marker_bytes;
  unsigned char hdr[84];
  read_exact(hdr, 84, 0, "header record");
  read_record_end(84, "header record");
  const bool big = h.big_endian;
  const auto icntrl = [&](int i) { return get_i32(hdr + 4 + 4 * i, big); };
  h.nframes = icntrl(0);
  h.istart = icntrl(1);
  h.nsavc = icntrl(2);
  h.charmm_version = icntrl(19);
  const std::int32_t nfixed = icntrl(8);
  // CHARMM puts its version in ICNTRL(20); X-PLOR leaves it 0 and stores DELTA as a double
  // over ICNTRL(10..11), without the unit cell and 4D flags.
  if (h.charmm_version != 0) {
    h.delta = get_f32(hdr + 40, big);
    h.has_unit_cell = icntrl(10) != 0;
    h.has_4d = icntrl(11) == 1;
  } else {
    h.delta = get_f64(hdr + 40, big);
  }

  std::int64_t at = offset_;
  const std::uint64_t title_len = read_marker(at, "title record");
  if (title_len < 4 || title_len > (1u << 20))
    fail(at, fmt::format("title record marker {} is not 4 + 80 * (number of title lines)", title_len));
  unsigned char ntitle_bytes[4];
  read_exact(ntitle_bytes, 4, at, "title record");
  std::string text(title_len - 4, '\0');
  read_exact(text.data(), text.size(), at, "title record");
  read_record_end(title_len, "title record");
  for (std::size_t i = 0; i < text.size(); i += 80) {
    std::string line = text.substr(i, 80);
    line.erase(std::find(line.begin(), line.end(), '\0'), line.end());
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!h.title.empty()) h.title += '\n';
    h.title += line;
  }
  h.lammps = h.title.find("LAMMPS") != std::string::npos;

  at = offset_;
  const std::uint64_t natoms_len = read_marker(at, "atom count record");
  if (natoms_len != 4) fail(at, fmt::format("expected the atom count record (marker 4), found marker {}", natoms_len));
  unsigned char nb[4];
  read_exact(nb, 4, at, "atom count record");
  read_record_end(4, "atom count record");
  const std::int32_t natoms = get_i32(nb, big);
  if (natoms <= 0) fail(at, fmt::format("atom count {} is not positive", natoms));
  h.natoms = static_cast<std::size_t>(natoms);

  if (nfixed != 0) {
    if (nfixed < 0 || nfixed >= natoms)
      fail(4 + 4 + 4 * 8, fmt::format("number of fixed atoms {} is outside 0..{}", nfixed, natoms - 1));
    const auto nfree = static_cast<std::size_t>(natoms - nfixed);
    at = offset_;
    const std::uint64_t len = read_marker(at, "free atom index record");
    if (len != nfree * 4)
      fail(at, fmt::format("record marker {} does not match (natoms - fixed atoms)*4 = {} (free atom index record)", len,
                           nfree * 4));
    std::vector<unsigned char> raw(nfree * 4);
    read_exact(raw.data(), raw.size(), at, "free atom index record");
    read_record_end(len, "free atom index record");
    h.free_atoms.resize(nfree);
    for (std::size_t i = 0; i < nfree; ++i) {
      h.free_atoms[i] = get_i32(raw.data() + 4 * i, big);
      if (h.free_atoms[i] < 1 || h.free_atoms[i] > natoms)
        fail(at, fmt::format("free atom index {} is outside 1..{}", h.free_atoms[i], natoms));
    }
  }
  h.header_bytes = offset_;
  in_header_ = false;
}

void DcdReader::read_coordinates(std::vector<float>& into, std::size_t count, const char* what) {
  const std::int64_t at = offset_;
  const std::uint64_t len = read_marker(at, what);
  if (len != count * 4) {
    const bool fixed = !header_.free_atoms.empty() && count != header_.natoms;
    fail(at, fmt::format("record marker {} does not match {}*4 = {} ({})", len, fixed ? "free atoms" : "natoms", count * 4,
                         what));
  }
  into.resize(count);
  read_exact(into.data(), count * 4, at, what);
  if (header_.big_endian)
    for (float& v : into) v = std::bit_cast<float>(swap32(std::bit_cast<std::uint32_t>(v)));
  read_record_end(len, what);
}

bool DcdReader::next(core::Frame& frame) {
  if (file_size_ >= 0 ? offset_ >= file_size_ : std::feof(in_) != 0) return false;
  const DcdHeader& h = header_;
  std::array<std::array<double, 3>, 3> box{};
  if (h.has_unit_cell) {
    const std::int64_t at = offset_;
    const std::uint64_t len = read_marker(at, "unit cell record");
    if (len == 48) {
      unsigned char raw[48];
      read_exact(raw, 48, at, "unit cell record");
      double uc[6];
      for (int i = 0; i < 6; ++i) uc[i] = get_f64(raw + 8 * i, h.big_endian);
      box = box_from_unit_cell(uc);
    } else {
      // VMD and MDAnalysis skip an extra block of another size; so do we.
      skip(len, at, "unit cell record");
    }
    read_record_end(len, "unit cell record");
  }
  const std::size_t n = h.natoms;
  const bool only_free = !h.free_atoms.empty() && frame_ > 0;
  frame.resize(n);
  static constexpr const char* names[3] = {"X coordinates", "Y coordinates", "Z coordinates"};
  std::vector<double>* out[3] = {&frame.x, &frame.y, &frame.z};
  for (int d = 0; d < 3; ++d) {
    auto& dst = *out[d];
    if (only_free) {
      read_coordinates(buf_, h.free_atoms.size(), names[d]);
      for (std::size_t i = 0; i < n; ++i) dst[i] = fixed_[d][i];
      for (std::size_t i = 0; i < h.free_atoms.size(); ++i)
        dst[static_cast<std::size_t>(h.free_atoms[i] - 1)] = buf_[i];
    } else {
      read_coordinates(buf_, n, names[d]);
      for (std::size_t i = 0; i < n; ++i) dst[i] = buf_[i];
      if (!h.free_atoms.empty()) fixed_[d] = buf_;  // fixed atoms keep these positions
    }
  }
  if (h.has_4d) {
    const std::int64_t at = offset_;
    const std::uint64_t len = read_marker(at, "4th dimension record");
    skip(len, at, "4th dimension record");
    read_record_end(len, "4th dimension record");
  }
  frame.box = box;
  frame.step = h.istart + frame_ * h.nsavc;
  frame.time = static_cast<double>(frame.step) * h.delta * (h.lammps ? 1.0 : akma_ps);
  frame.vx.clear(), frame.vy.clear(), frame.vz.clear();
  frame.fx.clear(), frame.fy.clear(), frame.fz.clear();
  frame.scalars.clear();
  ++frame_;
  return true;
}

std::unique_ptr<TrajectoryReader> open_dcd(const std::filesystem::path& path) {
  return std::make_unique<DcdReader>(path);
}

namespace {

void put32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
void put_i32(std::string& out, std::int32_t v) { put32(out, static_cast<std::uint32_t>(v)); }
void put_f32(std::string& out, float v) { put32(out, std::bit_cast<std::uint32_t>(v)); }

std::string padded(std::string s) {
  s.resize(80, ' ');
  return s;
}

class DcdWriter final : public TrajectoryWriter {
 public:
  DcdWriter(const std::filesystem::path& path, std::size_t natoms, double timestep_ps)
      : file_(path), natoms_(natoms), timestep_ps_(timestep_ps) {
    if (natoms == 0 || natoms > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() / 4))
      throw Error(fmt::format("{}: a DCD file holds 1 to {} atoms, not {}", path.string(),
                              std::numeric_limits<std::int32_t>::max() / 4, natoms));
    if (!(timestep_ps >= 0.0) || !std::isfinite(timestep_ps))
      throw Error(fmt::format("{}: DCD time step must be positive (or 0 to take it from the frames), not {}", path.string(),
                              timestep_ps));
    file_.stream() << header(0, 0, 1, 1.0);
  }

  void write(const core::Frame& f) override {
    if (closed_) throw Error(file_.path().string() + ": write after close");
    if (f.natoms() != natoms_)
      throw Error(fmt::format("{}: frame {} has {} atoms, but the DCD file was opened for {}", file_.path().string(),
                              nframes_, f.natoms(), natoms_));
    if (nframes_ == 0) {
      step0_ = f.step;
      time0_ = f.time;
    } else if (nframes_ == 1) {
      stride_ = f.step - step0_;
      time1_ = f.time;
    } else if (f.step - last_step_ != stride_) {
      even_ = false;
    }
    last_step_ = f.step;
    ++nframes_;

    std::string out;
    out.reserve(4 * (2 + natoms_ + 2) * 3 + 56);
    // Unit cell as NAMD and LAMMPS write it: lengths and angle cosines, 0 for exactly 90
    // degrees so readers get 90 back exactly.
    double uc[6] = {0, 0, 0, 0, 0, 0};
    if (f.has_box()) {
      const auto la = core::box_lengths_angles(f.box);
      const auto cosine = [](double deg) { return deg == 90.0 ? 0.0 : std::cos(deg * std::numbers::pi / 180.0); };
      uc[0] = la[0];
      uc[1] = cosine(la[5]);
      uc[2] = la[1];
      uc[3] = cosine(la[4]);
      uc[4] = cosine(la[3]);
      uc[5] = la[2];
    }
    put_i32(out, 48);
    out.append(reinterpret_cast<const char*>(uc), 48);
    put_i32(out, 48);
    const auto bytes = static_cast<std::int32_t>(natoms_ * 4);
    for (const auto* v : {&f.x, &f.y, &f.z}) {
      put_i32(out, bytes);
      for (double c : *v) put_f32(out, static_cast<float>(c));
      put_i32(out, bytes);
    }
    file_.stream().write(out.data(), static_cast<std::streamsize>(out.size()));
  }

  void close() override {
    if (closed_) return;
    closed_ = true;
    const bool steps_usable = nframes_ < 2 || (even_ && stride_ > 0);
    const std::int64_t istart = nframes_ == 0 ? 0 : (steps_usable ? step0_ : 0);
    const std::int64_t nsavc = nframes_ >= 2 && steps_usable ? stride_ : 1;
    double delta = timestep_ps_;
    if (delta == 0.0) {
      delta = 1.0;
      if (nframes_ >= 2 && time1_ > time0_) delta = (time1_ - time0_) / static_cast<double>(nsavc);
      else if (nframes_ == 1 && step0_ > 0 && time0_ > 0) delta = time0_ / static_cast<double>(step0_);
    }
    const std::int64_t last = istart + std::max<std::int64_t>(nframes_, 1) * nsavc;
    constexpr std::int64_t max32 = std::numeric_limits<std::int32_t>::max();
    if (nframes_ > max32 || istart < 0 || istart > max32 || last > max32)
      throw Error(fmt::format("{}: steps {}..{} do not fit the DCD header's 32-bit fields", file_.path().string(), istart,
                              last));
    auto& s = file_.stream();
    const std::string h = header(nframes_, istart, nsavc, delta);
    s.seekp(0);
    s.write(h.data(), static_cast<std::streamsize>(h.size()));
    s.seekp(0, std::ios::end);
    file_.commit();
  }

 private:
  std::string header(std::int64_t nframes, std::int64_t istart, std::int64_t nsavc, double delta_ps) const {
    std::string out;
    put_i32(out, 84);
    out += "CORD";
    std::int32_t icntrl[20] = {};
    icntrl[0] = static_cast<std::int32_t>(nframes);
    icntrl[1] = static_cast<std::int32_t>(istart);
    icntrl[2] = static_cast<std::int32_t>(nsavc);
    icntrl[3] = static_cast<std::int32_t>(istart + nframes * nsavc);  // NSTEP, as VMD's writer
    icntrl[10] = 1;                                                    // a unit cell in every frame
    icntrl[19] = 24;                                                   // CHARMM version 24
    for (int i = 0; i < 20; ++i) {
      if (i == 9) put_f32(out, static_cast<float>(delta_ps / akma_ps));
      else put_i32(out, icntrl[i]);
    }
    put_i32(out, 84);
    put_i32(out, 4 + 2 * 80);
    put_i32(out, 2);
    out += padded("REMARKS written by molstep");
    out += padded(fmt::format("REMARKS {} atoms, positions in angstrom, time step {} ps", natoms_, delta_ps));
    put_i32(out, 4 + 2 * 80);
    put_i32(out, 4);
    put_i32(out, static_cast<std::int32_t>(natoms_));
    put_i32(out, 4);
    return out;
  }

  core::AtomicFile file_;
  std::size_t natoms_;
  double timestep_ps_;
  std::int64_t nframes_ = 0;
  std::int64_t step0_ = 0, last_step_ = 0, stride_ = 0;
  double time0_ = 0, time1_ = 0;
  bool even_ = true;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<TrajectoryWriter> create_dcd(const std::filesystem::path& path, std::size_t natoms, double timestep_ps) {
  return std::make_unique<DcdWriter>(path, natoms, timestep_ps);
}

}  // namespace molstep::io
