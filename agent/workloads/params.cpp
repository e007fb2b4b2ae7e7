#include "agent/workloads/params.h"

#include <charconv>

#include <fmt/format.h>

namespace schedrig::workloads {

static const std::string& lookup(const std::string& workload, const Params& p,
                                 const std::string& name) {
  auto it = p.find(name);
  if (it == p.end()) {
    throw ParamError(fmt::format("{}: parameter '{}' is required", workload, name));
  }
  return it->second;
}

long long param_int(const std::string& workload, const Params& p, const std::string& name,
                    long long lo, long long hi, long long auto_value) {
  const std::string& text = lookup(workload, p, name);
  if (text == "auto" && auto_value >= 0) return auto_value;
  long long v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi) {
    throw ParamError(fmt::format("{}: parameter '{}' = '{}': must be an integer in [{}, {}]{}",
                                 workload, name, text, lo, hi, auto_value >= 0 ? " or auto" : ""));
  }
  return v;
}

std::string param_choice(const std::string& workload, const Params& p, const std::string& name,
                         std::initializer_list<const char*> choices) {
  const std::string& text = lookup(workload, p, name);
  for (const char* c : choices) {
    if (text == c) return text;
  }
  throw ParamError(fmt::format("{}: parameter '{}' = '{}': must be one of {}", workload, name, text,
                               fmt::join(choices, ", ")));
}

}  // namespace schedrig::workloads
