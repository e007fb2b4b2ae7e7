#include "agent/runner/schedstats_knob.h"

#include <filesystem>

#include <spdlog/spdlog.h>

namespace schedrig::runner {
namespace {

constexpr const char* kSysctl = "kernel.sched_schedstats";

bool named_by_a_variant(const v1::Plan& plan) {
  for (const auto& v : plan.variants()) {
    if (v.sysctl().count(kSysctl)) return true;
  }
  return false;
}

// 0 now and writable here.
bool off_and_writable(const knobs::KnobController& knobs) {
  const knobs::KnobSetting setting{knobs::KnobKind::kSysctl, kSysctl, "1"};
  try {
    knobs.check({setting});
    return knobs.current({setting}).at(kSysctl) == "0";
  } catch (const std::exception& e) {
    spdlog::info("{} stays as it is: {}", kSysctl, e.what());
    return false;
  }
}

}  // namespace

v1::Plan with_schedstats_on(const v1::Plan& plan, const knobs::KnobController& knobs,
                            const procfs::Root& root) {
  if (plan.sample_hz() <= 0 || named_by_a_variant(plan)) return plan;
  std::error_code ec;
  if (!std::filesystem::exists(root.path("proc/schedstat"), ec)) return plan;
  if (!off_and_writable(knobs)) return plan;
  v1::Plan out = plan;
  const std::string on = "1";
  for (auto& v : *out.mutable_variants()) v.mutable_sysctl()->insert({kSysctl, on});
  spdlog::info("{} set to 1 for the run (schedstat counters), restored after", kSysctl);
  return out;
}

}  // namespace schedrig::runner
