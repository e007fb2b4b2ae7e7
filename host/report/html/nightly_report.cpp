#include "host/report/html/nightly_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "host/analysis/series.h"
#include "host/compare/run_data.h"
#include "host/compare/trend_table.h"
#include "host/report/format.h"
#include "host/report/html/page.h"
#include "host/report/html/plots.h"

namespace schedrig::report::html {
namespace {

using nlohmann::json;

// A string field of a summary row, "" when absent or not a string.
std::string text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string change_text(const json& row) {
  const auto it = row.find("change_pct");
  if (it == row.end() || !it->is_number()) return "-";
  return analysis::format_change(it->get<double>());
}

// A boolean field, false when absent or not a boolean (the summary is a
// file anyone may have edited).
bool flag(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// A count field as text, "?" when absent or not a whole number >= 0.
std::string count_text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_unsigned() ? std::to_string(it->get<std::uint64_t>()) : "?";
}

// Rows shown at most per table (the summary file is bounded at 16 MiB, but
// a page of millions of rows helps no one).
constexpr std::size_t kMaxRows = 10000;

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& s : *it) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

void verdict_section(Page& page, const json& summary) {
  page.heading(2, "Verdicts per kernel", "verdicts");
  std::vector<std::vector<std::string>> rows;
  const auto r = summary.find("rows");
  const std::size_t total = r != summary.end() && r->is_array() ? r->size() : 0;
  if (total == 0) {
    page.paragraph(
        "No kernel was judged against a baseline (one kernel, or no run ended ok: see the "
        "problems below).");
    return;
  }
  for (const auto& row : *r) {
    if (rows.size() == kMaxRows) break;
    if (!row.is_object()) continue;
    const std::string mark = text(row, "verdict");
    rows.push_back({text(row, "agent"), text(row, "plan"), text(row, "case"), text(row, "variant"),
                    text(row, "metric"), text(row, "kernel"), text(row, "baseline"),
                    change_text(row) + (mark.empty() ? "" : " " + mark), text(row, "level"),
                    flag(row, "gate_failed") ? "FAILED" : "", text(row, "note")});
  }
  if (total > rows.size()) {
    page.paragraph(fmt::format("{} more rows in summary.json are not shown.", total - rows.size()),
                   "muted");
  }
  page.table({"agent", "plan", "case", "variant", "metric", "kernel", "baseline", "change", "level",
              "gate", "note"},
             rows, "verdicts", "verdict-table");
}

void selftest_section(Page& page, const json& summary) {
  const auto s = summary.find("selftests");
  if (s == summary.end() || !s->is_array() || s->empty()) return;
  page.heading(2, "Selftest (positive control)", "selftest");
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : *s) {
    if (rows.size() == kMaxRows) break;
    if (!t.is_object()) continue;
    std::string why;
    for (const auto& note : strings(t, "notes")) why += (why.empty() ? "" : "; ") + note;
    rows.push_back({text(t, "agent"), count_text(t, "boots"), count_text(t, "regressed"),
                    flag(t, "ok") ? "found its regression" : "DETECTOR FAILED", why});
  }
  page.table({"agent", "boots", "found (R)", "detector", "why"}, rows, "selftest");
}

// The cases of `runs` in plan order.
std::vector<std::string> cases_of(const NightPlanRuns& p) {
  std::vector<std::string> out;
  for (const auto& [kernel, run] : p.runs) {
    for (const auto& c : compare::plan_names(run.plan, "cases")) compare::push_unique(out, c);
  }
  return out;
}

// One run's ok iterations of the trend's case, metric and variant as strip
// points from `x` on: disturbed ones crossed, those the policy leaves out hollow.
void add_run_points(StripSeries& s, const store::RunRecord& run, const compare::Trend& t,
                    compare::DisturbedPolicy policy, const std::string& kernel, double& x) {
  const std::vector<std::string> variants = compare::plan_names(run.plan, "variants");
  const std::string variant = variants.empty() ? "" : variants.front();
  for (const store::IterationRecord& it : run.iterations) {
    if (it.case_name != t.case_name || it.variant != variant || it.status != "ok") continue;
    for (const store::MetricRecord& m : it.metrics) {
      if (m.name != t.metric || !std::isfinite(m.value)) continue;
      const bool counted = compare::kept(it, policy);
      s.points.push_back(
          {x++, m.value, it.disturbed, counted,
           fmt::format("{} (run {}) #{}: {}{}{}", kernel, compare::short_id(run.run_id),
                       it.iteration, format_number(m.value),
                       it.disturbed ? " — disturbed: " + it.disturbed_reason : "",
                       counted ? "" : " (left out)")});
    }
  }
}

// Iterations per kernel in slot order: one series per kernel.
StripPlot kernel_strip(const NightPlanRuns& p, const compare::Trend& t,
                       compare::DisturbedPolicy policy) {
  StripPlot plot;
  plot.title = fmt::format("{} / {} / {}: {}", p.agent, p.plan, t.case_name, t.metric);
  plot.unit = t.unit;
  std::vector<std::string> kernels;
  for (const auto& [kernel, run] : p.runs) compare::push_unique(kernels, kernel);
  for (const auto& k : kernels) plot.series.push_back({k, {}, {}});
  double x = 0;
  for (const auto& [kernel, run] : p.runs) {
    const auto s = static_cast<std::size_t>(std::find(kernels.begin(), kernels.end(), kernel) -
                                            kernels.begin());
    add_run_points(plot.series[s], run, t, policy, kernel, x);
    x += 2;
  }
  return plot;
}

// " (N disturbed iterations left out: --disturbed include counts them)", or "".
std::string left_out_words(const compare::Trend& t) {
  unsigned n = 0;
  for (const auto& q : t.points) n += q.left_out;
  if (n == 0) return "";
  return fmt::format(
      " ({} disturbed iteration{} left out, drawn hollow: --disturbed include "
      "counts them)",
      n, n == 1 ? "" : "s");
}

std::vector<TrendPoint> boot_trend(const NightPlanRuns& p, const compare::Trend& t) {
  std::vector<TrendPoint> out;
  for (std::size_t i = 0; i < t.points.size() && i < p.runs.size(); ++i) {
    const compare::TrendPoint& q = t.points[i];
    if (q.values.empty()) continue;
    const std::string mark =
        q.has_previous ? std::string(analysis::mark(q.vs_previous.verdict)) : "";
    out.push_back(
        {p.runs[i].first, q.median, q.ci_lo, q.ci_hi, mark == "?" ? "" : mark, q.change_point,
         fmt::format("{} run {}: median {} [{} .. {}]", p.runs[i].first, q.label,
                     format_number(q.median), format_number(q.ci_lo), format_number(q.ci_hi))});
  }
  return out;
}

void plan_section(Page& page, const NightPlanRuns& p, compare::DisturbedPolicy policy) {
  std::vector<store::RunRecord> runs;
  for (const auto& [kernel, run] : p.runs) runs.push_back(run);
  for (const std::string& c : cases_of(p)) {
    compare::TrendOptions o;
    o.case_name = c;
    o.disturbed = policy;
    compare::Trend t;
    try {
      t = compare::make_trend(runs, o);
    } catch (const compare::CompareError& e) {
      page.paragraph(fmt::format("{} / {} / {}: {}", p.agent, p.plan, c, e.what()), "muted");
      continue;
    }
    if (t.points.size() != runs.size()) continue;  // a run without the case: no slot order
    page.heading(3, fmt::format("{} / {} / {}", p.agent, p.plan, c));
    const StripPlot strip = kernel_strip(p, t, policy);
    const std::string left_out = left_out_words(t);
    page.figure(strip_plot_svg(strip),
                strip.title + " — iterations per kernel, slot order" + left_out,
                {{"case", c}, {"metric", t.metric}, {"agent", p.agent}});
    const std::vector<TrendPoint> boots = boot_trend(p, t);
    page.figure(
        trend_plot_svg(strip.title, t.unit, boots),
        strip.title + (boots.empty() ? " — no boot has a kept iteration" + left_out
                                     : " — median and 95% interval per boot, marks against the "
                                       "boot before, dashed: a change point"),
        {{"case", c}, {"metric", t.metric}, {"trend", "boots"}});
  }
}

}  // namespace

std::string nightly_report_html(const NightReportData& d) {
  const std::string night = text(d.summary, "night");
  Page page("schedrig night " + night);
  page.heading(1, "schedrig night " + night);
  const bool regression = flag(d.summary, "regression");
  const bool detector_failed = flag(d.summary, "detector_failed");
  page.paragraph(fmt::format("lab file {}; exit {}: {}", text(d.summary, "lab"),
                             count_text(d.summary, "exit_code"),
                             detector_failed ? "the detector failed (selftest)"
                             : regression    ? "a gated regression"
                                             : "no gated regression"));
  verdict_section(page, d.summary);
  selftest_section(page, d.summary);
  page.heading(2, "Problems and notes", "notes");
  page.list(strings(d.summary, "problems"), "notes");
  page.list(strings(d.summary, "infrastructure"), "notes");
  page.list(strings(d.summary, "notes"), "notes");
  page.heading(2, "Iterations and trend", "iterations");
  if (!d.runs_note.empty()) page.paragraph(d.runs_note, "muted");
  for (const auto& p : d.plans) plan_section(page, p, d.disturbed);
  page.paragraph("Made by: " + d.command, "muted");
  return page.str();
}

}  // namespace schedrig::report::html
