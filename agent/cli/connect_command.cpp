// `schedrig-agent connect URL`: the flags of an agent session with the host
// (agent/session/session.h); how they combine with the environment and
// --config is connect_settings.h.
#include <memory>

#include "agent/cli/commands.h"
#include "agent/cli/connect_settings.h"
#include "agent/cli/state_options.h"
#include "agent/session/session.h"
#include "common/cli_error.h"
#include "common/exit_codes.h"
#include "common/stop_signal.h"

namespace schedrig::agent {
namespace {

// Flags whose presence on the command line decides over env and --config.
constexpr const char* kSettledFlags[] = {"url",
                                         "--id",
                                         "--token-file",
                                         "--ca",
                                         "--connect-timeout",
                                         "--give-up-after",
                                         "--spool-max-mb",
                                         "--root",
                                         "--state-dir"};

struct ConnectCli {
  ConnectFlags flags;
  std::string removed_token;  // the old --token T, refused
};

void run_connect(CLI::App& cmd, ConnectCli& c, int& exit_code) {
  if (cmd.count("--token") > 0) {
    throw CliError(ErrorKind::kUsage,
                   "--token is gone: a token on the command line is readable by every local user "
                   "(/proc/PID/cmdline); put it in a file only you can read (chmod 600) and pass "
                   "--token-file F");
  }
  for (const char* flag : kSettledFlags) {
    if (cmd.count(flag) > 0) c.flags.given.insert(flag);
  }
  run_session(connect_session_options(c.flags), install_stop_signals());
  exit_code = kExitOk;
}

}  // namespace

void add_connect_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<ConnectCli>();
  ConnectFlags& f = c->flags;
  auto* cmd = app.add_subcommand(
      "connect",
      "dial the host collector (ws:// or wss://), present this agent's token, introduce this "
      "machine (Hello, Topology), and run the plans it sends, streaming one IterationResult per "
      "iteration. Every envelope goes to the spool (STATE/spool) first; a lost link is redialed "
      "with backoff (100 ms up to 30 s, for ever by default) and what the host did not ack is "
      "replayed, so a run goes on while the host is away. Exits 0 when the host closes the link "
      "normally (1000) or on SIGINT/SIGTERM; 1 when the link was lost and --give-up-after "
      "passed; 2 for bad usage or a configuration the host refuses (a token file others may "
      "read, an unknown --config key, a token the host refuses with 401/403, a 404, or a close "
      "with 1008 such as an --id the token was not made for; the host's reason is printed); 3 "
      "when the host was never reached within --give-up-after, or another agent holds the "
      "state dir");
  cmd->add_option("url", f.url,
                  "collector URL, ws://HOST[:PORT]/agent or wss://HOST[:PORT]/agent (default "
                  "ports 80 and 443); or url in --config");
  cmd->add_option("--id", f.id,
                  "agent id, a stable name for this box, the one its token was made for "
                  "(default: hostname)");
  auto* token_file =
      cmd->add_option("--token-file", f.token_file,
                      "file holding this agent's token (first line; mode 0600 or stricter); "
                      "default $SCHEDRIG_AGENT_TOKEN_FILE, then token_file in --config");
  cmd->add_option("--token-fd", f.token_fd,
                  "read the token from this inherited file descriptor (a pipe; read to EOF, "
                  "then closed), as `schedrig lab` does")
      ->check(CLI::NonNegativeNumber)
      ->excludes(token_file);
  cmd->add_option("--ca", f.ca,
                  "PEM CA certificate(s) to verify a wss:// host against (default "
                  "$SCHEDRIG_CA, then ca in --config, then the system's trust store)");
  cmd->add_option(
      "--config", f.config,
      "YAML file with keys url, id, token_file, ca, connect_timeout_s, root, state_dir, "
      "give_up_after_s, spool_max_mb, the map tools (NAME: PATH, docs/workloads.md) and the "
      "section kernels (what a Boot may name and how this box boots it, docs/nightly.md), and "
      "the list bisect_deny (knobs bisect-knobs must never flip here, docs/bisect-knobs.md); "
      "flags (and SCHEDRIG_* variables) win over it");
  cmd->add_option("--connect-timeout", f.connect_timeout_s,
                  "seconds one connection attempt may take (TCP, TLS, WebSocket handshakes)")
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--give-up-after", f.give_up_after_s,
                  "seconds without a live link before giving up (exit 3 if the host was never "
                  "reached, 1 if the link was lost); default 0 = never, keep trying")
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--spool-max-mb", f.spool_max_mb,
                  "MiB the spool of unacked envelopes may take on disk (default 256): when full, "
                  "samples are dropped (counted in RunFinished) and results wait for acks")
      ->check(CLI::Range(1, 1048576));
  cmd->add_option("--token", c->removed_token)->group("");  // gone: says why and what instead
  add_state_options(*cmd, f.state);
  add_run_lock_options(*cmd, f.state.run_lock);
  add_tool_options(*cmd, f.tools);
  cmd->callback([c, cmd, &exit_code] { run_connect(*cmd, *c, exit_code); });
}

}  // namespace schedrig::agent
