#include "agent/workloads/params.h"
#include "common/parse_whole.h"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace schedrig::workloads {

static const std::string& lookup(const std::string& workload, const Params& p,
                                 const std::string& name) {
  auto it = p.find(name);
  if (it == p.end()) {
    throw ParamError(fmt::format("{}: parameter '{}' is required", workload, name), name);
  }
  return it->second;
}

long long param_int(const std::string& workload, const Params& p, const std::string& name,
                    long long lo, long long hi, long long auto_value) {
  const std::string& text = lookup(workload, p, name);
  if (text == "auto" && auto_value >= 0) return auto_value;
  const auto v = try_parse_whole<long long>(text);
  if (!v || *v < lo || *v > hi) {
    throw ParamError(fmt::format("{}: parameter '{}' = '{}': must be an integer in [{}, {}]{}",
                                 workload, name, text, lo, hi, auto_value >= 0 ? " or auto" : ""),
                     name);
  }
  return *v;
}

double param_double(const std::string& workload, const Params& p, const std::string& name,
                    double lo, double hi) {
  const std::string& text = lookup(workload, p, name);
  char* end = nullptr;
  const bool decimal = !text.empty() && text.find_first_of("xXpP \t\n") == std::string::npos;
  const double v = decimal ? std::strtod(text.c_str(), &end) : 0;
  if (!decimal || end != text.c_str() + text.size() || !std::isfinite(v) || v < lo || v > hi) {
    throw ParamError(fmt::format("{}: parameter '{}' = '{}': must be a number in [{}, {}]",
                                 workload, name, text, lo, hi),
                     name);
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
                               fmt::join(choices, ", ")),
                   name);
}

std::string param_membind(const std::string& workload, const Params& p, const std::string& name) {
  const std::string& text = lookup(workload, p, name);
  if (text == "local" || text == "interleave") return text;
  if (text.rfind("node:", 0) == 0) {
    const auto node = try_parse_whole<int>(std::string_view(text).substr(5));
    if (node && *node >= 0 && *node <= 1023) return text;
  }
  throw ParamError(
      fmt::format(
          "{}: parameter '{}' = '{}': must be local, interleave or node:N with N in [0, 1023]",
          workload, name, text),
      name);
}

}  // namespace schedrig::workloads
