#include "host/compare/run_data.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace schedrig::compare {
namespace {

// push_unique with a set beside the list, for the 100k-iteration loop.
void push_new(std::vector<std::string>& v, std::unordered_set<std::string>& seen,
              const std::string& s) {
  if (seen.insert(s).second) v.push_back(s);
}

}  // namespace

bool kept(const store::IterationRecord& it, DisturbedPolicy policy) {
  switch (policy) {
    case DisturbedPolicy::kExclude:
      return !it.disturbed;
    case DisturbedPolicy::kOnly:
      return it.disturbed;
    case DisturbedPolicy::kInclude:
      break;
  }
  return true;
}

namespace {

ComparedRun compared_run(const store::RunRecord& run, bool reference) {
  ComparedRun c;
  c.run_id = run.run_id;
  c.reference = reference;
  c.status = run.status;
  c.reason = run.reason;
  c.boot_id = run.boot_id;
  c.planned_iterations = run.planned_iterations;
  c.started = run.started_at_ns != 0 || !run.iterations.empty();
  if (const auto p = run.fingerprint.find("persisted_knobs");
      p != run.fingerprint.end() && p->second != "none")
    c.persisted_knobs = p->second;
  return c;
}

// One run's iterations into `d`, counting in `c` what the policy did.
void add_run(RunData& d, std::unordered_set<std::string>& cases,
             std::unordered_set<std::string>& variants, const store::RunRecord& run,
             std::size_t index, DisturbedPolicy policy, ComparedRun& c) {
  for (const auto& it : run.iterations) {
    push_new(d.cases, cases, it.case_name);
    push_new(d.variants, variants, it.variant);
    CaseData& cd = d.by_case[it.case_name];
    auto& per_metric = cd.by_variant[it.variant];
    const bool ok = it.status == "ok";
    c.ok_iterations += ok ? 1 : 0;
    c.disturbed += ok && it.disturbed ? 1 : 0;
    const bool counted = ok && kept(it, policy);
    c.left_out += ok && !counted ? 1 : 0;
    for (const auto& m : it.metrics) {
      auto [info, added] = cd.info.try_emplace(m.name);
      if (added) cd.metrics.push_back(m.name);
      if (info->second.unit.empty()) info->second.unit = m.unit;
      if (info->second.direction.empty()) info->second.direction = m.direction;
      if (!counted || !std::isfinite(m.value)) continue;
      per_metric[m.name].push_back({index, it.iteration, m.value, &run.boot_id});
    }
  }
}

}  // namespace

void push_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

std::vector<std::string> plan_names(const nlohmann::json& plan, const char* list) {
  std::vector<std::string> out;
  if (!plan.is_object() || !plan.contains(list) || !plan[list].is_array()) return out;
  for (const auto& item : plan[list]) {
    if (item.is_object() && item.contains("name") && item["name"].is_string()) {
      push_unique(out, item["name"].get<std::string>());
    }
  }
  return out;
}

RunData collect(const std::vector<const store::RunRecord*>& runs, DisturbedPolicy policy,
                bool reference, std::vector<ComparedRun>& compared) {
  RunData d;
  for (const auto* run : runs) {
    for (const auto& name : plan_names(run->plan, "cases")) push_unique(d.cases, name);
    for (const auto& name : plan_names(run->plan, "variants")) push_unique(d.variants, name);
  }
  std::unordered_set<std::string> cases(d.cases.begin(), d.cases.end());
  std::unordered_set<std::string> variants(d.variants.begin(), d.variants.end());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ComparedRun c = compared_run(*runs[i], reference);
    add_run(d, cases, variants, *runs[i], i, policy, c);
    compared.push_back(std::move(c));
  }
  return d;
}

Side make_side(const RunData& d, const std::string& run_id, const std::string& case_name,
               const std::string& variant, const std::string& metric) {
  Side side;
  side.run_id = run_id;
  side.variant = variant;
  const std::vector<Point>* found = nullptr;
  if (auto c = d.by_case.find(case_name); c != d.by_case.end()) {
    if (auto v = c->second.by_variant.find(variant); v != c->second.by_variant.end()) {
      if (auto m = v->second.find(metric); m != v->second.end()) found = &m->second;
    }
  }
  if (found) {
    std::vector<Point> points = *found;
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
      return a.run != b.run ? a.run < b.run : a.iteration < b.iteration;
    });
    for (const Point& p : points) {
      side.iterations.push_back(p.iteration);
      side.values.push_back(p.value);
      side.boots.push_back(*p.boot);
    }
  }
  side.analysis = analysis::analyze_series(side.values);
  return side;
}

}  // namespace schedrig::compare
