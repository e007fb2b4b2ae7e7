#include "agent/tools/tool_text.h"

#include <algorithm>

#include <locale.h>
#include <cstdlib>

#include "common/printable.h"

namespace schedrig::tools {
namespace {

constexpr std::size_t kQuotedBytes = 600;

// strtod in the C locale: tools print "6984.77" whatever the agent's locale.
double c_strtod(const char* text, char** end) {
  static const locale_t c_locale = ::newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
  return ::strtod_l(text, end, c_locale);
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::string percentile_label(const std::string& number) {
  std::string n = number;
  if (n.find('.') != std::string::npos) {
    n.erase(n.find_last_not_of('0') + 1);
    if (n.back() == '.') n.pop_back();
  }
  for (char& c : n) {
    if (c == '.') c = '_';
  }
  return "p" + n;
}

double to_double(const std::string& text) { return c_strtod(text.c_str(), nullptr); }

std::optional<double> number_after(const std::string& line, const std::string& prefix) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line.compare(start, prefix.size(), prefix) != 0) {
    return std::nullopt;
  }
  const char* begin = line.c_str() + start + prefix.size();
  char* end = nullptr;
  const double v = c_strtod(begin, &end);
  if (end == begin) return std::nullopt;
  return v;
}

std::string quote_tail(const std::string& output) {
  std::string t = trimmed(output);
  if (t.empty()) return "(no output)";
  if (t.size() > kQuotedBytes) t = "..." + t.substr(t.size() - kQuotedBytes);
  return "'" + printable(t) + "'";
}

void for_each_line(const std::string& text,
                   const std::function<void(const std::string&)>& on_line) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::size_t len = end - start;
    if (len > 0 && text[start + len - 1] == '\r') --len;
    on_line(text.substr(start, std::min(len, kMaxToolLineBytes)));
    start = end + 1;
  }
}

}  // namespace schedrig::tools
