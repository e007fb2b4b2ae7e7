#include "host/control/api_target.h"

#include <fmt/format.h>

#include "common/parse_whole.h"
#include "common/printable.h"
#include "host/control/api_error.h"

namespace schedrig::control {
namespace {

constexpr std::string_view kPrefix = "/api/v1/";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX escapes (and '+' as a space in the query); nullopt for a bad escape.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+' && plus_is_space) {
      out += ' ';
    } else if (text[i] != '%') {
      out += text[i];
    } else {
      if (i + 2 >= text.size()) return std::nullopt;
      const int hi = hex_digit(text[i + 1]), lo = hex_digit(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    }
  }
  return out;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

}  // namespace

std::optional<ApiTarget> parse_api_target(const std::string& target) {
  std::string_view t = target;
  if (t.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  t.remove_prefix(kPrefix.size());
  const std::size_t q = t.find('?');
  ApiTarget out;
  for (std::string_view seg : split(t.substr(0, q), '/')) {
    auto decoded = percent_decode(seg, false);
    if (!decoded || decoded->empty()) return std::nullopt;
    out.segments.push_back(std::move(*decoded));
  }
  if (q == std::string_view::npos) return out;
  for (std::string_view pair : split(t.substr(q + 1), '&')) {
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    auto key = percent_decode(pair.substr(0, eq), true);
    auto value = percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1), true);
    if (!key || !value) return std::nullopt;
    out.query[*key] = *value;
  }
  return out;
}

long long query_int(const ApiTarget& t, const std::string& key, long long fallback, long long min,
                    long long max) {
  auto it = t.query.find(key);
  if (it == t.query.end()) return fallback;
  auto value = try_parse_whole<long long>(it->second);
  if (!value || *value < min || *value > max) {
    throw ApiError(
        400, fmt::format("{}={}: want an integer in {}..{}", key, printable(it->second), min, max));
  }
  return *value;
}

}  // namespace schedrig::control
