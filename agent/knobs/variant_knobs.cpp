#include "agent/knobs/variant_knobs.h"

#include <map>

#include <fmt/format.h>

namespace schedrig::knobs {
namespace {

// name -> setting for one variant, parsed with the console syntax.
std::map<std::string, KnobSetting> settings_of(const schedrig::v1::Variant& v) {
  std::map<std::string, KnobSetting> out;
  auto add = [&](const std::string& text) {
    try {
      KnobSetting s = parse_knob(text, true);
      out[s.name] = s;
    } catch (const KnobError& e) {
      throw KnobError(fmt::format("variant '{}': {}", v.name(), e.what()));
    }
  };
  for (const auto& f : v.features()) add(f);
  for (const auto& [k, val] : v.sysctl()) add(k + "=" + val);
  for (const auto& [k, val] : v.debugfs()) add(k + "=" + val);
  return out;
}

}  // namespace

std::vector<KnobSetting> variant_settings(const schedrig::v1::Plan& plan, int index) {
  std::map<std::pair<int, std::string>, KnobSetting> all;  // (kind, name) keeps a fixed order
  for (const auto& v : plan.variants()) {
    for (auto& [name, s] : settings_of(v))
      all[{static_cast<int>(s.kind), name}] = {s.kind, name, ""};
  }
  for (auto& [name, s] : settings_of(plan.variants(index)))
    all[{static_cast<int>(s.kind), name}] = s;
  std::vector<KnobSetting> out;
  for (auto& [key, s] : all) out.push_back(s);
  return out;
}

}  // namespace schedrig::knobs
