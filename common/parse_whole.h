// Whole-string numbers: "42" is 42, while "42x", " 42", "", "+42" and
// out-of-range values are refused. std::from_chars does the parsing
// (integers in base 10, floating point in the general format).
#pragma once

#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace schedrig {

// `text` as a T when all of it is one number in T's range, else nullopt.
template <class T>
std::optional<T> try_parse_whole(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

// `text` as a T, or std::invalid_argument naming `what` and the value:
// "port: 'abc' is not a number", "port: '99999999999' is out of range".
template <class T>
T parse_whole(std::string_view text, std::string_view what) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    throw std::invalid_argument(std::string(what) + ": '" + std::string(text) +
                                "' is out of range");
  }
  if (text.empty() || ec != std::errc{} || ptr != end) {
    throw std::invalid_argument(std::string(what) + ": '" + std::string(text) +
                                "' is not a number");
  }
  return value;
}

}  // namespace schedrig
