#include "host/cli/bisect_remote.h"

#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/cli_error.h"
#include "common/plan/plan_json.h"
#include "common/printable.h"
#include "host/bisect/box_knobs.h"
#include "host/cli/remote_watch.h"
#include "host/cli/run_wait.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"
#include "host/client/remote_runs.h"
#include "host/client/run_events.h"

namespace schedrig::host {
namespace {

using nlohmann::json;

// How long aborting the probe after Ctrl-C may take.
constexpr std::chrono::milliseconds kAbortTimeout{10000};

// The agent's row of GET /api/v1/agents; CliError(kUsage) naming the
// agents the server has when it has no such one.
json agent_row(client::ApiClient& api, const std::string& agent) {
  std::vector<std::string> known;
  if (auto row = client::agent_row_from_json(api.get_json(client::agents_path()), agent, &known))
    return std::move(*row);
  throw CliError(
      ErrorKind::kUsage,
      printable(fmt::format("--agent {}: the server {} has no such agent (it has: {})", agent,
                            api.url().origin(),
                            known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", ")))));
}

// Aborts `run_id` on the server, saying so; a failure to is said, not thrown.
void abort_probe(client::ApiClient& api, const std::string& run_id) {
  api.stop_on_signals(false);  // the signal that stopped the wait must not stop this
  try {
    api.post(client::abort_path(run_id), "{}", kAbortTimeout);
    std::cerr << "probe run " << run_id << " aborted on the server\n";
  } catch (const std::exception& e) {
    std::cerr << printable(fmt::format("probe run {} could not be aborted: {} (`schedrig abort "
                                       "{}` stops it)",
                                       run_id, e.what(), run_id))
              << "\n";
  }
}

// Follows `run_id` until it ends, printing iteration lines when `verbose`.
void follow(client::ApiClient& api, const std::string& run_id, bool verbose) {
  client::RunFollower follower(api, run_id);
  client::follow_to_end(follower, kLongPollS, std::cerr, [&](const client::RunEvent& event) {
    if (const auto* it = std::get_if<store::IterationRecord>(&event); it && verbose)
      std::cerr << printable(fmt::format("  {} {} #{}: {}", it->case_name, it->variant,
                                         it->iteration, it->status))
                << "\n";
    else if (const auto* c = std::get_if<client::RunStateEvent>(&event))
      std::cerr << printable(client::run_state_line(run_id, *c)) << "\n";
    else if (const auto* l = std::get_if<client::RunLogEvent>(&event); l && (verbose || l->waiting))
      std::cerr << printable("agent: " + l->message) << "\n";
  });
}

}  // namespace

bisect::BoxKnobs read_remote_box_knobs(client::ApiClient& api, const std::string& agent) {
  const json row = agent_row(api, agent);
  if (!row.value("connected", false))
    throw CliError(ErrorKind::kUnreachable,
                   printable(fmt::format("--agent {}: not connected to {}; its knobs are known "
                                         "only from its Hello while it is connected: start or "
                                         "reconnect its agent",
                                         agent, api.url().origin())));
  try {
    return bisect::parse_knobs_list(api.get_json(client::agent_knobs_path(agent)));
  } catch (const std::invalid_argument& e) {
    throw CliError(ErrorKind::kFailed,
                   printable(fmt::format("{} {}: {}", api.url().origin(),
                                         client::agent_knobs_path(agent), e.what())));
  }
}

store::RunRecord run_remote_probe(client::ApiClient& api, const std::string& agent,
                                  const v1::Plan& plan, bool verbose) {
  const json body = {{"plan_yaml", plan_to_json(plan).dump(2)},
                     {"plan_name", "bisect-knobs-probe.yaml"},
                     {"agents", {agent}},
                     {"labels", {{"bisect-knobs", "probe"}}}};
  const std::vector<QueuedRunRef> runs = queued_runs(api.post_json(client::runs_path(), body));
  if (runs.size() != 1)
    throw CliError(ErrorKind::kFailed,
                   fmt::format("the server queued {} runs for one probe", runs.size()));
  const QueuedRunRef& run = runs.front();
  if (run.queue_position > 0 || !run.connected) std::cerr << queued_line(run) << "\n";
  try {
    follow(api, run.run_id, verbose);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kInterrupted) abort_probe(api, run.run_id);
    throw;
  }
  return client::fetch_run(api, run.run_id);
}

}  // namespace schedrig::host
