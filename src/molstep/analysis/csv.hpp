// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

namespace molstep::analysis {

/// One named column of a CSV table: real numbers or integers (counts).
struct CsvColumn {
  std::string name;
  std::variant<std::vector<double>, std::vector<std::int64_t>> values;

  [[nodiscard]] std::size_t size() const;
};

/// Writes `columns` as a CSV file: the `comments` lines first (each prefixed with "# "), then a
/// header of column names, then one row per entry. Reals are written as the shortest text that
/// reads back to the same double (std::to_chars), so no precision is lost between molstep and a
/// reader of the file. The file appears only when complete (core::AtomicFile). Throws
/// molstep::Error when columns differ in length or a name contains a comma, quote or newline.
void write_csv(const std::filesystem::path& path, const std::vector<CsvColumn>& columns,
               const std::vector<std::string>& comments = {});

/// The shortest round-trip text of `value` ("nan", "inf" and "-inf" for non-finite values).
std::string format_double(double value);

}  // namespace molstep::analysis
