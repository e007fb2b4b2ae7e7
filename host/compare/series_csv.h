// Raw per-iteration numbers for `schedrig analyze`: a CSV file with the
// header `variant,iteration,value`, one measurement per line.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "common/error.h"

namespace schedrig::compare {

// A CSV that cannot be used (ErrorKind::kUsage, exit 2); the message starts
// with "NAME:LINE: " (or "NAME: " for the file as a whole).
class CsvError : public Error {
 public:
  explicit CsvError(const std::string& message) : Error(ErrorKind::kUsage, message) {}
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

// The values of `variant` in the CSV at `path`, the first `skip` (a run's
// ramp-up) left out. CsvError when the file has no such variant or no more
// than `skip` values of it.
std::vector<double> read_variant_values(const std::string& path, const std::string& variant,
                                        std::size_t skip = 0);

}  // namespace schedrig::compare
