#include "agent/sampler/pressure.h"

#include <stdexcept>
#include <string>

#include "agent/sampler/sampler_error.h"
#include "agent/sampler/text_scan.h"

namespace schedrig::sampler {
namespace {

// "key=value" with the expected key; throws otherwise.
std::string_view value_of(std::string_view field, std::string_view key) {
  if (!field.starts_with(key) || field.size() <= key.size() || field[key.size()] != '=') {
    throw parse_error("pressure: expected " + std::string(key) + "=, got '" + std::string(field) +
                      "'");
  }
  return field.substr(key.size() + 1);
}

double avg(std::string_view field, std::string_view key) {
  double v = 0;
  if (!parse_double(value_of(field, key), v)) {
    throw parse_error("pressure: bad " + std::string(field));
  }
  return v;
}

PressureLine parse_line(const std::vector<std::string_view>& f) {
  if (f.size() != 5) throw parse_error("pressure: expected 4 fields after " + std::string(f[0]));
  PressureLine p;
  p.avg10 = avg(f[1], "avg10");
  p.avg60 = avg(f[2], "avg60");
  p.avg300 = avg(f[3], "avg300");
  p.total_us = require_u64(value_of(f[4], "total"), "pressure total");
  return p;
}

}  // namespace

Pressure parse_pressure(std::string_view text) {
  Pressure out;
  for_each_line(text, [&](std::string_view line) {
    const auto f = split_fields(line);
    if (f.empty()) return;
    if (f[0] == "some") out.some = parse_line(f);
    if (f[0] == "full") out.full = parse_line(f);
  });
  if (!out.some && !out.full) throw parse_error("pressure: no some/full line");
  return out;
}

}  // namespace schedrig::sampler
