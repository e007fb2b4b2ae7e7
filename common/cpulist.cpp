#include "common/cpulist.h"
#include "common/parse_whole.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace schedrig {
namespace {

constexpr int kMaxCpu = 1 << 16;

int parse_index(std::string_view text, std::string_view token, std::string_view part) {
  const auto value = try_parse_whole<int>(part);
  if (!value || *value < 0 || *value >= kMaxCpu) {
    throw std::invalid_argument(fmt::format(
        "cpulist '{}': bad token '{}' (want N, N-M or N-M:STRIDE, N < {})", text, token, kMaxCpu));
  }
  return *value;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

void add_token(std::string_view text, std::string_view token, std::vector<int>& out) {
  std::string_view range = token;
  int stride = 1;
  if (auto colon = token.find(':'); colon != std::string_view::npos) {
    range = token.substr(0, colon);
    stride = parse_index(text, token, token.substr(colon + 1));
    if (stride == 0)
      throw std::invalid_argument(fmt::format("cpulist '{}': stride 0 in '{}'", text, token));
  }
  auto dash = range.find('-');
  int first = parse_index(text, token, range.substr(0, dash));
  int last =
      dash == std::string_view::npos ? first : parse_index(text, token, range.substr(dash + 1));
  if (last < first) {
    throw std::invalid_argument(
        fmt::format("cpulist '{}': range '{}' runs backwards", text, token));
  }
  for (int cpu = first; cpu <= last; cpu += stride) out.push_back(cpu);
}

}  // namespace

std::vector<int> parse_cpulist(std::string_view text) {
  std::vector<int> out;
  std::string_view rest = trim(text);
  while (!rest.empty()) {
    auto comma = rest.find(',');
    add_token(text, trim(rest.substr(0, comma)), out);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
    if (trim(rest).empty())
      throw std::invalid_argument(fmt::format("cpulist '{}': trailing comma", text));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string format_cpulist(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace schedrig
