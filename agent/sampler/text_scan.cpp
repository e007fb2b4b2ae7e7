#include "agent/sampler/text_scan.h"

#include <stdexcept>
#include <string>

#include "agent/sampler/sampler_error.h"
#include "common/parse_whole.h"

namespace schedrig::sampler {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool parse_u64(std::string_view s, std::uint64_t& out) {
  const auto v = try_parse_whole<std::uint64_t>(s);
  if (v) out = *v;
  return v.has_value();
}

bool parse_double(std::string_view s, double& out) {
  const auto v = try_parse_whole<double>(s);
  if (v) out = *v;
  return v.has_value();
}

std::uint64_t require_u64(std::string_view s, std::string_view what) {
  std::uint64_t v = 0;
  if (!parse_u64(s, v)) {
    throw parse_error(std::string(what) + ": not a number: '" + std::string(s) + "'");
  }
  return v;
}

std::vector<std::string_view> stat_fields_after_comm(std::string_view text) {
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return {};
  std::string_view rest = text.substr(close + 1);
  return split_fields(rest.substr(0, rest.find('\n')));
}

}  // namespace schedrig::sampler
