// `schedrig report --nightly DIR`: a night as one self-contained HTML page
// (docs/reports.md "A night"): its verdict per agent, plan, case, metric and
// kernel against the baseline (summary.json, as the console showed it), the
// selftest per agent, problems and notes, and — when the night's runs could
// be read — per agent, plan and case the primary metric's iterations per
// kernel in slot order and its trend over the night's boots.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::report::html {

// The runs of one agent and plan in slot order, each with its kernel name
// (the lab file's, not the release).
struct NightPlanRuns {
  std::string agent, plan;
  std::vector<std::pair<std::string, store::RunRecord>> runs;  // (kernel, run)
};

struct NightReportData {
  nlohmann::json summary;  // OUT/summary.json (nightly::summary_json's shape)
  std::vector<NightPlanRuns> plans;
  std::string runs_note;  // why the runs are missing ("" when they are here)
  // Which iterations the trend counts (report --disturbed); all are drawn.
  compare::DisturbedPolicy disturbed = compare::DisturbedPolicy::kExclude;
  std::string command;
};

std::string nightly_report_html(const NightReportData& data);

}  // namespace schedrig::report::html
