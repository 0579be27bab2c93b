// SPDX-License-Identifier: MIT
#include "molstep/io/xtc_codec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "molstep/io/xdr.hpp"

namespace molstep::io::xtc {

namespace {

__extension__ typedef unsigned __int128 u128;

// Entry i is about 2^(i/3), so three values below it fit in i bits: the widths the small
// differences can take. Part of the format; entries below kFirstIdx are never used.
constexpr std::array<std::int32_t, 73> kMagicInts = {
    0,       0,       0,       0,       0,        0,        0,        0,       0,       8,       10,
    12,      16,      20,      25,      32,       40,       50,       64,      80,      101,     128,
    161,     203,     256,     322,     406,      512,      645,      812,     1024,    1290,    1625,
    2048,    2580,    3250,    4096,    5060,     6501,     8192,     10321,   13003,   16384,   20642,
    26007,   32768,   41285,   52015,   65536,    82570,    104031,   131072,  165140,  208063,  262144,
    330280,  416127,  524287,  660561,  832255,   1048576,  1321122,  1664510, 2097152, 2642245, 3329021,
    4194304, 5284491, 6658042, 8388607, 10568983, 13316085, 16777216};
constexpr int kFirstIdx = 9;
constexpr int kLastIdx = static_cast<int>(kMagicInts.size());  // one past the last usable index
constexpr std::int32_t kMaxAbs = INT_MAX - 2;
// Above this, a product of three sizes would not fit the multi-byte packing, so each
// coordinate gets its own bit field instead.
constexpr std::uint32_t kMaxPackedSize = 0xffffff;

// Bits for the product of three sizes: the width of the packed field of three values.
int packed_width(const std::array<std::uint32_t, 3>& sizes) {
  const u128 p = u128{sizes[0]} * sizes[1] * sizes[2];
  const auto hi = static_cast<std::uint64_t>(p >> 64);
  return hi != 0 ? 64 + std::bit_width(hi) : std::bit_width(static_cast<std::uint64_t>(p));
}

// Splits a packed value into its three parts: the first value is the most significant. In
// corrupt data the first can be huge; it saturates so that the range check still sees it.
template <typename T>
void unpack3(T v, const std::uint32_t* sizes, std::uint32_t* out) {
  out[2] = static_cast<std::uint32_t>(v % sizes[2]);
  v /= sizes[2];
  out[1] = static_cast<std::uint32_t>(v % sizes[1]);
  v /= sizes[1];
  if constexpr (sizeof(T) > sizeof(std::uint32_t)) {
    if (v > T{UINT32_MAX}) v = UINT32_MAX;
  }
  out[0] = static_cast<std::uint32_t>(v);
}

// Reads the stream most significant bit first. Loads 8 bytes at a time, so the buffer must
// have slack after the data; bounds are checked by the caller once per group of atoms.
class BitReader {
 public:
  explicit BitReader(const std::uint8_t* data) : data_(data) {}

  [[nodiscard]] std::uint64_t position() const noexcept { return pos_; }

  std::uint32_t get(int n) {  // 1 <= n <= 32
    const std::uint64_t w = xdr::load_u64(data_ + (pos_ >> 3)) << (pos_ & 7);
    pos_ += static_cast<unsigned>(n);
    return static_cast<std::uint32_t>(w >> (64 - n));
  }

  // Three values packed into one `nbits`-bit number, stored as its bytes from least to most
  // significant (the top byte only as wide as needed), each byte most significant bit first.
  void get3(int nbits, const std::uint32_t* sizes, std::uint32_t* out) {
    if (nbits <= 56) {
      // One 64-bit load holds the whole field (at least 57 valid bits after the shift).
      // Byte-swapping it puts the full bytes in place; the partial top byte is added apart.
      const std::uint64_t w = xdr::load_u64(data_ + (pos_ >> 3)) << (pos_ & 7);
      pos_ += static_cast<unsigned>(nbits);
      const int full = (nbits - 1) / 8;
      const int top = nbits - 8 * full;  // 1..8 bits
      const std::uint64_t low = __builtin_bswap64(w) & ((std::uint64_t{1} << (8 * full)) - 1);
      const std::uint64_t v = low | (((w << (8 * full)) >> (64 - top)) << (8 * full));
      if ((v >> 32) == 0) {
        unpack3(static_cast<std::uint32_t>(v), sizes, out);  // 32-bit division is cheaper
      } else {
        unpack3(v, sizes, out);
      }
      return;
    }
    u128 v = 0;
    int shift = 0;
    while (nbits > 8) {
      v |= u128{get(8)} << shift;
      shift += 8;
      nbits -= 8;
    }
    v |= u128{get(nbits)} << shift;
    if ((v >> 64) == 0) {
      unpack3(static_cast<std::uint64_t>(v), sizes, out);
    } else {
      unpack3(v, sizes, out);
    }
  }

 private:
  const std::uint8_t* data_;
  std::uint64_t pos_ = 0;
};

class BitWriter {
 public:
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) { out_.clear(); }

  void put(std::uint32_t value, int n) {  // 0 <= n <= 32, value < 2^n
    acc_ = (acc_ << n) | value;
    nacc_ += n;
    while (nacc_ >= 8) {
      nacc_ -= 8;
      out_.push_back(static_cast<std::uint8_t>(acc_ >> nacc_));
    }
  }

  // The counterpart of BitReader::get3.
  void put3(int nbits, const std::uint32_t* sizes, const std::uint32_t* nums) {
    u128 v = (u128{nums[0]} * sizes[1] + nums[1]) * sizes[2] + nums[2];
    while (nbits > 8) {
      put(static_cast<std::uint32_t>(v & 0xff), 8);
      v >>= 8;
      nbits -= 8;
    }
    put(static_cast<std::uint32_t>(v), nbits);
  }

  void finish() {
    if (nacc_ > 0) out_.push_back(static_cast<std::uint8_t>(acc_ << (8 - nacc_)));
    nacc_ = 0;
  }

 private:
  std::vector<std::uint8_t>& out_;
  std::uint64_t acc_ = 0;
  int nacc_ = 0;
};

// How the first atom of a group is stored, as its offsets from minint in the full ranges
// `sizes` (maxint - minint + 1): one bit field per coordinate when a range is too large to
// pack, else one field for the three packed together. Decoder and encoder must agree on it.
class FullWidth {
 public:
  explicit FullWidth(const std::array<std::uint32_t, 3>& sizes) : sizes_(sizes) {
    separate_ = std::any_of(sizes.begin(), sizes.end(), [](std::uint32_t s) { return s > kMaxPackedSize; });
    if (separate_) {
      for (int k = 0; k < 3; ++k) bits_[k] = std::bit_width(sizes[k]);
    } else {
      packed_bits_ = packed_width(sizes);
    }
  }

  void read(BitReader& in, std::uint32_t* v) const {
    if (separate_) {
      for (int k = 0; k < 3; ++k) v[k] = in.get(bits_[k]);
    } else {
      in.get3(packed_bits_, sizes_.data(), v);
    }
  }

  void write(BitWriter& out, const std::uint32_t* v) const {
    if (separate_) {
      for (int k = 0; k < 3; ++k) out.put(v[k], bits_[k]);
    } else {
      out.put3(packed_bits_, sizes_.data(), v);
    }
  }

 private:
  std::array<std::uint32_t, 3> sizes_;
  bool separate_ = false;
  std::array<int, 3> bits_{};  // per coordinate, when separate_
  int packed_bits_ = 0;        // otherwise
};

// Arithmetic GROMACS does in (wrapping) int: done in unsigned so it is defined here too, and
// the encoder makes the same choices for far-apart atoms as GROMACS does.
std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
std::int32_t wrap_sq(std::int32_t a) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(a));
}

}  // namespace

void decode(const BlockHeader& h, const std::uint8_t* bits, std::size_t nbytes, std::span<std::int32_t> out) {
  // Header offsets (from the start of the block header) for messages about bad fields.
  constexpr std::size_t kAtPrecision = 0, kAtMinint = 4, kAtSmallidx = 28;
  if (!(h.precision > 0.0f) || !std::isfinite(h.precision)) {
    throw CodecError(kAtPrecision, true, fmt::format("expected a positive precision, found {}", h.precision));
  }
  std::array<std::uint32_t, 3> sizeint{};
  for (int k = 0; k < 3; ++k) {
    const std::int64_t size = std::int64_t{h.maxint[k]} - h.minint[k] + 1;
    if (size < 1) {
      throw CodecError(kAtMinint + 4 * static_cast<std::size_t>(k), true,
                       fmt::format("expected minint[{0}] <= maxint[{0}], found {1} > {2}", k, h.minint[k],
                                   h.maxint[k]));
    }
    sizeint[k] = static_cast<std::uint32_t>(size);
  }
  const FullWidth full(sizeint);
  int smallidx = h.smallidx;
  if (smallidx < kFirstIdx || smallidx >= kLastIdx) {
    throw CodecError(kAtSmallidx, true,
                     fmt::format("expected smallidx in {}..{}, found {}", kFirstIdx, kLastIdx - 1, smallidx));
  }
  std::int32_t smaller = kMagicInts[static_cast<std::size_t>(std::max(kFirstIdx, smallidx - 1))] / 2;
  std::int32_t smallnum = kMagicInts[static_cast<std::size_t>(smallidx)] / 2;
  std::array<std::uint32_t, 3> sizesmall{};
  sizesmall.fill(static_cast<std::uint32_t>(kMagicInts[static_cast<std::size_t>(smallidx)]));

  const std::size_t natoms = out.size() / 3;
  const std::uint64_t end_bit = std::uint64_t{nbytes} * 8;
  BitReader in(bits);
  std::int32_t* dst = out.data();
  std::size_t i = 0;
  int run = 0;
  while (i < natoms) {
    const auto group_start = in.position() / 8;
    std::uint32_t v[3];
    full.read(in, v);
    if (v[0] >= sizeint[0] || v[1] >= sizeint[1] || v[2] >= sizeint[2]) {
      throw CodecError(group_start, false,
                       fmt::format("atom {} lies outside the frame's bounding box (corrupt compressed data)", i));
    }
    std::int32_t prev[3];
    for (int k = 0; k < 3; ++k) prev[k] = wrap_add(h.minint[k], static_cast<std::int32_t>(v[k]));
    ++i;

    int is_smaller = 0;
    if (in.get(1) != 0) {
      run = static_cast<int>(in.get(5));
      is_smaller = run % 3;
      run -= is_smaller;
      --is_smaller;
    }
    if (run > 0) {
      if (i + static_cast<std::size_t>(run / 3) > natoms) {
        throw CodecError(group_start, false,
                         fmt::format("a run of {} atoms after atom {} goes past the {} atoms of the frame",
                                     run / 3, i - 1, natoms));
      }
      for (int k = 0; k < run; k += 3) {
        std::uint32_t d[3];
        in.get3(smallidx, sizesmall.data(), d);
        if (d[0] >= sizesmall[0]) {
          throw CodecError(in.position() / 8, false,
                           fmt::format("atom {} has a difference outside its range (corrupt compressed data)", i));
        }
        std::int32_t c[3];
        for (int m = 0; m < 3; ++m) c[m] = wrap_add(prev[m], static_cast<std::int32_t>(d[m]) - smallnum);
        ++i;
        if (k == 0) {
          // The writer swapped the first two atoms of the run (see the header): the first
          // small difference is the real first atom, and the large value is the second.
          std::swap_ranges(c, c + 3, prev);
          *dst++ = prev[0];
          *dst++ = prev[1];
          *dst++ = prev[2];
        } else {
          std::copy(c, c + 3, prev);
        }
        *dst++ = c[0];
        *dst++ = c[1];
        *dst++ = c[2];
      }
    } else {
      *dst++ = prev[0];
      *dst++ = prev[1];
      *dst++ = prev[2];
    }
    smallidx += is_smaller;
    if (smallidx < kFirstIdx || smallidx >= kLastIdx) {
      throw CodecError(group_start, false,
                       fmt::format("the small-difference width leaves its range at atom {} (corrupt compressed data)",
                                   i - 1));
    }
    if (is_smaller < 0) {
      smallnum = smaller;
      smaller = smallidx > kFirstIdx ? kMagicInts[static_cast<std::size_t>(smallidx - 1)] / 2 : 0;
    } else if (is_smaller > 0) {
      smaller = smallnum;
      smallnum = kMagicInts[static_cast<std::size_t>(smallidx)] / 2;
    }
    sizesmall.fill(static_cast<std::uint32_t>(kMagicInts[static_cast<std::size_t>(smallidx)]));
    if (in.position() > end_bit) {
      throw CodecError(nbytes, false,
                       fmt::format("the compressed data ends inside atom {} of {}", i - 1, natoms));
    }
  }
}

void quantise(std::span<const float> xyz, float precision, std::span<std::int32_t> out) {
  for (std::size_t n = 0; n < xyz.size(); ++n) {
    // Same operations as GROMACS (float product, +-0.5 in double, back to float, truncate),
    // so the integers and hence the bytes agree with files GROMACS writes.
    const float p = xyz[n] * precision;
    const auto lf = static_cast<float>(p >= 0.0f ? static_cast<double>(p) + 0.5 : static_cast<double>(p) - 0.5);
    if (!(std::fabs(static_cast<double>(lf)) <= static_cast<double>(kMaxAbs))) {
      throw CodecError(n / 3, false,
                       fmt::format("coordinate {} of atom {} ({} nm) is not finite or too large for precision {}",
                                   "xyz"[n % 3], n / 3, xyz[n], precision));
    }
    out[n] = static_cast<std::int32_t>(lf);
  }
}

void Encoder::encode(std::span<const std::int32_t> q, BlockHeader& h, std::vector<std::uint8_t>& bits) {
  const std::size_t natoms = q.size() / 3;
  coords_.assign(q.begin(), q.end());  // the water swap reorders atoms in place
  std::int32_t* coord = coords_.data();

  std::array<std::int32_t, 3> minint{INT32_MAX, INT32_MAX, INT32_MAX};
  std::array<std::int32_t, 3> maxint{INT32_MIN, INT32_MIN, INT32_MIN};
  std::int64_t mindiff = INT32_MAX;  // smallest step between consecutive atoms: the first width
  for (std::size_t i = 0; i < natoms; ++i) {
    const std::int32_t* c = coord + 3 * i;
    for (int k = 0; k < 3; ++k) {
      minint[k] = std::min(minint[k], c[k]);
      maxint[k] = std::max(maxint[k], c[k]);
    }
    if (i > 0) {
      const std::int64_t diff = std::llabs(std::int64_t{c[0]} - c[-3]) + std::llabs(std::int64_t{c[1]} - c[-2]) +
                                std::llabs(std::int64_t{c[2]} - c[-1]);
      mindiff = std::min(mindiff, diff);
    }
  }
  std::array<std::uint32_t, 3> sizeint{};
  for (int k = 0; k < 3; ++k) {
    if (static_cast<float>(maxint[k]) - static_cast<float>(minint[k]) >= static_cast<float>(kMaxAbs)) {
      throw CodecError(0, true,
                       fmt::format("coordinates along {} span {} units of 1/precision nm, more than XTC can store",
                                   "xyz"[k], std::int64_t{maxint[k]} - minint[k]));
    }
    sizeint[k] = static_cast<std::uint32_t>(std::int64_t{maxint[k]} - minint[k] + 1);
  }
  const FullWidth full(sizeint);

  // GROMACS lets these indices reach one past the table for atoms more than ~2000 nm apart
  // (reading past its end); here they stop at the last entry, which only matters there.
  int smallidx = kFirstIdx;
  while (smallidx < kLastIdx - 1 && kMagicInts[static_cast<std::size_t>(smallidx)] < mindiff) ++smallidx;
  const int maxidx = std::min(kLastIdx - 1, smallidx + 8);
  const int minidx = maxidx - 8;
  std::int32_t smaller = kMagicInts[static_cast<std::size_t>(std::max(kFirstIdx, smallidx - 1))] / 2;
  std::int32_t smallnum = kMagicInts[static_cast<std::size_t>(smallidx)] / 2;
  std::array<std::uint32_t, 3> sizesmall{};
  sizesmall.fill(static_cast<std::uint32_t>(kMagicInts[static_cast<std::size_t>(smallidx)]));
  const std::int32_t larger = kMagicInts[static_cast<std::size_t>(maxidx)] / 2;

  h.minint = minint;
  h.maxint = maxint;
  h.smallidx = smallidx;

  bits.reserve(q.size() * 4 + 16);
  BitWriter out(bits);
  // In 64 bits: atoms at opposite ends of a range near 2^31 must not overflow.
  const auto near = [](const std::int32_t* a, const std::int32_t* b, std::int32_t limit) {
    return std::llabs(std::int64_t{a[0]} - b[0]) < limit && std::llabs(std::int64_t{a[1]} - b[1]) < limit &&
           std::llabs(std::int64_t{a[2]} - b[2]) < limit;
  };
  std::int32_t prev[3] = {0, 0, 0};
  std::uint32_t small[8 * 3];
  int prevrun = -1;
  std::size_t i = 0;
  while (i < natoms) {
    std::int32_t* c = coord + 3 * i;
    // Whether the small width should grow (next atoms far) or shrink (they are close).
    int is_smaller = 0;
    if (smallidx < maxidx && i >= 1 && near(c, prev, larger)) {
      is_smaller = 1;
    } else if (smallidx > minidx) {
      is_smaller = -1;
    }
    bool is_small = false;
    if (i + 1 < natoms && near(c, c + 3, smallnum)) {
      std::swap_ranges(c, c + 3, c + 3);  // the water swap: see the header
      is_small = true;
    }
    std::uint32_t v[3];
    for (int k = 0; k < 3; ++k) v[k] = static_cast<std::uint32_t>(std::int64_t{c[k]} - minint[k]);
    full.write(out, v);
    std::copy(c, c + 3, prev);
    ++i;
    c += 3;

    int run = 0;
    if (!is_small && is_smaller == -1) is_smaller = 0;
    while (is_small && run < 8 * 3) {
      if (is_smaller == -1 &&
          wrap_add(wrap_add(wrap_sq(c[0] - prev[0]), wrap_sq(c[1] - prev[1])), wrap_sq(c[2] - prev[2])) >=
              wrap_sq(smaller)) {
        is_smaller = 0;
      }
      for (int k = 0; k < 3; ++k) small[run++] = static_cast<std::uint32_t>(c[k] - prev[k] + smallnum);
      std::copy(c, c + 3, prev);
      ++i;
      c += 3;
      is_small = i < natoms && near(c, prev, smallnum);
    }
    if (run != prevrun || is_smaller != 0) {
      prevrun = run;
      out.put(1, 1);  // the run length or width changes
      out.put(static_cast<std::uint32_t>(run + is_smaller + 1), 5);
    } else {
      out.put(0, 1);
    }
    for (int k = 0; k < run; k += 3) out.put3(smallidx, sizesmall.data(), small + k);
    if (is_smaller != 0) {
      smallidx += is_smaller;
      if (is_smaller < 0) {
        smallnum = smaller;
        smaller = kMagicInts[static_cast<std::size_t>(smallidx - 1)] / 2;
      } else {
        smaller = smallnum;
        smallnum = kMagicInts[static_cast<std::size_t>(smallidx)] / 2;
      }
      sizesmall.fill(static_cast<std::uint32_t>(kMagicInts[static_cast<std::size_t>(smallidx)]));
    }
  }
  out.finish();
}

}  // namespace molstep::io::xtc
