#include "host/nightly/night_report.h"

#include <map>

#include <fmt/format.h>

#include "common/error.h"

namespace schedrig::nightly {
namespace {

// The (kernel, run id) of each slot of each agent and plan, slot order;
// `ids` parallel to the result's runs.
std::vector<report::html::NightPlanRuns> slots_of(const NightState& night,
                                                  std::vector<std::vector<std::string>>& ids) {
  std::vector<report::html::NightPlanRuns> out;
  for (const std::string& agent : night.agents()) {
    std::map<std::string, std::size_t> index;  // plan -> place in out
    for (const SlotRecord& s : night.slots(agent)) {
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

}  // namespace

report::html::NightReportData night_report_data(const NightState& state, nlohmann::json summary,
                                                const RunFetch& fetch, std::string command) {
  report::html::NightReportData d;
  d.summary = std::move(summary);
  d.command = std::move(command);
  std::vector<std::vector<std::string>> ids;
  d.plans = slots_of(state, ids);
  if (!fetch) {
    d.plans.clear();
    d.runs_note =
        "The night's iterations are not shown: give --server URL (or --db F) to read its runs.";
    return d;
  }
  try {
    for (std::size_t p = 0; p < d.plans.size(); ++p) {
      for (std::size_t i = 0; i < ids[p].size(); ++i) d.plans[p].runs[i].second = fetch(ids[p][i]);
    }
  } catch (const std::exception& e) {
    d.plans.clear();
    d.runs_note = fmt::format("The night's iterations are not shown: {}", e.what());
  }
  return d;
}

}  // namespace schedrig::nightly
