#include "host/nightly/night_verdicts.h"

#include <cmath>

#include <fmt/format.h>

#include "common/printable.h"
#include "host/analysis/verdict.h"
#include "host/compare/compare_table.h"
#include "host/compare/gate.h"

namespace schedrig::nightly {
namespace {

using compare::Cell;
using compare::Row;
using compare::Table;

compare::GateOptions gate_options(const LabFile& lab) {
  compare::GateOptions g;
  if (!lab.gate_metric.empty()) g.metrics = {lab.gate_metric};
  g.threshold_pct = lab.gate_threshold_pct;
  g.threshold_given = lab.gate_threshold_given;
  return g;
}

std::string mark_of(analysis::Verdict v) {
  return v == analysis::Verdict::kInsufficient ? "?" : std::string(analysis::mark(v));
}

KernelVerdict verdict_of(const Table& t, const Row& row, bool judged, bool failed) {
  const Cell& cell = row.cells.at(0);
  KernelVerdict v;
  v.case_name = row.case_name;
  v.variant = row.variant;
  v.metric = row.metric;
  v.unit = row.unit;
  v.gated = judged;
  v.gate_failed = failed;
  v.kernel_boots = t.run_boots;
  v.baseline_boots = t.reference_boots;
  if (compare::boot_level(cell)) {
    v.level = "boot";
    v.change_pct = cell.by_boot->change_pct;
    v.mark = mark_of(cell.by_boot->verdict);
    v.note = cell.by_boot->note;
  } else {
    v.level = "iteration";
    v.change_pct = cell.comparison.change_pct;
    v.mark = mark_of(cell.comparison.verdict);
    v.note = cell.comparison.note;
  }
  return v;
}

void judge_pair(const LabFile& lab, const std::string& agent, const std::string& plan,
                const KernelRuns& k, const KernelRuns& base, NightVerdicts& out) {
  try {
    const Table t = compare::compare_runs(k.runs, base.runs);
    const compare::GateOptions gate = gate_options(lab);
    compare::check_gate(t, gate);
    for (const Row& row : t.rows) {
      const bool judged = compare::gate_judges(t, row, gate);
      if (!judged && !row.primary) continue;  // the summary shows what is gated or primary
      KernelVerdict v = verdict_of(
          t, row, judged, judged && compare::cell_fails_gate(t, row, row.cells.at(0), gate));
      v.agent = agent;
      v.plan = plan;
      v.kernel = k.kernel;
      v.baseline = base.kernel;
      out.regression = out.regression || v.gate_failed;
      out.rows.push_back(std::move(v));
    }
  } catch (const std::exception& e) {
    out.problems.push_back(fmt::format("{} {}: {} against {}: cannot compare: {}", agent, plan,
                                       k.kernel, base.kernel, e.what()));
    out.regression = true;  // no evidence never passes a gate
  }
}

void note_runs_not_ok(const std::string& agent, const std::string& plan, const KernelRuns& k,
                      NightVerdicts& out) {
  for (const store::RunRecord& r : k.runs) {
    if (r.status != "ok")
      out.problems.push_back(fmt::format("{} {} {}: run {} {}{}{}", agent, plan, k.kernel,
                                         compare::short_id(r.run_id), r.status,
                                         r.reason.empty() ? "" : ": ", r.reason));
  }
}

SelftestVerdict judge_selftest(const std::string& agent,
                               const std::vector<store::RunRecord>& runs) {
  SelftestVerdict s;
  s.agent = agent;
  for (const store::RunRecord& run : runs) {
    ++s.boots;
    bool found = false;
    std::string why = "no comparison";
    try {
      const Table t = compare::compare_variants(run);
      for (const Row& row : t.rows) {
        if (!row.primary) continue;
        found = !row.cells.empty();
        for (const Cell& c : row.cells) {
          found = found && c.present && c.comparison.verdict == analysis::Verdict::kRegression;
          why = fmt::format("{} {:+.1f}% {}, p {:.3g}", row.metric, c.comparison.change_pct,
                            c.comparison.verdict == analysis::Verdict::kNone
                                ? "(no significant change)"
                                : mark_of(c.comparison.verdict),
                            c.comparison.p_value);
        }
      }
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (found) {
      ++s.regressed;
    } else {
      s.notes.push_back(fmt::format("boot {}: run {} {}: {}", run.boot_id.substr(0, 8),
                                    compare::short_id(run.run_id), run.status, why));
    }
  }
  return s;
}

std::string change_text(double pct) {
  return std::isfinite(pct) ? fmt::format("{:+.2f}%", pct) : "-";
}

}  // namespace

NightVerdicts judge_night(const LabFile& lab, const NightRuns& runs) {
  NightVerdicts out;
  for (const auto& [agent, plans] : runs.plans) {
    for (const auto& [plan, kernels] : plans) {
      const auto base = runs.baselines.find(agent);
      const KernelRuns* baseline = nullptr;
      if (base != runs.baselines.end() && base->second.count(plan))
        baseline = &base->second.at(plan);
      for (const KernelRuns& k : kernels) {
        note_runs_not_ok(agent, plan, k, out);
        if (!baseline) {
          out.problems.push_back(
              fmt::format("{} {}: no baseline to compare {} with", agent, plan, k.kernel));
          continue;
        }
        if (k.kernel == baseline->kernel) continue;
        judge_pair(lab, agent, plan, k, *baseline, out);
      }
    }
  }
  for (const auto& [agent, selftest_runs] : runs.selftests) {
    out.selftests.push_back(judge_selftest(agent, selftest_runs));
    out.detector_failed = out.detector_failed || !out.selftests.back().ok();
  }
  return out;
}

std::string summary_text(const std::string& night, const LabFile& lab, const NightVerdicts& v,
                         const std::vector<std::string>& infrastructure) {
  std::string out = printable(fmt::format("night {} ({})", night, lab.path)) + "\n";
  out +=
      fmt::format("{:<10} {:<14} {:<28} {:<12} {:<16} {:<12} {:<12} {:>9} {:<7} {:<9} {:<7} {}\n",
                  "AGENT", "PLAN", "CASE", "VARIANT", "METRIC", "KERNEL", "BASELINE", "CHANGE",
                  "VERDICT", "LEVEL", "BOOTS", "GATE");
  for (const KernelVerdict& r : v.rows) {
    const std::string gate = !r.gated ? "-" : r.gate_failed ? "FAIL" : "pass";
    out += printable(fmt::format(
               "{:<10} {:<14} {:<28} {:<12} {:<16} {:<12} {:<12} {:>9} {:<7} {:<9} {:<7} {}{}",
               r.agent, r.plan, r.case_name, r.variant, r.metric, r.kernel, r.baseline,
               change_text(r.change_pct), r.mark, r.level,
               fmt::format("{} vs {}", r.kernel_boots, r.baseline_boots), gate,
               v.detector_failed ? "  detector failed" : "")) +
           "\n";
  }
  for (const SelftestVerdict& s : v.selftests) {
    out +=
        printable(fmt::format("selftest {}: the antagonist was (R) in {} of {} boots: {}", s.agent,
                              s.regressed, s.boots, s.ok() ? "ok" : "DETECTOR FAILED")) +
        "\n";
    for (const std::string& n : s.notes) out += "  " + printable(n) + "\n";
  }
  for (const std::string& n : v.notes) out += "note: " + printable(n) + "\n";
  for (const std::string& p : v.problems) out += "problem: " + printable(p) + "\n";
  for (const std::string& p : infrastructure) out += "infrastructure: " + printable(p) + "\n";
  if (v.detector_failed)
    out += "the detector failed this night: no verdict above can be trusted (exit 3)\n";
  if (!lab.selftest)
    out +=
        "note: selftest: false: no positive control ran this night; a clean exit does not "
        "show the detector could see a regression\n";
  return out;
}

nlohmann::json summary_json(const std::string& night, const LabFile& lab, const NightVerdicts& v,
                            const std::vector<std::string>& infrastructure, int exit_code) {
  nlohmann::json rows = nlohmann::json::array();
  for (const KernelVerdict& r : v.rows) {
    rows.push_back({{"agent", r.agent},
                    {"plan", r.plan},
                    {"case", r.case_name},
                    {"variant", r.variant},
                    {"metric", r.metric},
                    {"unit", r.unit},
                    {"kernel", r.kernel},
                    {"baseline", r.baseline},
                    {"change_pct",
                     std::isfinite(r.change_pct) ? nlohmann::json(r.change_pct) : nlohmann::json()},
                    {"verdict", r.mark},
                    {"level", r.level},
                    {"kernel_boots", r.kernel_boots},
                    {"baseline_boots", r.baseline_boots},
                    {"gated", r.gated},
                    {"gate_failed", r.gate_failed},
                    {"detector_failed", v.detector_failed},
                    {"note", r.note}});
  }
  nlohmann::json selftests = nlohmann::json::array();
  for (const SelftestVerdict& s : v.selftests) {
    selftests.push_back({{"agent", s.agent},
                         {"boots", s.boots},
                         {"regressed", s.regressed},
                         {"ok", s.ok()},
                         {"notes", s.notes}});
  }
  return {{"night", night},
          {"lab", lab.path},
          {"rows", rows},
          {"selftests", selftests},
          {"problems", v.problems},
          {"notes", v.notes},
          {"infrastructure", infrastructure},
          {"regression", v.regression},
          {"detector_failed", v.detector_failed},
          {"exit_code", exit_code}};
}

}  // namespace schedrig::nightly
