#include "host/compare/trend_table.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/analysis/median_ci.h"
#include "host/compare/run_data.h"

namespace schedrig::compare {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The variant a run's trend follows: the one asked, else its plan's first.
std::string variant_of(const store::RunRecord& run, const TrendOptions& o) {
  if (!o.variant.empty()) return o.variant;
  const std::vector<std::string> variants = plan_names(run.plan, "variants");
  return variants.empty() ? "" : variants.front();
}

// The case's metric (the one asked, else its first), its unit and direction
// from the first iteration that has the case; false when none has it.
bool find_metric(const std::vector<store::RunRecord>& runs, const TrendOptions& o, Trend& t) {
  std::vector<std::string> seen;
  for (const auto& run : runs) {
    for (const auto& it : run.iterations) {
      if (it.case_name != o.case_name || it.metrics.empty()) continue;
      for (const auto& m : it.metrics) {
        if (m.name != (o.metric.empty() ? it.metrics.front().name : o.metric)) {
          push_unique(seen, m.name);
          continue;
        }
        t.metric = m.name;
        t.unit = m.unit;
        t.higher_is_better = m.direction != "lower_is_better";
        return true;
      }
    }
  }
  if (seen.empty()) {
    throw CompareError(fmt::format("no run of these has case '{}' with results", o.case_name));
  }
  throw CompareError(fmt::format("case '{}' has no metric '{}' (metrics: {})", o.case_name,
                                 o.metric, fmt::join(seen, ", ")));
}

// Appends `run`'s kept values of the case, metric and variant to `p`.
void add_values(TrendPoint& p, const store::RunRecord& run, const TrendOptions& o,
                const std::string& metric) {
  const std::string variant = variant_of(run, o);
  for (const auto& it : run.iterations) {
    if (it.case_name != o.case_name || it.variant != variant || it.status != "ok") continue;
    if (!kept(it, o.disturbed)) {
      ++p.left_out;
      continue;
    }
    for (const auto& m : it.metrics) {
      if (m.name == metric && std::isfinite(m.value)) p.values.push_back(m.value);
    }
  }
}

bool has_case(const store::RunRecord& run, const std::string& case_name) {
  for (const auto& it : run.iterations) {
    if (it.case_name == case_name) return true;
  }
  return false;
}

std::vector<TrendPoint> points_of(const std::vector<store::RunRecord>& runs, const TrendOptions& o,
                                  const std::string& metric) {
  std::vector<TrendPoint> out;
  for (const auto& run : runs) {
    if (!has_case(run, o.case_name)) continue;
    TrendPoint* p = nullptr;
    if (o.by_kernel) {
      for (auto& q : out) {
        if (q.label == kernel_of(run)) p = &q;
      }
    }
    if (p == nullptr) {
      out.emplace_back();
      p = &out.back();
      p->kernel = run.kernel_release;
      p->label = o.by_kernel ? kernel_of(run) : short_id(run.run_id);
      p->started_at_ns = run.started_at_ns;
    }
    p->run_ids.push_back(run.run_id);
    add_values(*p, run, o, metric);
  }
  return out;
}

// Throws CompareError when `o.variant` is set and no run has it for the case.
void check_variant(const std::vector<store::RunRecord>& runs, const TrendOptions& o) {
  if (o.variant.empty()) return;
  std::vector<std::string> seen;
  for (const auto& run : runs) {
    for (const auto& it : run.iterations) {
      if (it.case_name != o.case_name) continue;
      if (it.variant == o.variant) return;
      push_unique(seen, it.variant);
    }
  }
  throw CompareError(fmt::format("case '{}' has no variant '{}' in these runs (variants: {})",
                                 o.case_name, o.variant, fmt::join(seen, ", ")));
}

bool significant(const analysis::Comparison& c) {
  return c.verdict == analysis::Verdict::kImprovement ||
         c.verdict == analysis::Verdict::kRegression;
}

}  // namespace

std::string kernel_of(const store::RunRecord& run) {
  const auto label = run.labels.find("kernel");
  return label != run.labels.end() && !label->second.empty() ? label->second : run.kernel_release;
}

Trend make_trend(const std::vector<store::RunRecord>& runs, const TrendOptions& o) {
  Trend t;
  t.case_name = o.case_name;
  find_metric(runs, o, t);
  check_variant(runs, o);
  t.points = points_of(runs, o, t.metric);
  analysis::CompareOptions copt;
  copt.method = o.method;
  copt.threshold_pct = o.threshold_pct;
  copt.higher_is_better = t.higher_is_better;
  const TrendPoint* previous = nullptr;
  for (TrendPoint& p : t.points) {
    p.median = p.ci_lo = p.ci_hi = kNaN;
    if (p.values.empty()) continue;
    const analysis::MedianInterval ci = analysis::median_interval(p.values);
    p.median = analysis::summarize(p.values).median;
    p.ci_lo = ci.lo;
    p.ci_hi = ci.hi;
    p.ci_coverage = ci.coverage;
    if (previous != nullptr) {
      p.has_previous = true;
      p.vs_previous = analysis::compare_series(previous->values, p.values, copt);
    }
    previous = &p;
  }
  // Change points: a significant move between two steady levels.
  for (std::size_t i = 1; i < t.points.size(); ++i) {
    TrendPoint& p = t.points[i];
    if (!p.has_previous || !significant(p.vs_previous)) continue;
    if (i + 1 == t.points.size() || t.points[i + 1].values.empty()) continue;
    const TrendPoint& before = t.points[i - 1];
    const TrendPoint& next = t.points[i + 1];
    if (i >= 2 && !t.points[i - 2].values.empty() &&
        significant(analysis::compare_series(t.points[i - 2].values, before.values, copt))) {
      continue;  // the level before was not steady: a return after an odd point
    }
    const analysis::Comparison next_vs_p = analysis::compare_series(p.values, next.values, copt);
    const analysis::Comparison next_vs_before =
        analysis::compare_series(before.values, next.values, copt);
    p.change_point = !significant(next_vs_p) && next_vs_before.verdict == p.vs_previous.verdict;
  }
  return t;
}

}  // namespace schedrig::compare
