#include "common/plan/plan_json.h"

#include <map>

#include "common/plan/plan_yaml.h"
#include "common/plan/quiet.h"

namespace schedrig {
namespace {

template <typename Map>
nlohmann::json sorted(const Map& m) {
  return std::map<std::string, std::string>(m.begin(), m.end());
}

nlohmann::json case_json(const v1::Case& c) {
  nlohmann::json j = {{"name", c.name()},
                      {"workload", c.workload()},
                      {"params", sorted(c.params())},
                      {"placement", c.placement()}};
  if (!c.membind().empty()) j["membind"] = c.membind();
  if (c.has_gate()) {
    j["gate"] = {{"metric", c.gate().metric()}, {"threshold_pct", c.gate().threshold_pct()}};
  }
  return j;
}

nlohmann::json variant_json(const v1::Variant& v) {
  nlohmann::json j = {{"name", v.name()}};
  if (v.features_size())
    j["features"] = std::vector<std::string>(v.features().begin(), v.features().end());
  if (v.sysctl_size()) j["sysctl"] = sorted(v.sysctl());
  if (v.debugfs_size()) j["debugfs"] = sorted(v.debugfs());
  if (v.antagonist().duty_pct() > 0)
    j["antagonist"] = {{"cpus", v.antagonist().cpus()}, {"duty_pct", v.antagonist().duty_pct()}};
  return j;
}

// The rule's keys the plan set (0 = unset: the sampler's default applies),
// so the text reads back as the same plan.
nlohmann::json starvation_json(const v1::StarvationRule& s) {
  nlohmann::json j = nlohmann::json::object();
  if (s.idle_after_pct() > 0) j["idle_after_pct"] = s.idle_after_pct();
  if (s.lookahead() > 0) j["lookahead"] = s.lookahead();
  if (s.wait_share_pct() > 0) j["wait_share_pct"] = s.wait_share_pct();
  if (s.idle_pct() > 0) j["idle_pct"] = s.idle_pct();
  return j;
}

}  // namespace

nlohmann::json plan_to_json(const v1::Plan& plan) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : plan.cases()) cases.push_back(case_json(c));
  nlohmann::json variants = nlohmann::json::array();
  for (const auto& v : plan.variants()) variants.push_back(variant_json(v));
  nlohmann::json j = {{"name", plan.name()},
                      {"iterations", plan.iterations()},
                      {"duration_s", static_cast<double>(plan.duration_ns()) / 1e9},
                      {"warmup_s", static_cast<double>(plan.warmup_ns()) / 1e9},
                      {"cooldown_s", static_cast<double>(plan.cooldown_ns()) / 1e9},
                      {"order", order_name(plan.order())},
                      {"seed", plan.seed()},
                      {"sample_hz", plan.sample_hz()},
                      {"quiet",
                       {{"max_runnable", plan.quiet().max_runnable()},
                        {"hold_s", plan.quiet().hold_s()},
                        {"timeout_s", plan.quiet().timeout_s()},
                        {"retries", quiet_retries(plan.quiet())},
                        {"disturbance", quiet_disturbance(plan.quiet())},
                        {"other_cpu_pct", quiet_other_cpu_pct(plan.quiet())}}},
                      {"starvation", starvation_json(plan.starvation())},
                      {"labels", sorted(plan.labels())},
                      {"cases", cases},
                      {"variants", variants}};
  if (plan.iteration_stop().min() > 0) {
    const auto& stop = plan.iteration_stop();
    j["iterations"] = {{"min", stop.min()},
                       {"max", stop.max()},
                       {"stop", "verdict"},
                       {"delta_pct", stop.delta_pct()}};
  }
  return j;
}

}  // namespace schedrig
