// SPDX-License-Identifier: MIT
#pragma once

// Whole binary files as bytes, for tests that compare a writer's output with a stored file or
// corrupt a stored file on purpose.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace molstep::test {

inline std::vector<char> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Overwrites the 4 bytes at `at` with `v` big-endian, as XDR stores an int.
inline void put_u32(std::vector<char>& bytes, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) bytes[at + static_cast<std::size_t>(k)] = static_cast<char>(v >> (24 - 8 * k));
}

}  // namespace molstep::test
