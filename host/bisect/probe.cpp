#include "host/bisect/probe.h"

#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schedrig::bisect {
namespace {

const v1::Case& find_case(const v1::Plan& base, const std::string& case_name) {
  std::vector<std::string> names;
  for (const auto& c : base.cases()) {
    if (c.name() == case_name) return c;
    names.push_back(c.name());
  }
  throw std::invalid_argument(
      fmt::format("the plan has no case '{}' (it has: {})", case_name, fmt::join(names, ", ")));
}

// The judged metric's value in `it` and its record, or nullptr.
const store::MetricRecord* metric_of(const store::IterationRecord& it, const std::string& metric) {
  if (it.status != "ok" || it.metrics.empty()) return nullptr;
  if (metric.empty()) return &it.metrics.front();
  for (const auto& m : it.metrics)
    if (m.name == metric) return &m;
  return nullptr;
}

}  // namespace

v1::Plan probe_plan(const v1::Plan& base, const std::string& case_name,
                    const std::vector<const Candidate*>& flips, const stats::SequentialRule& rule) {
  stats::check_rule(rule);
  v1::Plan plan = base;
  plan.clear_cases();
  *plan.add_cases() = find_case(base, case_name);
  plan.clear_variants();
  plan.add_variants()->set_name(kAsFound);
  v1::Variant& flipped = *plan.add_variants();
  flipped.set_name(kFlipped);
  for (const Candidate* c : flips) {
    for (const auto& f : c->features) flipped.add_features(f);
    for (const auto& [k, v] : c->sysctl) (*flipped.mutable_sysctl())[k] = v;
    for (const auto& [k, v] : c->debugfs) (*flipped.mutable_debugfs())[k] = v;
  }
  plan.set_order(v1::ORDER_INTERLEAVED);
  plan.set_iterations(static_cast<unsigned>(rule.max_pairs));
  auto& stop = *plan.mutable_iteration_stop();
  stop.set_min(static_cast<unsigned>(rule.min_pairs));
  stop.set_max(static_cast<unsigned>(rule.max_pairs));
  stop.set_delta_pct(rule.delta_pct);
  return plan;
}

std::string judged_metric(const v1::Plan& base, const std::string& case_name) {
  return find_case(base, case_name).gate().metric();
}

ProbePairs probe_pairs(const store::RunRecord& run, const std::string& metric) {
  std::map<unsigned, double> as_found, flipped;
  std::set<unsigned> disturbed;
  ProbePairs out;
  out.metric = metric;
  for (const auto& it : run.iterations) {
    const store::MetricRecord* m = metric_of(it, metric);
    if (!m) continue;
    if (out.unit.empty()) {
      out.metric = m->name;
      out.unit = m->unit;
      out.direction = m->direction;
    }
    (it.variant == kAsFound ? as_found : flipped)[it.iteration] = m->value;
    if (it.disturbed) disturbed.insert(it.iteration);
  }
  for (const auto& [iteration, value] : as_found) {
    const auto other = flipped.find(iteration);
    if (other == flipped.end()) continue;
    out.as_found.push_back(value);
    out.flipped.push_back(other->second);
    out.disturbed += disturbed.count(iteration) > 0 ? 1 : 0;
  }
  return out;
}

stats::SequentialLook probe_look(const ProbePairs& pairs, const stats::SequentialRule& rule) {
  stats::SequentialLook look = stats::sequential_look(pairs.as_found, pairs.flipped, rule);
  if (look.settled == stats::Settled::kNotYet) look.settled = stats::Settled::kUnsettled;
  return look;
}

}  // namespace schedrig::bisect
