// PlanError and PlanLines (plan_yaml.h): where a plan is wrong, as fields and as one line.
#include <fmt/format.h>

#include "common/plan/plan_yaml.h"

namespace schedrig {
namespace {

// "FILE:LINE: key 'K': value 'V': why", each part left out when unknown.
std::string plan_error_text(const std::string& file, int line, const std::string& key,
                            const std::string& value, const std::string& why) {
  std::string out = line > 0 ? fmt::format("{}:{}: ", file, line) : file + ": ";
  if (!key.empty()) out += fmt::format("key '{}': ", key);
  if (!value.empty()) out += fmt::format("value '{}': ", value);
  return out + why;
}

// The key enclosing `key`: "a.b[2]" -> "a.b", "a.b" -> "a", "a" -> "".
// Plans' sysctl names hold dots, so "…sysctl.kernel.x" walks through
// "…sysctl.kernel", which no plan has, on its way to "…sysctl".
std::string parent_key(const std::string& key) {
  if (!key.empty() && key.back() == ']') {
    const auto open = key.rfind('[');
    if (open != std::string::npos) return key.substr(0, open);
  }
  const auto dot = key.rfind('.');
  return dot == std::string::npos ? "" : key.substr(0, dot);
}

}  // namespace

PlanError::PlanError(std::string file, int line, std::string key, std::string value,
                     const std::string& why, ErrorKind kind)
    : std::runtime_error(plan_error_text(file, line, key, value, why)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)),
      value_(std::move(value)),
      kind_(kind) {}

int PlanLines::line_of(const std::string& key) const {
  for (std::string k = key; !k.empty(); k = parent_key(k)) {
    const auto it = lines.find(k);
    if (it != lines.end()) return it->second;
  }
  return 0;
}

}  // namespace schedrig
