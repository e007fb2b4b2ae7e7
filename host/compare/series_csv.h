// Raw per-iteration numbers for `schedrig analyze`: a CSV file with the
// header `variant,iteration,value`, one measurement per line.
#pragma once

#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace schedrig::compare {

// A CSV that cannot be used; the message starts with "NAME:LINE: " (or
// "NAME: " for the file as a whole).
class CsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One variant's values in iteration order.
struct NamedSeries {
  std::string name;
  std::vector<double> values;
  std::vector<unsigned> iterations;  // parallel to values, ascending
};

// Parses the CSV from `in`; `name` labels messages. Rules: the first line is
// exactly `variant,iteration,value` (a UTF-8 BOM, spaces around fields and
// CRLF endings are accepted); every other non-blank line has three fields:
// a non-empty variant, a whole iteration number >= 1, and a finite decimal
// value; a (variant, iteration) pair appears once. Variants come back in the
// order they first appear. Throws CsvError naming the line.
std::vector<NamedSeries> parse_series_csv(std::istream& in, const std::string& name);

// parse_series_csv on the file at `path`; CsvError when it cannot be opened.
std::vector<NamedSeries> read_series_csv(const std::string& path);

}  // namespace schedrig::compare
