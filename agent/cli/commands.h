// schedrig-agent subcommands. Each add_*_command registers one CLI11
// subcommand on `app`; its callback runs the command and stores the process
// exit code in `exit_code`. Failures are thrown as schedrig::CliError.
#pragma once

#include <CLI/CLI.hpp>

namespace schedrig::agent {

// The whole `schedrig-agent` command line; main() is this. A test binary
// registers a simulated workload first (tests/host/bisect).
int agent_main(int argc, char** argv);


// `topology [--xml F | --synthetic D] [--json]`
void add_topology_command(CLI::App& app, int& exit_code);
// `stress fork ...`
void add_stress_command(CLI::App& app, int& exit_code);
// `connect URL [--id NAME]`
void add_connect_command(CLI::App& app, int& exit_code);
// `run --plan F [--out F]`
void add_run_command(CLI::App& app, int& exit_code);
// `knobs list|get NAME|set NAME[=VALUE]|restore`
void add_knobs_command(CLI::App& app, int& exit_code);

}  // namespace schedrig::agent
