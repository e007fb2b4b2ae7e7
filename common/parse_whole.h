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

// How a whole-string parse went: why a text is not a T, as far as a caller
// needs to tell (the wording of its message).
enum class ParseStatus {
  kOk,
  kNotANumber,  // empty, not a number, or trailing text
  kOutOfRange,  // a number, but not one T can hold ("1e400", "99999999999")
};

// Parses all of `text` into `value` (set only on kOk).
template <class T>
ParseStatus parse_whole_status(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  T parsed{};
  auto [ptr, ec] = std::from_chars(text.data(), end, parsed);
  if (ec == std::errc::result_out_of_range) return ParseStatus::kOutOfRange;
  if (text.empty() || ec != std::errc{} || ptr != end) return ParseStatus::kNotANumber;
  value = parsed;
  return ParseStatus::kOk;
}

// `text` as a T when all of it is one number in T's range, else nullopt.
template <class T>
std::optional<T> try_parse_whole(std::string_view text) {
  T value{};
  if (parse_whole_status(text, value) != ParseStatus::kOk) return std::nullopt;
  return value;
}

// `text` as a T, or std::invalid_argument naming `what` and the value:
// "port: 'abc' is not a number", "port: '99999999999' is out of range".
template <class T>
T parse_whole(std::string_view text, std::string_view what) {
  T value{};
  switch (parse_whole_status(text, value)) {
    case ParseStatus::kOk:
      return value;
    case ParseStatus::kOutOfRange:
      throw std::invalid_argument(std::string(what) + ": '" + std::string(text) +
                                  "' is out of range");
    case ParseStatus::kNotANumber:
      break;
  }
  throw std::invalid_argument(std::string(what) + ": '" + std::string(text) + "' is not a number");
}

}  // namespace schedrig
