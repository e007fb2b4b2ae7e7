// Numbers, times and labels as people read them in tables.
#pragma once

#include <map>
#include <string>

#include "common/number_format.h"

namespace schedrig::report {

// format_number: common/number_format.h (shared with the agent's progress lines).
using ::schedrig::format_number;

// ns since the Unix epoch as UTC ISO 8601 to the second,
// "2026-01-01T00:00:00Z"; 0 (never) -> "-".
std::string format_utc(long long ns);

// As format_utc, to the millisecond: "2026-01-01T00:00:00.250Z"; 0 -> "-".
std::string format_utc_ms(long long ns);

// `text` broken at spaces into lines of at most `width` bytes (a longer word
// stays whole), each after the first starting with `indent`; the lines are
// joined with '\n', no trailing newline. Existing newlines are kept.
std::string wrap_words(const std::string& text, std::size_t width, const std::string& indent);

// `s`, or "-" when it is empty: an unknown value in a text table.
std::string dash_if_empty(const std::string& s);

// A number for a CSV cell: fmt's shortest form, "" when it is not finite
// (NaN: no value; a spreadsheet reads "inf" as text anyway).
std::string csv_number(double v);

// Labels as "k=v,k=v" in key order; "" when there are none.
std::string format_labels(const std::map<std::string, std::string>& labels);

}  // namespace schedrig::report
