// agent_main (agent/cli/commands.h): the `schedrig-agent` command line.
#include <iostream>

#include <CLI/CLI.hpp>

#include "agent/cli/commands.h"
#include "common/cli_error.h"
#include "common/logging.h"

namespace schedrig::agent {

int agent_main(int argc, char** argv) {
  CLI::App app{
      "schedrig-agent: the lab-box side of schedrig. Maps the machine (hwloc, libnuma), runs "
      "pinned fork/wakeup/kv workloads, and streams results to a schedrig collector over a "
      "WebSocket.",
      "schedrig-agent"};
  app.set_version_flag("--version", SCHEDRIG_VERSION);
  app.require_subcommand(1);
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember(schedrig::kLogLevels));
  app.parse_complete_callback([&] { schedrig::init_logging("agent", log_level); });
  int exit_code = schedrig::kExitOk;
  schedrig::agent::add_topology_command(app, exit_code);
  schedrig::agent::add_stress_command(app, exit_code);
  schedrig::agent::add_connect_command(app, exit_code);
  schedrig::agent::add_run_command(app, exit_code);
  schedrig::agent::add_knobs_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? schedrig::kExitOk : schedrig::kExitUsage;
  } catch (const schedrig::Error& e) {
    std::cerr << "schedrig-agent: error: " << e.what() << "\n";
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "schedrig-agent: error: " << e.what() << "\n";
    return schedrig::kExitFailed;
  }
  return exit_code;
}

}  // namespace schedrig::agent
