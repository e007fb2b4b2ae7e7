#include "host/cli/report_nightly.h"

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/read_store.h"
#include "host/client/remote_runs.h"
#include "host/nightly/night_files.h"
#include "host/nightly/night_state.h"
#include "host/report/html/nightly_report.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

constexpr std::size_t kMaxSummaryBytes = std::size_t{16} << 20;

nlohmann::json read_summary(const std::string& dir) {
  const std::string path = dir + "/summary.json";
  nlohmann::json j =
      nlohmann::json::parse(nightly::read_bounded_file(path, kMaxSummaryBytes), nullptr, false);
  if (!j.is_object() || !j.contains("night") || !j.contains("rows")) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("report: {}: not a night's summary (schedrig nightly writes it "
                               "when the night ends)",
                               printable(path)));
  }
  return j;
}

// The (kernel, run id) of each slot of each agent and plan, slot order.
std::vector<report::html::NightPlanRuns> slots_of(const nightly::NightState& night,
                                                  std::vector<std::vector<std::string>>& ids) {
  std::vector<report::html::NightPlanRuns> out;
  for (const std::string& agent : night.agents()) {
    std::map<std::string, std::size_t> index;  // plan -> out index
    for (const nightly::SlotRecord& s : night.slots(agent)) {
      for (const auto& [plan, run_id] : s.runs) {
        if (plan == "selftest" || run_id.empty()) continue;
        auto [it, added] = index.try_emplace(plan, out.size());
        if (added) {
          out.push_back({agent, plan, {}});
          ids.emplace_back();
        }
        out[it->second].runs.push_back({s.slot.kernel, {}});
        ids[it->second].push_back(run_id);
      }
    }
  }
  return out;
}

// Fills each slot's run from the server or the store; a run that cannot
// be read ends the filling with a note (the page still shows the summary).
std::string fill_runs(std::vector<report::html::NightPlanRuns>& plans,
                      const std::vector<std::vector<std::string>>& ids,
                      const ComparisonCliOptions& o) {
  if (!use_server(o.server, o.db) && o.db.empty()) {
    return "The night's iterations are not shown: give --server URL (or --db F) to read its "
           "runs.";
  }
  try {
    if (use_server(o.server, o.db)) {
      const auto api = make_api_client(o.server);
      for (std::size_t p = 0; p < plans.size(); ++p) {
        for (std::size_t i = 0; i < ids[p].size(); ++i) {
          plans[p].runs[i].second = client::fetch_run(*api, ids[p][i]);
        }
      }
      return "";
    }
    read_store(o.db, [&](const store::Store& s) {
      for (std::size_t p = 0; p < plans.size(); ++p) {
        for (std::size_t i = 0; i < ids[p].size(); ++i) {
          auto runs = s.runs(ids[p][i], {.sample_summaries = false, .histograms = false});
          if (runs.empty()) throw CliError(ErrorKind::kUsage, "no run " + ids[p][i]);
          plans[p].runs[i].second = std::move(runs.front());
        }
      }
      return 0;
    });
  } catch (const Error& e) {
    plans.clear();
    return fmt::format("The night's iterations are not shown: {}", e.what());
  }
  return "";
}

}  // namespace

std::string nightly_report_html(const std::string& dir, const ComparisonCliOptions& o,
                                const std::string& command) {
  report::html::NightReportData d;
  d.summary = read_summary(dir);
  const auto night = nightly::NightState::load(dir + "/night.json");
  std::vector<std::vector<std::string>> ids;
  d.plans = slots_of(*night, ids);
  d.runs_note = fill_runs(d.plans, ids, o);
  d.command = command;
  return report::html::nightly_report_html(d);
}

}  // namespace schedrig::host
