// `schedrig run --server URL (--agent ID ... | --all) --plan F`: queue a plan
// on lab boxes through the server (docs/architecture.md "Command lines",
// "HTTP API", POST /api/v1/runs), and with --wait follow the runs to their
// comparison tables.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/labels.h"
#include "common/plan/plan_yaml.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/gate_options.h"
#include "host/cli/run_wait.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"

namespace schedrig::host {
namespace {

// The most a plan file may hold: the server takes request bodies up to 1 MiB.
constexpr std::size_t kMaxPlanBytes = std::size_t{1} << 20;

struct RunOptions {
  ServerOptions server;
  std::vector<std::string> agents;
  bool all = false;
  std::string plan;
  std::vector<std::string> labels;
  bool wait = false;
  GateCliOptions gate;
  bool json = false;
};

// The plan file's text. CliError(kUsage) when it cannot be read or is too big.
std::string read_plan_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CliError(ErrorKind::kUsage, fmt::format("plan file {}: cannot read it", path));
  std::string text;
  text.resize(kMaxPlanBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxPlanBytes) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("plan file {}: over {} KiB", path, kMaxPlanBytes >> 10));
  }
  return text;
}

// The plan, parsed here first so a bad plan fails at once, naming the file and line.
v1::Plan parse_plan(const std::string& text, const std::string& path) {
  try {
    return parse_plan_yaml(text, path);
  } catch (const PlanError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
}

nlohmann::json submit_body(const RunOptions& o, const std::string& plan_text) {
  nlohmann::json body = {{"plan_yaml", plan_text},
                         {"plan_name", std::filesystem::path(o.plan).filename().string()},
                         {"labels", parse_labels(o.labels)}};
  if (o.all) {
    body["all"] = true;
  } else {
    body["agents"] = o.agents;
  }
  return body;
}

unsigned planned_iterations(const v1::Plan& plan) {
  return static_cast<unsigned>(plan.cases_size()) * static_cast<unsigned>(plan.variants_size()) *
         plan.iterations();
}

int run_on_server(const RunOptions& o) {
  const std::string text = read_plan_text(o.plan);
  const v1::Plan plan = parse_plan(text, o.plan);
  const auto api = make_api_client(o.server);
  const nlohmann::json answer = api->post_json(client::runs_path(), submit_body(o, text));
  const std::vector<QueuedRunRef> runs = queued_runs(answer);
  if (o.json && !o.wait) {
    std::cout << answer.dump(2) << "\n";
    return kExitOk;
  }
  std::ostream& out = o.json ? std::cerr : std::cout;
  for (const auto& r : runs) out << queued_line(r) << "\n";
  out << std::flush;
  if (!o.wait) return kExitOk;
  WaitOptions wait;
  wait.planned = planned_iterations(plan);
  wait.json = o.json;
  wait.fail_on_regression = o.gate.enabled();
  wait.gate = o.gate.gate();
  wait.threshold_pct = o.gate.threshold_pct;
  wait.all_metrics = o.gate.all_metrics;
  return wait_for_runs(*api, runs, wait);
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand(
      "run",
      "queue a plan on lab boxes through `schedrig serve`: the plan is checked here, then by "
      "the server against each agent's Hello and topology, and queued once per agent (one run "
      "at a time per agent, FIFO). Prints each run's id, agent and queue position; with --wait "
      "follows the runs like `watch` and ends with each run's comparison. Exit 0 ok, 1 a run "
      "failed or was aborted (or --fail-on found a regression), 2 bad plan or usage, 3 server "
      "unreachable, " +
          std::to_string(kExitInterrupted) + " when Ctrl-C stops waiting (the runs go on)");
  add_server_options(*cmd, o->server);
  auto* agents = cmd->add_option("--agent", o->agents, "agent id to run on (repeatable)");
  auto* all = cmd->add_flag("--all", o->all, "every agent connected to the server now");
  agents->excludes(all);
  cmd->add_option("--plan", o->plan, "plan file (YAML, docs/architecture.md \"Plan files\")")
      ->required();
  cmd->add_option("--label", o->labels, "run label KEY=VALUE (repeatable; wins over the plan's)");
  cmd->add_flag("--wait", o->wait,
                "follow the runs until they end: a line per iteration result (the agent first "
                "when several), then each run's comparison table");
  add_gate_options(*cmd, o->gate, true);  // with --wait
  cmd->add_flag("--json", o->json,
                "the server's answer {\"runs\":[{run_id, agent_id, queue_position}]}; with "
                "--wait, the runs as `results --json` (progress lines go to stderr)");
  cmd->callback([o, &exit_code] {
    if (o->agents.empty() && !o->all) {
      throw CliError(ErrorKind::kUsage, "run: give --agent ID (repeatable) or --all");
    }
    if (o->gate.enabled() && !o->wait) {
      throw CliError(ErrorKind::kUsage,
                     "run: --fail-on needs --wait (the gate judges the results)");
    }
    exit_code = run_on_server(*o);
  });
}

}  // namespace schedrig::host
