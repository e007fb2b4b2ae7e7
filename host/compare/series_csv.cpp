#include "host/compare/series_csv.h"
#include "common/parse_whole.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>

#include <fmt/format.h>

namespace schedrig::compare {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

// A field without surrounding spaces and, when quoted as a whole, quotes.
std::string field(const std::string& s) {
  std::string t = trim(s);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  return t;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(field(line.substr(start, comma - start)));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

std::vector<NamedSeries> parse_series_csv(std::istream& in, const std::string& name) {
  std::string line;
  std::size_t line_no = 0;
  if (!std::getline(in, line)) {
    throw CsvError(
        fmt::format("{}:1: empty file; expected the header 'variant,iteration,value'", name));
  }
  ++line_no;
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
  const std::vector<std::string> header = split(line);
  if (header != std::vector<std::string>{"variant", "iteration", "value"}) {
    throw CsvError(fmt::format("{}:1: the header must be 'variant,iteration,value', not '{}'", name,
                               trim(line)));
  }
  std::vector<NamedSeries> out;
  std::map<std::string, std::size_t> index;                       // variant -> out index
  std::map<std::pair<std::string, unsigned>, std::size_t> first;  // -> line number
  while (std::getline(in, line)) {
    ++line_no;
    if (trim(line).empty()) continue;
    const std::vector<std::string> f = split(line);
    if (f.size() != 3) {
      throw CsvError(fmt::format("{}:{}: expected 3 fields (variant,iteration,value), found {}",
                                 name, line_no, f.size()));
    }
    if (f[0].empty()) throw CsvError(fmt::format("{}:{}: the variant is empty", name, line_no));
    const auto iteration = try_parse_whole<unsigned>(f[1]);
    if (!iteration || *iteration < 1) {
      throw CsvError(
          fmt::format("{}:{}: iteration '{}' is not a whole number >= 1", name, line_no, f[1]));
    }
    double value = 0;
    {
      // CSV writers put a '+' on positive numbers; from_chars takes none.
      const std::string_view text = std::string_view(f[2]).substr(f[2].starts_with('+') ? 1 : 0);
      const auto parsed = try_parse_whole<double>(text);
      if (f[2].empty() || !parsed) {
        throw CsvError(fmt::format("{}:{}: value '{}' is not a number", name, line_no, f[2]));
      }
      value = *parsed;
      if (!std::isfinite(value)) {
        throw CsvError(
            fmt::format("{}:{}: value '{}' is not a finite number", name, line_no, f[2]));
      }
    }
    const auto key = std::make_pair(f[0], *iteration);
    if (auto seen = first.find(key); seen != first.end()) {
      throw CsvError(fmt::format("{}:{}: variant '{}' iteration {} already appears on line {}",
                                 name, line_no, f[0], *iteration, seen->second));
    }
    first.emplace(key, line_no);
    auto [it, inserted] = index.emplace(f[0], out.size());
    if (inserted) out.push_back(NamedSeries{f[0], {}, {}});
    out[it->second].values.push_back(value);
    out[it->second].iterations.push_back(*iteration);
  }
  if (out.empty()) {
    throw CsvError(fmt::format("{}: no data lines after the header", name));
  }
  for (NamedSeries& s : out) {  // iteration order
    std::vector<std::size_t> order(s.values.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return s.iterations[a] < s.iterations[b]; });
    NamedSeries sorted{s.name, {}, {}};
    for (std::size_t i : order) {
      sorted.values.push_back(s.values[i]);
      sorted.iterations.push_back(s.iterations[i]);
    }
    s = std::move(sorted);
  }
  return out;
}

std::vector<NamedSeries> read_series_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CsvError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  return parse_series_csv(in, path);
}

}  // namespace schedrig::compare
