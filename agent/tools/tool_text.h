// Small readers shared by the tools' output parsers (agent/tools/*_output.h).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace schedrig::tools {

// "99.0" -> "p99", "99.9000" -> "p99_9", "20" -> "p20": a percentile as
// metric names spell it.
std::string percentile_label(const std::string& number);

// `text` as a double (strtod, C locale: a tool's "6984.77"); 0 when it does
// not start with a number.
double to_double(const std::string& text);

// The number right after `prefix` when `line` starts with it (leading blanks
// skipped): number_after("average rps: 6984.77", "average rps: ") = 6984.77.
std::optional<double> number_after(const std::string& line, const std::string& prefix);

// Longest line the parsers read; the rest of a longer line is dropped (a
// tool's report lines are short; std::regex recurses per character).
inline constexpr std::size_t kMaxToolLineBytes = 4096;

// Calls `on_line` with each line of `text`: split at '\n', a trailing '\r'
// removed, clipped to kMaxToolLineBytes.
void for_each_line(const std::string& text, const std::function<void(const std::string&)>& on_line);

// The last 600 bytes of a tool's output, trimmed and escaped for a terminal
// (printable()), for an error that quotes it; "(no output)" when empty.
std::string quote_tail(const std::string& output);

}  // namespace schedrig::tools
