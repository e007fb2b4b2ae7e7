// `schedrig agents`: the lab boxes in the store, with their topology counts;
// with --server, each agent's live state on the server.
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/read_store.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"
#include "host/report/live_agents_report.h"
#include "host/report/report.h"

namespace schedrig::host {
namespace {

struct AgentsOptions {
  std::string db;
  ServerOptions server;
  bool json = false;
};

void print_server_agents(const AgentsOptions& o) {
  const nlohmann::json answer = make_api_client(o.server)->get_json(client::agents_path());
  const auto agents = client::live_agents_from_json(answer);  // checks the shape
  if (o.json) {
    std::cout << answer.dump(2) << "\n";
  } else {
    report::print_live_agents_table(agents, std::cout);
  }
}

void run_agents(const AgentsOptions& o) {
  if (use_server(o.server, o.db)) return print_server_agents(o);
  const auto agents = read_store(o.db, [](const store::Store& s) { return s.agents(); });
  if (o.json) {
    std::cout << report::agents_json(agents).dump(2) << "\n";
  } else {
    report::print_agents_table(agents, std::cout);
  }
}

}  // namespace

void add_agents_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AgentsOptions>();
  auto* cmd = app.add_subcommand(
      "agents",
      "list the lab boxes whose agents reported to this store: kernel, packages, NUMA nodes, "
      "LLCs, cores and PUs from each agent's latest topology, runs stored, last seen. With "
      "--server: each agent as the server sees it now: connected or offline, idle / running "
      "RUN / N queued, kernel, PUs, peer, last seen");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  add_server_options(*cmd, o->server);
  cmd->add_flag("--json", o->json,
                "JSON: {\"agents\":[{agent_id, ..., topology:{...}}]}; with --server the "
                "server's {\"agents\":[{agent_id, connected, state, run_id, queued, hostname, "
                "kernel_release, pus, allowed_pus, peer, instance_id, last_seen_ns}]}");
  cmd->callback([o, &exit_code] {
    run_agents(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
