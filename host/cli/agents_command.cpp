// `schedrig agents`: the lab boxes in the store, with their topology counts.
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/read_store.h"
#include "host/report/report.h"

namespace schedrig::host {
namespace {

struct AgentsOptions {
  std::string db;
  bool json = false;
};

void run_agents(const AgentsOptions& o) {
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
      "LLCs, cores and PUs from each agent's latest topology, runs stored, last seen");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->add_flag("--json", o->json, "JSON: {\"agents\":[{agent_id, ..., topology:{...}}]}");
  cmd->callback([o, &exit_code] {
    run_agents(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
