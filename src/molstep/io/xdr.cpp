// SPDX-License-Identifier: MIT
#include "molstep/io/xdr.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "molstep/core/error.hpp"

namespace molstep::io::xdr {

std::span<const std::uint8_t> Reader::read_opaque(std::size_t n) {
  const auto total = static_cast<std::size_t>(padded(n));
  need(total);
  const auto out = data_.subspan(pos_, n);
  pos_ += total;
  return out;
}

void Reader::need(std::size_t n) const {
  if (n > remaining()) {
    throw Error(fmt::format("XDR data at byte {} needs {} bytes, only {} left in the buffer", offset(), n,
                            remaining()));
  }
}

void Writer::write_opaque(std::span<const std::uint8_t> data) {
  const auto total = static_cast<std::size_t>(padded(data.size()));
  auto* p = grow(total);
  if (!data.empty()) std::memcpy(p, data.data(), data.size());
  std::fill(p + data.size(), p + total, std::uint8_t{0});
}

InputFile::InputFile(const std::filesystem::path& path) : name_(path.string()) {
  file_.reset(std::fopen(name_.c_str(), "rb"));
  if (!file_) throw Error(fmt::format("cannot open '{}' for reading: {}", name_, std::strerror(errno)));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  // A pipe or device has no size; "file ends at" messages then give the bytes read so far.
  size_ = ec ? 0 : size;
}

std::size_t InputFile::read(std::uint8_t* dst, std::size_t n) {
  const auto got = std::fread(dst, 1, n, file_.get());
  offset_ += got;
  if (got < n && std::ferror(file_.get())) {
    throw Error(fmt::format("{}: read error at byte {}: {}", name_, offset_, std::strerror(errno)));
  }
  size_ = std::max(size_, offset_);
  return got;
}

void InputFile::seek(std::uint64_t offset) {
  if (::fseeko(file_.get(), static_cast<off_t>(offset), SEEK_SET) != 0) {
    throw Error(fmt::format("{}: cannot seek to byte {}: {}", name_, offset, std::strerror(errno)));
  }
  std::clearerr(file_.get());
  offset_ = offset;
}

}  // namespace molstep::io::xdr
