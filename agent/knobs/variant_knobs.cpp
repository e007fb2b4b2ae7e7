#include "agent/knobs/variant_knobs.h"

#include <map>

#include <fmt/format.h>

namespace schedrig::knobs {

std::vector<WrittenKnob> settings_as_written(const schedrig::v1::Plan& plan, int index) {
  const schedrig::v1::Variant& v = plan.variants(index);
  const std::string key = fmt::format("variants[{}]", index);
  std::vector<WrittenKnob> out;
  auto add = [&](const std::string& text, std::string at, std::string written) {
    try {
      out.push_back({parse_knob(text, true), std::move(at), std::move(written)});
    } catch (const KnobError& e) {
      throw KnobError(fmt::format("variant '{}': {}", v.name(), e.what()));
    }
  };
  for (int j = 0; j < v.features_size(); ++j)
    add(v.features(j), fmt::format("{}.features[{}]", key, j), v.features(j));
  for (const auto& [k, val] : v.sysctl()) add(k + "=" + val, key + ".sysctl." + k, val);
  for (const auto& [k, val] : v.debugfs()) add(k + "=" + val, key + ".debugfs." + k, val);
  return out;
}

namespace {

// name -> setting for plan.variants(index).
std::map<std::string, KnobSetting> settings_of(const schedrig::v1::Plan& plan, int index) {
  std::map<std::string, KnobSetting> out;
  for (auto& k : settings_as_written(plan, index)) out[k.setting.name] = k.setting;
  return out;
}

}  // namespace

std::vector<KnobSetting> variant_settings(const schedrig::v1::Plan& plan, int index) {
  std::map<std::pair<int, std::string>, KnobSetting> all;  // (kind, name) keeps a fixed order
  for (int i = 0; i < plan.variants_size(); ++i) {
    for (auto& [name, s] : settings_of(plan, i))
      all[{static_cast<int>(s.kind), name}] = {s.kind, name, ""};
  }
  for (auto& [name, s] : settings_of(plan, index)) all[{static_cast<int>(s.kind), name}] = s;
  std::vector<KnobSetting> out;
  for (auto& [key, s] : all) out.push_back(s);
  return out;
}

}  // namespace schedrig::knobs
