// Small helpers to tokenise /proc text without copying: lines, white-space
// separated fields, and numbers via std::from_chars.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace schedrig::sampler {

// The fields of `line` separated by spaces or tabs, in order.
std::vector<std::string_view> split_fields(std::string_view line);

// The fields of a /proc/PID/stat line after its comm (proc(5)): field 3
// (state) is index 0. The comm may hold spaces and parentheses, so fields
// count after the last ')'; empty when there is none.
std::vector<std::string_view> stat_fields_after_comm(std::string_view text);

// Calls fn(line) for each line of `text` (without the '\n').
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    fn(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

// Whole-field parses; false when `s` is not entirely a number.
bool parse_u64(std::string_view s, std::uint64_t& out);
bool parse_double(std::string_view s, double& out);

// parse_u64 or throw SamplerError (kFailed) naming `what` and the text.
std::uint64_t require_u64(std::string_view s, std::string_view what);

}  // namespace schedrig::sampler
