#include "agent/knobs/knob.h"

#include <cctype>

#include <fmt/format.h>

#include "agent/knobs/allowlist.h"

namespace schedrig::knobs {
namespace {

std::vector<std::string> names_of(const std::vector<TunableSpec>& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.name);
  return out;
}

[[noreturn]] void unknown(const std::string& kind, const std::string& name,
                          const std::vector<TunableSpec>& list) {
  auto near = close_matches(name, names_of(list));
  throw KnobError(fmt::format("{} '{}' is not on schedrig's allowlist{}", kind, name,
                              near.empty()
                                  ? std::string(" (see `schedrig-agent knobs list`)")
                                  : fmt::format(" (did you mean {}?)", fmt::join(near, ", "))));
}

bool is_feature_token(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!(std::isupper(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return false;
    }
  }
  return true;
}

KnobSetting parse_tunable(KnobKind kind, const std::string& name, const std::string& value,
                          bool has_value, bool value_required) {
  const auto& list = kind == KnobKind::kSysctl ? sysctl_allowlist() : debugfs_allowlist();
  const TunableSpec* spec = find_spec(list, name);
  if (!spec) unknown(kind == KnobKind::kSysctl ? "sysctl" : "debugfs tunable", name, list);
  if (value_required && !has_value) {
    throw KnobError(fmt::format("{}: a value is needed ({}=VALUE)", name, name));
  }
  if (has_value) check_value(*spec, value);
  return {kind, name, value};
}

}  // namespace

const char* kind_name(KnobKind kind) {
  switch (kind) {
    case KnobKind::kFeature:
      return "feature";
    case KnobKind::kSysctl:
      return "sysctl";
    default:
      return "debugfs";
  }
}

KnobSetting parse_knob(const std::string& text, bool value_required) {
  auto eq = text.find('=');
  std::string name = text.substr(0, eq);
  std::string value = eq == std::string::npos ? "" : text.substr(eq + 1);
  bool has_value = eq != std::string::npos;
  if (name.rfind("sched/", 0) == 0)
    return parse_tunable(KnobKind::kDebugfs, name, value, has_value, value_required);
  if (name.find('.') != std::string::npos)
    return parse_tunable(KnobKind::kSysctl, name, value, has_value, value_required);
  if (!is_feature_token(name)) {
    throw KnobError(
        fmt::format("knob '{}' is none of: a sched feature (NAME or NO_NAME, A-Z 0-9 _), a sysctl "
                    "(kernel.NAME=VALUE), a debugfs tunable (sched/NAME=VALUE)",
                    text));
  }
  if (has_value) {
    throw KnobError(fmt::format(
        "feature '{}': write NAME to turn it on, NO_NAME to turn it off, no '='", text));
  }
  if (name.rfind("NO_", 0) == 0) return {KnobKind::kFeature, name.substr(3), "off"};
  return {KnobKind::kFeature, name, value_required ? "on" : ""};
}

std::string knob_text(const KnobSetting& s) {
  if (s.kind == KnobKind::kFeature) return s.value == "off" ? "NO_" + s.name : s.name;
  return s.value.empty() ? s.name : s.name + "=" + s.value;
}

}  // namespace schedrig::knobs
