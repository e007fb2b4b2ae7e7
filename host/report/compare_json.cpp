#include "host/report/compare_json.h"

#include <cmath>

#include <fmt/format.h>

#include "host/analysis/cliff.h"
#include "host/report/cliff_json.h"
#include "host/report/format.h"
#include "host/report/pooled_report.h"
#include "host/report/results_csv.h"

namespace schedrig::report {

using compare::Cell;
using compare::Row;
using compare::short_id;
using compare::Side;
using compare::Table;

namespace {

const char* direction_word(const Row& row) {
  return row.higher_is_better ? "higher_is_better" : "lower_is_better";
}

nlohmann::json side_json(const Side& side, const std::string& name) {
  nlohmann::json j = series_json(name, side.analysis, side.iterations);
  j["run"] = side.run_id;
  return j;
}

}  // namespace

nlohmann::json json_number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json series_json(const std::string& name, const analysis::SeriesAnalysis& a,
                           std::span<const unsigned> iterations) {
  const analysis::Summary& s = a.summary;
  nlohmann::json modes = nlohmann::json::array();
  for (const analysis::Mode& m : a.modes.modes) {
    nlohmann::json its = nlohmann::json::array();
    for (std::size_t p : m.positions) {
      if (p < iterations.size()) {
        its.push_back(iterations[p]);
      } else {
        its.push_back(p + 1);
      }
    }
    modes.push_back({{"center", json_number(m.center)},
                     {"count", m.count},
                     {"cov_pct", json_number(m.cov_pct)},
                     {"iterations", std::move(its)}});
  }
  return {{"name", name},
          {"n", s.n},
          {"median", json_number(s.median)},
          {"mean", json_number(s.mean)},
          {"min", json_number(s.min)},
          {"max", json_number(s.max)},
          {"cov_pct", json_number(s.cov_pct)},
          {"bimodal", a.modes.bimodal},
          {"drift",
           {{"present", a.drift.present},
            {"tau", json_number(a.drift.tau)},
            {"change_pct", json_number(a.drift.change_pct)}}},
          {"modes", std::move(modes)},
          {"flips", a.modes.flips}};
}

nlohmann::json comparison_json(const std::string& variant, const analysis::Comparison& c) {
  return {{"variant", variant},
          {"change_pct", json_number(c.change_pct)},
          {"ci95_pct", {json_number(c.ci_lo_pct), json_number(c.ci_hi_pct)}},
          {"p_value", json_number(c.p_value)},
          {"test", std::string(analysis::to_string(c.test))},
          {"parametric", c.parametric},
          {"verdict", std::string(analysis::to_string(c.verdict))},
          {"note", c.note},
          {"cliff", cliff_json(c)},
          {"spread", c.spread}};
}

nlohmann::json boot_comparison_json(const analysis::BootComparison& b) {
  return {{"baseline_boots", b.baseline_boots},
          {"variant_boots", b.variant_boots},
          {"change_pct", json_number(b.change_pct)},
          {"ci95_pct", {json_number(b.ci_lo_pct), json_number(b.ci_hi_pct)}},
          {"p_value", json_number(b.p_value)},
          {"test", "welch-log-boot-medians"},
          {"verdict", std::string(analysis::to_string(b.verdict))},
          {"note", b.note}};
}

namespace {

nlohmann::json differences_json(const std::vector<compare::FingerprintDifference>& diffs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : diffs) {
    out.push_back({{"field", d.field}, {"against", d.reference}, {"run", d.run}});
  }
  return out;
}

nlohmann::json runs_json(const Table& t) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : t.runs) {
    out.push_back(
        {{"run", r.run_id},
         {"side", r.reference ? "against" : "run"},
         {"status", r.status},
         {"reason", r.reason},
         {"boot_id", r.boot_id},
         {"ok_iterations", r.ok_iterations},
         {"planned_iterations", r.planned_iterations},
         {"disturbed", r.disturbed},
         {"left_out", r.left_out},
         {"persisted_knobs", r.persisted_knobs.empty() ? nlohmann::json(nullptr)
                                                       : nlohmann::json(r.persisted_knobs)}});
  }
  return out;
}

}  // namespace

nlohmann::json compare_json(const Table& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : t.rows) {
    nlohmann::json variants = nlohmann::json::array();
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& cell = row.cells[i];
      nlohmann::json v = side_json(cell.side, cell.side.variant);
      v["comparison"] = comparison_json(cell.side.variant, cell.comparison);
      v["by_boot"] = cell.by_boot ? boot_comparison_json(*cell.by_boot) : nlohmann::json(nullptr);
      variants.push_back(std::move(v));
    }
    rows.push_back(
        {{"case", row.case_name},
         {"variant", row.variant.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.variant)},
         {"metric", row.metric},
         {"unit", row.unit},
         {"direction", direction_word(row)},
         {"primary", row.primary},
         {"baseline", side_json(row.baseline, row.baseline.variant)},
         {"variants", std::move(variants)}});
  }
  return {{"run", t.run_id},
          {"against",
           t.against_run_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.against_run_id)},
          {"baseline", t.baseline_label},
          {"method", std::string(analysis::to_string(t.method))},
          {"threshold_pct", t.threshold_pct},
          {"confidence", t.confidence},
          {"disturbed", std::string(compare::to_string(t.disturbed))},
          {"runs", runs_json(t)},
          {"boots", t.against_run_id.empty()
                        ? nlohmann::json(nullptr)
                        : nlohmann::json({{"against", t.reference_boots}, {"run", t.run_boots}})},
          {"fingerprint_differences", differences_json(t.fingerprint_differences)},
          {"topology_differences", differences_json(t.topology_differences)},
          {"forced", t.forced},
          {"unmatched", t.unmatched},
          {"rows", std::move(rows)},
          {"pooled_percentiles", pooled_json(t.pooled)}};
}

void print_compare_csv(const Table& t, std::ostream& out) {
  out << "case,variant,metric,unit,direction,baseline_run,baseline_variant,baseline_median,"
         "baseline_n,baseline_cov_pct,run,compared_variant,median,n,cov_pct,change_pct,"
         "ci95_lo_pct,ci95_hi_pct,p_value,test,parametric,verdict,note,cliff,boot_change_pct,"
         "boot_p_value,boot_verdict\n";
  for (const auto& row : t.rows) {
    for (const auto& cell : row.cells) {
      const analysis::Summary& b = row.baseline.analysis.summary;
      const analysis::Summary& v = cell.side.analysis.summary;
      const analysis::Comparison& c = cell.comparison;
      const analysis::BootComparison* boot = cell.by_boot ? &*cell.by_boot : nullptr;
      const std::vector<std::string> fields = {
          row.case_name,
          row.variant,
          row.metric,
          row.unit,
          direction_word(row),
          row.baseline.run_id,
          row.baseline.variant,
          csv_number(b.median),
          std::to_string(b.n),
          csv_number(b.cov_pct),
          cell.side.run_id,
          cell.side.variant,
          csv_number(v.median),
          std::to_string(v.n),
          csv_number(v.cov_pct),
          csv_number(c.change_pct),
          csv_number(c.ci_lo_pct),
          csv_number(c.ci_hi_pct),
          csv_number(c.p_value),
          std::string(analysis::to_string(c.test)),
          c.parametric ? "true" : "false",
          std::string(analysis::to_string(c.verdict)),
          c.note,
          analysis::describe_cliff(c),
          boot ? csv_number(boot->change_pct) : "",
          boot ? csv_number(boot->p_value) : "",
          boot ? std::string(analysis::to_string(boot->verdict)) : ""};
      print_csv_row(fields, out);
    }
  }
}

}  // namespace schedrig::report
