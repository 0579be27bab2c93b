// SPDX-License-Identifier: MIT
#pragma once

// XDR (RFC 4506) primitives as GROMACS uses them: big-endian 32-bit ints and IEEE floats,
// 64-bit doubles, and opaque bytes padded to a multiple of 4. Decoding works on memory
// buffers (a whole header or coordinate block is read with one call, then decoded), so the
// hot paths never touch the stream per value.

#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace molstep::io::xdr {

inline std::uint32_t load_u32(const std::uint8_t* p) noexcept {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}
inline std::uint64_t load_u64(const std::uint8_t* p) noexcept {
  return (std::uint64_t{load_u32(p)} << 32) | load_u32(p + 4);
}
inline void store_u32(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}
inline void store_u64(std::uint8_t* p, std::uint64_t v) noexcept {
  store_u32(p, static_cast<std::uint32_t>(v >> 32));
  store_u32(p + 4, static_cast<std::uint32_t>(v));
}

/// Bytes an opaque of `n` bytes occupies in XDR (padded to a multiple of 4).
constexpr std::uint64_t padded(std::uint64_t n) noexcept { return (n + 3) & ~std::uint64_t{3}; }

/// Decodes XDR values from a memory buffer. `base` is the file offset of the buffer's first
/// byte, so offset() is a file offset fit for error messages. Reading past the end throws
/// molstep::Error; callers size-check first and give the user-facing message themselves, so
/// that throw is a safety net, not the normal error path.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size, std::uint64_t base = 0) : data_(data, size), base_(base) {}

  [[nodiscard]] std::uint64_t offset() const noexcept { return base_ + pos_; }
  [[nodiscard]] std::size_t remaining() const noexcept { return data_.size() - pos_; }

  std::int32_t read_int() { return static_cast<std::int32_t>(read_uint()); }
  std::uint32_t read_uint() {
    need(4);
    const auto v = load_u32(data_.data() + pos_);
    pos_ += 4;
    return v;
  }
  float read_float() { return std::bit_cast<float>(read_uint()); }
  double read_double() {
    need(8);
    const auto v = load_u64(data_.data() + pos_);
    pos_ += 8;
    return std::bit_cast<double>(v);
  }
  /// `n` bytes of opaque data; skips the padding after them.
  std::span<const std::uint8_t> read_opaque(std::size_t n);

 private:
  void need(std::size_t n) const;

  std::span<const std::uint8_t> data_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

/// Encodes XDR values, appending to a byte vector that the caller writes out in one piece.
class Writer {
 public:
  void write_int(std::int32_t v) { write_uint(static_cast<std::uint32_t>(v)); }
  void write_uint(std::uint32_t v) { store_u32(grow(4), v); }
  void write_float(float v) { write_uint(std::bit_cast<std::uint32_t>(v)); }
  void write_double(double v) { store_u64(grow(8), std::bit_cast<std::uint64_t>(v)); }
  /// `data` followed by zero padding to a multiple of 4 bytes.
  void write_opaque(std::span<const std::uint8_t> data);

  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }
  void clear() noexcept { bytes_.clear(); }

 private:
  std::uint8_t* grow(std::size_t n) {
    bytes_.resize(bytes_.size() + n);
    return bytes_.data() + bytes_.size() - n;
  }

  std::vector<std::uint8_t> bytes_;
};

/// A binary input file read in blocks, tracking the file offset and size so that readers can
/// say where a frame went wrong and how far the file reaches.
class InputFile {
 public:
  explicit InputFile(const std::filesystem::path& path);

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }
  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
  /// Reads up to `n` bytes into `dst` and returns how many arrived (fewer only at end of file).
  std::size_t read(std::uint8_t* dst, std::size_t n);
  void seek(std::uint64_t offset);

 private:
  struct Closer {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
  };
  std::string name_;
  std::unique_ptr<std::FILE, Closer> file_;
  std::uint64_t offset_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace molstep::io::xdr
