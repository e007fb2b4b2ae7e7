#include "host/compare/series_csv.h"
#include "common/parse_whole.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

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

// Reads the first line (a UTF-8 byte order mark dropped) and throws CsvError
// unless it is the header 'variant,iteration,value'.
void read_header(std::istream& in, const std::string& name) {
  std::string line;
  if (!std::getline(in, line)) {
    throw CsvError(
        fmt::format("{}:1: empty file; expected the header 'variant,iteration,value'", name));
  }
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
  const std::vector<std::string> header = split(line);
  if (header != std::vector<std::string>{"variant", "iteration", "value"}) {
    throw CsvError(fmt::format("{}:1: the header must be 'variant,iteration,value', not '{}'", name,
                               trim(line)));
  }
}

// One data line.
struct CsvRow {
  std::string variant;
  unsigned iteration = 0;
  double value = 0;
};

// `text` without the '+' CSV writers put on positive numbers (from_chars
// takes none); only a '+' before a digit or '.' is one, so "+-5" stays bad.
std::string_view without_plus(std::string_view text) {
  const bool plus = text.size() >= 2 && text[0] == '+' &&
                    (std::isdigit(static_cast<unsigned char>(text[1])) || text[1] == '.');
  return text.substr(plus ? 1 : 0);
}

// `text` as a finite number (a leading '+' allowed); throws CsvError naming
// `where` (file:line) otherwise: not a number, out of range ("1e400",
// "1e-400"), or not finite ("inf", "nan").
double parse_value(const std::string& text, const std::string& where) {
  double value = 0;
  const ParseStatus status = parse_whole_status(without_plus(text), value);
  if (status == ParseStatus::kOutOfRange) {
    throw CsvError(fmt::format("{}: value '{}' is out of range", where, text));
  }
  if (text.empty() || status != ParseStatus::kOk) {
    throw CsvError(fmt::format("{}: value '{}' is not a number", where, text));
  }
  if (!std::isfinite(value)) {
    throw CsvError(fmt::format("{}: value '{}' is not a finite number", where, text));
  }
  return value;
}

// Line `line_no` of `name` as variant (non-empty), iteration (a whole
// number >= 1) and value (finite); throws CsvError naming the line.
CsvRow parse_row(const std::string& line, const std::string& name, std::size_t line_no) {
  const std::vector<std::string> f = split(line);
  if (f.size() != 3) {
    throw CsvError(fmt::format("{}:{}: expected 3 fields (variant,iteration,value), found {}", name,
                               line_no, f.size()));
  }
  if (f[0].empty()) throw CsvError(fmt::format("{}:{}: the variant is empty", name, line_no));
  const auto iteration = try_parse_whole<unsigned>(f[1]);
  if (!iteration || *iteration < 1) {
    throw CsvError(
        fmt::format("{}:{}: iteration '{}' is not a whole number >= 1", name, line_no, f[1]));
  }
  const double value = parse_value(f[2], fmt::format("{}:{}", name, line_no));
  return CsvRow{f[0], *iteration, value};
}

// Line of the first appearance of each (variant, iteration).
using FirstLines = std::map<std::pair<std::string, unsigned>, std::size_t>;

// Records `row` as seen on `line_no`; throws CsvError when its variant and
// iteration already appeared.
void check_duplicate(const CsvRow& row, const std::string& name, std::size_t line_no,
                     FirstLines& first) {
  const auto key = std::make_pair(row.variant, row.iteration);
  if (auto seen = first.find(key); seen != first.end()) {
    throw CsvError(fmt::format("{}:{}: variant '{}' iteration {} already appears on line {}", name,
                               line_no, row.variant, row.iteration, seen->second));
  }
  first.emplace(key, line_no);
}

// Closes an fd when it goes out of scope.
struct FdCloser {
  int fd;
  ~FdCloser() { ::close(fd); }
};

// The bytes of the regular file at `path`. Opened O_NONBLOCK and checked
// with fstat, so a FIFO fails at once instead of waiting for a writer, and
// a directory is said to be one; CsvError otherwise.
std::string read_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw CsvError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  const FdCloser closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw CsvError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode)) throw CsvError(fmt::format("{}: is a directory, not a CSV file", path));
  if (!S_ISREG(st.st_mode)) throw CsvError(fmt::format("{}: not a regular file", path));
  std::string bytes;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw CsvError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    if (n == 0) return bytes;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
}

// Values and iterations reordered by iteration.
void sort_by_iteration(NamedSeries& s) {
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

}  // namespace

std::vector<NamedSeries> parse_series_csv(std::istream& in, const std::string& name) {
  read_header(in, name);
  std::vector<NamedSeries> out;
  std::map<std::string, std::size_t> index;  // variant -> out index
  FirstLines first;
  std::string line;
  for (std::size_t line_no = 2; std::getline(in, line); ++line_no) {
    if (trim(line).empty()) continue;
    const CsvRow row = parse_row(line, name, line_no);
    check_duplicate(row, name, line_no, first);
    auto [it, inserted] = index.emplace(row.variant, out.size());
    if (inserted) out.push_back(NamedSeries{row.variant, {}, {}});
    out[it->second].values.push_back(row.value);
    out[it->second].iterations.push_back(row.iteration);
  }
  if (out.empty()) {
    throw CsvError(fmt::format("{}: no data lines after the header", name));
  }
  for (NamedSeries& s : out) sort_by_iteration(s);
  return out;
}

std::vector<NamedSeries> read_series_csv(const std::string& path) {
  std::istringstream in(read_regular_file(path));
  return parse_series_csv(in, path);
}

std::vector<double> read_variant_values(const std::string& path, const std::string& variant,
                                        std::size_t skip) {
  for (NamedSeries& s : read_series_csv(path)) {
    if (s.name != variant) continue;
    if (s.values.size() <= skip)
      throw CsvError(fmt::format("{}: variant '{}' has {} values; more than {} needed", path,
                                 variant, s.values.size(), skip));
    s.values.erase(s.values.begin(), s.values.begin() + static_cast<std::ptrdiff_t>(skip));
    return s.values;
  }
  throw CsvError(fmt::format("{}: no variant '{}'", path, variant));
}

}  // namespace schedrig::compare
