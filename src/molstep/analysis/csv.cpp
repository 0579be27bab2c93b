// SPDX-License-Identifier: MIT
#include "molstep/analysis/csv.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "molstep/core/atomic_file.hpp"
#include "molstep/core/error.hpp"

namespace molstep::analysis {

std::size_t CsvColumn::size() const {
  return std::visit([](const auto& v) { return v.size(); }, values);
}

std::string format_double(double value) {
  // to_chars would write "nan"/"-nan"; one spelling keeps the files easy to parse.
  if (std::isnan(value)) return "nan";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return {buffer.data(), result.ptr};
}

void write_csv(const std::filesystem::path& path, const std::vector<CsvColumn>& columns,
               const std::vector<std::string>& comments) {
  const std::size_t rows = columns.empty() ? 0 : columns.front().size();
  for (const auto& column : columns) {
    if (column.name.find_first_of(",\"\n\r") != std::string::npos)
      throw Error("CSV column name '" + column.name + "' contains a comma, quote or line break");
    if (column.size() != rows)
      throw Error("CSV '" + path.string() + "': column '" + column.name + "' has " + std::to_string(column.size()) +
                  " rows, column '" + columns.front().name + "' has " + std::to_string(rows));
  }
  core::AtomicFile file(path);
  auto& out = file.stream();
  for (const auto& line : comments) out << "# " << line << '\n';
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << columns[c].name;
  out << '\n';
  std::string row;
  for (std::size_t r = 0; r < rows; ++r) {
    row.clear();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) row += ',';
      if (const auto* reals = std::get_if<std::vector<double>>(&columns[c].values)) {
        row += format_double((*reals)[r]);
      } else {
        row += std::to_string(std::get<std::vector<std::int64_t>>(columns[c].values)[r]);
      }
    }
    row += '\n';
    out << row;
  }
  file.commit();
}

}  // namespace molstep::analysis
