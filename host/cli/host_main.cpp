// host_main (host/cli/commands.h): the `schedrig` command line.
#include <iostream>

#include <CLI/CLI.hpp>

#include "common/cli_error.h"
#include "common/logging.h"
#include "host/cli/commands.h"

namespace schedrig::host {

int host_main(int argc, char** argv) {
  CLI::App app{
      "schedrig: catches Linux scheduler performance regressions. Collects results from "
      "schedrig-agent over a WebSocket into SQLite, shows them, and runs the whole job on this "
      "machine with `schedrig lab`.",
      "schedrig"};
  app.set_version_flag("--version", SCHEDRIG_VERSION);
  app.require_subcommand(1);
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember(schedrig::kLogLevels));
  app.parse_complete_callback([&] { schedrig::init_logging("schedrig", log_level); });
  int exit_code = schedrig::kExitOk;
  schedrig::host::add_lab_command(app, exit_code);
  schedrig::host::add_bisect_command(app, exit_code);
  schedrig::host::add_serve_command(app, exit_code);
  schedrig::host::add_results_command(app, exit_code);
  schedrig::host::add_watch_command(app, exit_code);
  schedrig::host::add_agents_command(app, exit_code);
  schedrig::host::add_import_command(app, exit_code);
  schedrig::host::add_compare_command(app, exit_code);
  schedrig::host::add_analyze_command(app, exit_code);
  schedrig::host::add_token_command(app, exit_code);
  schedrig::host::add_run_command(app, exit_code);
  schedrig::host::add_queue_command(app, exit_code);
  schedrig::host::add_abort_command(app, exit_code);
  schedrig::host::add_nightly_command(app, exit_code);
  schedrig::host::add_report_command(app, exit_code);
  schedrig::host::add_trend_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? schedrig::kExitOk : schedrig::kExitUsage;
  } catch (const schedrig::Error& e) {
    std::cerr << "schedrig: error: " << e.what() << "\n";
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "schedrig: error: " << e.what() << "\n";
    return schedrig::kExitFailed;
  }
  return exit_code;
}

}  // namespace schedrig::host
