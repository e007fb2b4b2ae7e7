// schedrig (host) subcommands. Each add_*_command registers one CLI11
// subcommand on `app`; its callback stores the exit code in `exit_code`.
// Failures are thrown as schedrig::CliError.
#pragma once

#include <CLI/CLI.hpp>

namespace schedrig::host {

// `serve [--listen ADDR:PORT] [--db F] [--tokens F] [--tls-cert F --tls-key F]
//  [--max-connections N] [--insecure] [--threads N]`
void add_serve_command(CLI::App& app, int& exit_code);
// `results [RUN] [--samples] [--db F | --server URL] [--json|--csv]`
void add_results_command(CLI::App& app, int& exit_code);
// `watch [RUN] [--db F | --server URL] [--poll-ms N] [--json]`: live samples and results of a
// run; exit 0 when it is no longer running, kExitInterrupted (130) on SIGINT/SIGTERM
void add_watch_command(CLI::App& app, int& exit_code);
// `agents [--db F | --server URL] [--json]`
void add_agents_command(CLI::App& app, int& exit_code);
// `import F [--db F]`
void add_import_command(CLI::App& app, int& exit_code);
// `lab [--quick] [--plan F] [--db F] [--agent PATH] [--label K=V]...`
// The whole `schedrig` command line: every subcommand, errors as
// "schedrig: error: ..." with their exit codes. main() is this; a test
// binary registers a simulated workload first (tests/host/bisect).
int host_main(int argc, char** argv);

void add_lab_command(CLI::App& app, int& exit_code);

// `schedrig bisect-knobs` (host/bisect/bisect.h).
void add_bisect_command(CLI::App& app, int& exit_code);
// `compare RUN [--baseline VARIANT] [--against RUN2] [--method M] [--threshold PCT]
//  [--fail-on regression] [--json|--csv] [--db F | --server URL]`; exit 1 when --fail-on finds an
//  (R)
void add_compare_command(CLI::App& app, int& exit_code);
// `run --server URL (--agent ID ... | --all) --plan F [--label K=V]... [--wait]
//  [--fail-on regression] [--json]`: queue a plan on agents through the server
void add_run_command(CLI::App& app, int& exit_code);
// `queue --server URL [--all | --state S] [--json]`: the server's run queue
void add_queue_command(CLI::App& app, int& exit_code);
// `abort RUN --server URL`: abort a queued or running run on the server
void add_abort_command(CLI::App& app, int& exit_code);
// `nightly --lab F --server URL (--out DIR | --resume DIR | --dry-run) [--json]`: a night across
//  kernels (docs/nightly.md); exit 0 clean, 1 a gated regression, 3 infrastructure or detector
void add_nightly_command(CLI::App& app, int& exit_code);
// `report RUN [--against RUN2] --html F [--db F | --server URL]` or `report --nightly DIR
//  [--html F] [--server URL]`: a self-contained HTML report (docs/reports.md)
void add_report_command(CLI::App& app, int& exit_code);
// `trend --agent ID --case C [--metric M] [--since DATE] [--by-kernel] [--db F | --server URL]
//  [--json]`: a case's primary metric run by run, with verdicts and change points
void add_trend_command(CLI::App& app, int& exit_code);
// `analyze FILE.csv [--lower-is-better] [--method M] [--threshold PCT] [--json]`
void add_analyze_command(CLI::App& app, int& exit_code);
// `token new (--agent ID | --operator NAME) [--tokens F]`: the token alone on stdout;
// `token list [--tokens F] [--json]`: role and name per token
void add_token_command(CLI::App& app, int& exit_code);

}  // namespace schedrig::host
