#include "host/plan_check/knob_check.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "agent/knobs/features.h"
#include "agent/knobs/knob.h"

namespace schedrig::plan_check {
namespace {

// The Hello capability that says whether `s` can be changed, or nullptr.
// Hello names sysctls and tunables as plans do and has one capability for
// every feature, the features file, named "sched_features".
const schedrig::v1::KnobCapability* capability_of(const schedrig::v1::Hello& hello,
                                                  const knobs::KnobSetting& s) {
  const std::string name = s.kind == knobs::KnobKind::kFeature ? "sched_features" : s.name;
  for (const auto& cap : hello.knobs()) {
    if (cap.name() == name) return &cap;
  }
  return nullptr;
}

// "EACCES", or the errno's number when this libc has no name for it.
std::string errno_name(int err) {
  if (err == 0) return "not writable";
  const char* name = strerrorname_np(err);
  return name ? name : fmt::format("errno {}", err);
}

// A feature the agent's kernel does not list. An agent that sent no names
// (an older one) is left to its own check at run time.
void check_feature_known(const std::string& name, const schedrig::v1::KnobCapability& cap,
                         const std::string& key, const std::string& value, const PlanBlame& blame) {
  if (cap.features().empty()) return;
  const std::vector<std::string> names(cap.features().begin(), cap.features().end());
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  blame.fail(key, value, knobs::unknown_feature(name, names, cap.path()));
}

// One plan entry (`text` in parse_knob's syntax) at `key` with `value`.
void check_entry(const std::string& text, const std::string& key, const std::string& value,
                 const schedrig::v1::Hello& hello, const PlanBlame& blame) {
  knobs::KnobSetting s;
  try {
    s = knobs::parse_knob(text, true);
  } catch (const knobs::KnobError& e) {
    blame.fail(key, value, e.what());
  }
  const std::string what = fmt::format("{} {}", knobs::kind_name(s.kind), knobs::knob_text(s));
  const schedrig::v1::KnobCapability* cap = capability_of(hello, s);
  if (!cap) {
    blame.fail(key, value, what + " is not among the knobs this agent reports",
               "version " + hello.agent_version());
  }
  if (!cap->readable() || !cap->writable()) {
    blame.fail(key, value, what + " cannot be changed on this agent",
               fmt::format("{}: {}", cap->path(), errno_name(cap->errno_value())),
               ErrorKind::kUnreachable);
  }
  if (s.kind == knobs::KnobKind::kFeature) check_feature_known(s.name, *cap, key, value, blame);
}

void check_variant(const schedrig::v1::Variant& v, int index, const schedrig::v1::Hello& hello,
                   const PlanBlame& blame) {
  const std::string key = fmt::format("variants[{}]", index);
  for (int j = 0; j < v.features_size(); ++j) {
    check_entry(v.features(j), fmt::format("{}.features[{}]", key, j), v.features(j), hello, blame);
  }
  for (const auto& [name, value] : v.sysctl())
    check_entry(name + "=" + value, key + ".sysctl." + name, value, hello, blame);
  for (const auto& [name, value] : v.debugfs())
    check_entry(name + "=" + value, key + ".debugfs." + name, value, hello, blame);
}

}  // namespace

void check_knobs(const schedrig::v1::Plan& plan, const schedrig::v1::Hello& hello,
                 const PlanBlame& blame) {
  for (int i = 0; i < plan.variants_size(); ++i) check_variant(plan.variants(i), i, hello, blame);
}

}  // namespace schedrig::plan_check
