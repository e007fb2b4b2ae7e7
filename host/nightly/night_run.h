// A whole night (`schedrig nightly`, docs/nightly.md): every agent's slots
// in parallel (night_driver.h), then the runs fetched, the baselines found
// (the lab's kernel, or last_good from the history), the verdicts
// (night_verdicts.h), OUT/summary.txt and OUT/summary.json, and the history
// appended when the night stands.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "host/client/api_client.h"
#include "host/client/server_target.h"
#include "host/nightly/lab_file.h"
#include "host/nightly/night_agents.h"

namespace schedrig::nightly {

struct NightOptions {
  client::ServerTarget target;
  std::string out_dir;        // OUT: night.json, summary.txt, summary.json
  bool resume = false;        // carry on OUT/night.json
  std::string history;        // the JSON-lines history (last_good)
  std::string selftest_plan;  // a plan file instead of the built-in selftest ("" = built-in)
  std::chrono::seconds boot_timeout{900};
  std::chrono::milliseconds poll{1000};
  std::function<void(const std::string&)> progress;  // thread-safe
};

struct NightOutcome {
  int exit_code = 0;  // 0 clean, 1 a gated regression, 3 infrastructure or detector failed
  std::string text;   // the console summary
  std::string json;   // summary.json's text
};

// The selftest plan's text: "" without a selftest, the built-in one, or
// `selftest_plan`'s, which must parse and have variants after its first,
// each with an antagonist. Throws CliError(kUsage) naming the file.
std::string selftest_text(const LabFile& lab, const std::string& selftest_plan);

// Every plan of the night (night_plans: the lab's and the selftest)
// checked against each agent by the server as a submit would check it (POST /api/v1/runs with
// check_only): a bad plan is refused before any box boots. Throws CliError with the server's kind
// (kUsage for a plan error) naming the plan and the agent.
void check_plans_on_agents(client::ApiClient& api, const std::vector<LabPlan>& plans,
                           const std::vector<NightAgent>& agents);

// Runs `lab`'s night. Throws CliError: kUsage for an OUT that already holds
// a night (without resume) or a bad --resume state, kUnreachable when the
// server cannot be reached before anything ran, or an agent named by id is
// not connected (a resumed night waits for it up to boot_timeout: it may be
// booting); kInterrupted when SIGINT/SIGTERM stopped it (night.json stands
// for --resume).
NightOutcome run_night(const LabFile& lab, const NightOptions& o);

}  // namespace schedrig::nightly
