// Numbers, times and labels as people read them in tables.
#pragma once

#include <map>
#include <string>

namespace schedrig::report {

// A measured value for a table: |v| >= 1000 rounds to a whole number with
// thousands separators (123456.7 -> "123,457"); smaller values keep three
// significant digits (12.345 -> "12.3", 0.012345 -> "0.0123", 0 -> "0");
// NaN -> "nan", infinities -> "inf" / "-inf".
std::string format_number(double v);

// ns since the Unix epoch as UTC ISO 8601 to the second,
// "2026-01-01T00:00:00Z"; 0 (never) -> "-".
std::string format_utc(long long ns);

// Labels as "k=v,k=v" in key order; "" when there are none.
std::string format_labels(const std::map<std::string, std::string>& labels);

}  // namespace schedrig::report
