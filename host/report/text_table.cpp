#include "host/report/text_table.h"
#include "common/printable.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace schedrig::report {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {
  for (auto& col : columns_) col.header = printable(col.header);  // variant names are remote
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() > columns_.size()) {
    throw std::invalid_argument(
        fmt::format("table row has {} cells for {} columns", cells.size(), columns_.size()));
  }
  cells.resize(columns_.size());
  for (auto& cell : cells) cell = printable(cell);  // remote strings: no raw control bytes
  rows_.push_back(std::move(cells));
}

std::string TextTable::format_line(const std::vector<Column>& columns,
                                   const std::vector<std::size_t>& widths,
                                   std::vector<std::string> cells) {
  for (auto& cell : cells) cell = printable(cell);
  return padded_line(columns, widths, cells);
}

std::string TextTable::padded_line(const std::vector<Column>& columns,
                                   const std::vector<std::size_t>& widths,
                                   const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (c > 0) line += "  ";
    const std::size_t width = c < widths.size() ? widths[c] : 0;
    const std::string& cell = cells[c];
    std::string pad(width > cell.size() ? width - cell.size() : 0, ' ');
    line += columns.at(c).align == Align::kRight ? pad + cell : cell + pad;
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].header.size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  std::vector<std::string> header;
  for (const auto& col : columns_) header.push_back(col.header);
  out << padded_line(columns_, width, header) << '\n';
  for (const auto& row : rows_) out << padded_line(columns_, width, row) << '\n';
}

}  // namespace schedrig::report
