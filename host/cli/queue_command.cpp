// `schedrig queue --server URL`: the server's run queue, what waits and what
// runs per agent (docs/architecture.md "HTTP API", GET /api/v1/runs).
#include <iostream>

#include "common/exit_codes.h"
#include "host/cli/commands.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"
#include "host/report/queue_report.h"

namespace schedrig::host {
namespace {

struct QueueOptions {
  ServerOptions server;
  std::string state;
  bool all = false;
  bool json = false;
};

// The queue rows to show: those of --state, every row with --all, else
// what has not ended (queued, running, disconnected, interrupted).
nlohmann::json shown_rows(const nlohmann::json& answer, const QueueOptions& o) {
  if (o.all || !o.state.empty()) return answer;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : answer.at("runs")) {
    const std::string state = r.value("state", "");
    if (state == "queued" || state == "running" || state == "aborting" || state == "disconnected" ||
        state == "interrupted") {
      rows.push_back(r);
    }
  }
  return {{"runs", std::move(rows)}};
}

void run_queue(const QueueOptions& o) {
  const nlohmann::json answer =
      shown_rows(make_api_client(o.server)->get_json(client::runs_path(o.state)), o);
  const auto entries = client::queue_from_json(answer);  // checks the shape
  if (o.json) {
    std::cout << answer.dump(2) << "\n";
  } else {
    report::print_queue_table(entries, std::cout);
  }
}

}  // namespace

void add_queue_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<QueueOptions>();
  auto* cmd =
      app.add_subcommand("queue",
                         "the server's run queue in FIFO order: runs waiting (position: the runs "
                         "of that agent ahead of it, running or queued; 0 = it starts next) "
                         "and running, disconnected (its agent's link is down: it resumes when "
                         "the agent is back) or interrupted (the agent restarted or stayed away "
                         "longer than serve --interrupt-after), per agent; --all adds the runs "
                         "that ended");
  add_server_options(*cmd, o->server);
  auto* all = cmd->add_flag("--all", o->all, "also the runs that ended (ok, failed, aborted)");
  cmd->add_option("--state", o->state, "only runs in this state")
      ->check(CLI::IsMember(
          {"queued", "running", "disconnected", "interrupted", "ok", "failed", "aborted"}))
      ->excludes(all);
  cmd->add_flag("--json", o->json,
                "JSON: {\"runs\":[{run_id, agent_id, plan_name, state, reason, labels, "
                "submitted_by, submitted_at_ns, dispatched_at_ns, finished_at_ns, "
                "queue_position}]}");
  cmd->callback([o, &exit_code] {
    run_queue(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
