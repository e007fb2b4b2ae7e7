// Numbers as people read them in tables and progress lines.
#pragma once

#include <string>

namespace schedrig {

// |v| >= 1000 rounds to a whole number with thousands separators
// (123456.7 -> "123,457"); smaller values keep three significant digits
// (12.345 -> "12.3", 0.012345 -> "0.0123", 0 -> "0"); NaN -> "nan",
// infinities -> "inf" / "-inf".
std::string format_number(double v);

}  // namespace schedrig
