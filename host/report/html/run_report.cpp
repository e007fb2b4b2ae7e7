#include "host/report/html/run_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "host/analysis/series.h"
#include "host/compare/run_data.h"
#include "host/report/compare_header.h"
#include "host/report/compare_notes.h"
#include "host/report/compare_text.h"
#include "host/report/format.h"
#include "host/report/html/page.h"
#include "host/report/html/plots.h"
#include "host/report/pooled_report.h"
#include "host/report/runs_text.h"

namespace schedrig::report::html {
namespace {

using compare::Row;
using compare::Table;

// The runs of one side in x order, with the offset of each run's positions.
struct SideRuns {
  std::string label;
  const std::vector<store::RunRecord>* runs;
};

const store::MetricRecord* metric_of(const store::IterationRecord& it, const std::string& name) {
  for (const auto& m : it.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// One series of a row's strip plot: `variant`'s iterations of `row.case_name`
// in `side`'s runs, x = schedule position (runs after one another).
StripSeries strip_series(const Table& t, const Row& row, const SideRuns& side,
                         const std::string& variant, double& x_offset,
                         const analysis::SeriesAnalysis& analysis) {
  StripSeries s;
  s.label = side.label;
  for (const store::RunRecord& run : *side.runs) {
    double last = 0;
    for (const store::IterationRecord& it : run.iterations) {
      last = std::max(last, static_cast<double>(it.position));
      if (it.case_name != row.case_name || it.variant != variant || it.status != "ok") continue;
      const store::MetricRecord* m = metric_of(it, row.metric);
      if (m == nullptr || !std::isfinite(m->value)) continue;
      StripPoint p;
      p.x = x_offset + static_cast<double>(it.position);
      p.y = m->value;
      p.disturbed = it.disturbed;
      p.counted = compare::kept(it, t.disturbed);
      p.tip = fmt::format("{} #{} (run {}): {} {}{}{}", it.variant, it.iteration,
                          compare::short_id(run.run_id), format_number(m->value), row.unit,
                          it.disturbed ? " — disturbed: " + it.disturbed_reason : "",
                          p.counted ? "" : " (left out)");
      s.points.push_back(std::move(p));
    }
    x_offset += last + 2;  // a gap between runs
  }
  if (analysis.modes.bimodal) {
    for (const auto& mode : analysis.modes.modes) s.mode_centers.push_back(mode.center);
  }
  return s;
}

StripPlot strip_plot(const RunReportData& d, const Row& row) {
  const Table& t = d.table;
  const bool across = !t.against_run_id.empty();
  StripPlot plot;
  plot.title =
      fmt::format("{}{}: {}", row.case_name, across ? " / " + row.variant : "", row.metric);
  plot.unit = row.unit;
  double x = 0;
  if (across) {
    plot.series.push_back(strip_series(t, row, {t.baseline_label, &d.against}, row.variant, x,
                                       row.baseline.analysis));
    plot.series.push_back(strip_series(t, row, {t.columns.front(), &d.runs}, row.variant, x,
                                       row.cells.front().side.analysis));
  } else {
    double x0 = 0;
    plot.series.push_back(strip_series(t, row, {t.baseline_label, &d.runs}, t.baseline_label, x0,
                                       row.baseline.analysis));
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      x0 = 0;
      plot.series.push_back(strip_series(t, row, {t.columns[i], &d.runs}, t.columns[i], x0,
                                         row.cells[i].side.analysis));
    }
  }
  const analysis::Summary& b = row.baseline.analysis.summary;
  if (b.n > 0) {
    plot.baseline =
        Band{b.min, b.max, b.median,
             fmt::format("{} (baseline): range {} .. {}, median {}", t.baseline_label,
                         format_number(b.min), format_number(b.max), format_number(b.median))};
  }
  return plot;
}

std::string direction_words(const Row& row) {
  return row.higher_is_better ? "higher is better" : "lower is better";
}

void verdict_section(Page& page, const Table& t) {
  page.heading(2, "Verdicts", "verdicts");
  std::vector<std::vector<std::string>> lines;
  for (const Row& row : t.rows) {
    for (auto& line : row_lines(t, row)) lines.push_back(std::move(line));
  }
  page.table(compare_headers(t), lines, "verdicts", "verdict-table");
  page.paragraph(legend(t.method, t.confidence, t.threshold_pct), "muted");
  page.list(compare_notes(t, [](const Row&) { return true; }), "notes");
}

void pooled_section(Page& page, const Table& t) {
  if (t.pooled.empty()) return;
  page.heading(2, "Pooled latency percentiles", "pooled");
  page.paragraph(
      "Every kept iteration's latency histogram merged, then read: pooled percentiles, not a "
      "median of per-iteration percentiles.",
      "muted");
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : t.pooled) {
    for (const auto& s : p.sides) {
      std::vector<std::string> r{p.variant.empty() ? p.case_name : p.case_name + "/" + p.variant,
                                 p.histogram, s.label};
      for (double q : s.quantiles) r.push_back(std::isfinite(q) ? format_number(q) : "-");
      r.push_back(p.unit);
      r.push_back(std::to_string(s.iterations));
      r.push_back(format_number(static_cast<double>(s.samples)));
      rows.push_back(std::move(r));
    }
  }
  page.table({"case", "histogram", "side", "pooled p50", "pooled p90", "pooled p99", "pooled p99.9",
              "unit", "iterations", "samples"},
             rows, "pooled");
}

void plot_section(Page& page, const RunReportData& d) {
  page.heading(2, "Iterations in run order", "iterations");
  page.paragraph(
      "One dot per iteration in schedule order, one colour per variant; a cross marks a "
      "disturbed iteration, a hollow dot one the comparison left out; dashed lines are the "
      "modes of a bimodal series; the grey band is the baseline's range. At the right, each "
      "variant's distribution (median, quartiles, range).",
      "muted");
  std::set<std::string> shown_cases;
  for (const Row& row : d.table.rows) {
    const bool main = shown_by_default(row);
    if (!main) page.details_open(fmt::format("{}: {}", row.case_name, row.metric));
    const StripPlot plot = strip_plot(d, row);
    page.figure(
        strip_plot_svg(plot),
        fmt::format("{} ({}, {})", plot.title, dash_if_empty(row.unit), direction_words(row)),
        {{"case", row.case_name}, {"metric", row.metric}, {"variant", row.variant}});
    if (!main) page.details_close();
  }
}

// Seconds from the first sample's run start: per run, its earliest
// iteration start (or its first sample).
std::map<std::string, long long> run_starts(const RunReportData& d) {
  std::map<std::string, long long> out;
  for (const auto* side : {&d.runs, &d.against}) {
    for (const auto& r : *side) {
      long long start = r.started_at_ns;
      for (const auto& it : r.iterations) {
        if (it.started_at_ns > 0 && (start == 0 || it.started_at_ns < start)) {
          start = it.started_at_ns;
        }
      }
      out[r.run_id] = start;
    }
  }
  return out;
}

std::string series_name(const RunReportData& d, const store::SampleRecord& s) {
  if (d.against.empty()) return s.variant;
  const bool reference = std::any_of(d.against.begin(), d.against.end(),
                                     [&](const auto& r) { return r.run_id == s.run_id; });
  return (reference ? d.table.baseline_label : d.table.columns.front()) + "/" + s.variant;
}

TimePlot time_plot(const RunReportData& d, const std::string& case_name, const std::string& value,
                   const std::string& unit, const std::map<std::string, long long>& starts) {
  TimePlot plot;
  plot.title = fmt::format("{}: {}", case_name, value);
  plot.unit = unit;
  std::map<std::pair<std::string, unsigned>, std::size_t> segment_of;  // (run, position)
  for (const store::SampleRecord& s : d.samples) {
    if (s.case_name != case_name) continue;
    const auto v = std::find_if(s.values.begin(), s.values.end(),
                                [&](const auto& kv) { return kv.first == value; });
    if (v == s.values.end() || !std::isfinite(v->second)) continue;
    const auto start = starts.find(s.run_id);
    // In double: an agent's clock may say anything, and ns differences of
    // extreme values overflow a long long.
    const double t = (static_cast<double>(s.t_ns) -
                      static_cast<double>(start == starts.end() ? 0 : start->second)) /
                     1e9;
    const std::string name = series_name(d, s);
    if (std::find(plot.series.begin(), plot.series.end(), name) == plot.series.end()) {
      plot.series.push_back(name);
    }
    auto [seg, added] = segment_of.try_emplace({s.run_id, s.position}, plot.segments.size());
    if (added) plot.segments.push_back({name, {}});
    plot.segments[seg->second].points.emplace_back(t, v->second);
    if (s.starved) plot.starved.push_back({t - s.interval_s, t, s.starved_reason});
  }
  // Colours as in the strip plots: the reference side (across runs) first.
  const std::string reference = d.table.baseline_label + "/";
  std::stable_partition(plot.series.begin(), plot.series.end(), [&](const std::string& name) {
    return !d.against.empty() && name.starts_with(reference);
  });
  return plot;
}

void samples_section(Page& page, const RunReportData& d) {
  if (d.samples.empty()) return;
  page.heading(2, "What the sampler saw", "samples");
  page.paragraph(
      "Each iteration's sampled intervals over the run's time, one line per iteration, one "
      "colour per variant; red bands are intervals with the starvation signature.",
      "muted");
  const auto starts = run_starts(d);
  std::vector<std::string> cases;
  for (const Row& row : d.table.rows) compare::push_unique(cases, row.case_name);
  for (const std::string& c : cases) {
    page.heading(3, c);
    for (const auto& [value, unit] : plotted_sample_values()) {
      const TimePlot plot = time_plot(d, c, value, unit, starts);
      if (plot.segments.empty()) continue;
      page.figure(time_plot_svg(plot), plot.title + " (" + unit + ")",
                  {{"case", c}, {"sample", value}});
    }
  }
}

std::vector<std::vector<std::string>> difference_rows(
    const std::vector<compare::FingerprintDifference>& diffs) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : diffs) rows.push_back({f.field, f.reference, f.run});
  return rows;
}

void fingerprint_section(Page& page, const RunReportData& d) {
  const Table& t = d.table;
  page.heading(2, "Fingerprint and topology", "fingerprint");
  if (t.against_run_id.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [field, value] : d.runs.front().fingerprint) rows.push_back({field, value});
    if (rows.empty()) {
      page.paragraph("This run stored no fingerprint.");
    } else {
      page.table({"field", "value"}, rows, "fingerprint");
    }
    return;
  }
  const std::string a = t.baseline_label, b = t.columns.front();
  if (t.fingerprint_differences.empty()) {
    page.paragraph("No fingerprint field differs.");
  } else {
    page.table({"fingerprint field", a, b}, difference_rows(t.fingerprint_differences),
               "fingerprint");
  }
  if (t.topology_differences.empty()) {
    page.paragraph("No topology field differs.");
  } else {
    page.table({"topology field", a, b}, difference_rows(t.topology_differences), "topology");
  }
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& plotted_sample_values() {
  static const std::vector<std::pair<std::string, std::string>> kValues = {
      {"idle_pct", "%"},       {"runnable", "tasks"},      {"ctxt_per_s", "/s"},
      {"wait_share_pct", "%"}, {"newidle_lb_per_s", "/s"}, {"run_delay_ms_per_s", "ms/s"},
      {"psi_some_pct", "%"}};
  return kValues;
}

std::string run_report_html(const RunReportData& d) {
  const Table& t = d.table;
  const std::string title =
      t.against_run_id.empty()
          ? fmt::format("schedrig: run {}", compare::short_id(t.run_id))
          : fmt::format("schedrig: {} against {}", t.columns.front(), t.baseline_label);
  Page page(title);
  page.heading(1, title);
  std::ostringstream header;
  print_compare_header(t, header);
  page.preformatted(header.str(), "header");
  std::vector<std::vector<std::string>> runs;
  for (const auto* side : {&d.runs, &d.against}) {
    for (const auto& r : *side) {
      runs.push_back({compare::short_id(r.run_id), side == &d.runs ? "run" : "against",
                      agent_name(r), r.kernel_release, r.status, format_utc(r.started_at_ns),
                      format_labels(r.labels)});
    }
  }
  page.table({"run", "side", "agent", "kernel", "status", "started", "labels"}, runs, "runs",
             "run-table");
  verdict_section(page, t);
  pooled_section(page, t);
  plot_section(page, d);
  samples_section(page, d);
  fingerprint_section(page, d);
  page.paragraph("Made by: " + d.command, "muted");
  return page.str();
}

}  // namespace schedrig::report::html
