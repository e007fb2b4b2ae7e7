// A night's HTML page (docs/reports.md "A night"): its OUT's state and
// summary with each slot's runs in slot order, for
// report::html::nightly_report_html. `nightly` writes OUT/report.html when
// the night ends; `schedrig report --nightly OUT` makes it again later.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "host/nightly/night_state.h"
#include "host/report/html/nightly_report.h"

namespace schedrig::nightly {

// Reads run `run_id`; throws (schedrig::Error) when it cannot.
using RunFetch = std::function<store::RunRecord(const std::string& run_id)>;

// The page's data: per agent and plan (selftest left out) the slots' runs
// in slot order, each read with `fetch` (empty `fetch`: no runs, and
// `runs_note` says to give --server or --db). A run that cannot be read
// drops the runs, and `runs_note` says why; the summary still shows.
report::html::NightReportData night_report_data(const NightState& state, nlohmann::json summary,
                                                const RunFetch& fetch, std::string command);

}  // namespace schedrig::nightly
