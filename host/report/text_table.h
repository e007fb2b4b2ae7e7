// Aligned plain-text columns: a header row, then rows, each column as wide
// as its widest cell, two spaces apart, no trailing blanks.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace schedrig::report {

class TextTable {
 public:
  enum class Align { kLeft, kRight };
  struct Column {
    std::string header;
    Align align = Align::kLeft;
  };

  // Headers are escaped (common/printable.h): they may name remote strings
  // (a plan's variants).
  explicit TextTable(std::vector<Column> columns);

  // Adds a row; missing cells are blank, extra cells are an error
  // (std::invalid_argument).
  void add_row(std::vector<std::string> cells);

  // Writes the header and every row, each ending in '\n'. Widths count bytes.
  void print(std::ostream& out) const;

  // One line of `cells` (no '\n'), cell c padded to `widths[c]` (a longer
  // cell is kept whole) and aligned as `columns[c]` says, two spaces apart,
  // no trailing blanks. For output that cannot wait for every row (`watch`).
  // `cells` and `widths` have at most columns.size() entries. Cells are
  // escaped (common/printable.h), as add_row's are.
  static std::string format_line(const std::vector<Column>& columns,
                                 const std::vector<std::size_t>& widths,
                                 std::vector<std::string> cells);

 private:
  // format_line for cells already escaped.
  static std::string padded_line(const std::vector<Column>& columns,
                                 const std::vector<std::size_t>& widths,
                                 const std::vector<std::string>& cells);

  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace schedrig::report
