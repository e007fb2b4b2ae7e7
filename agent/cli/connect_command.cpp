// `schedrig-agent connect URL`: the flags of an agent session with the host
// (agent/session/session.h).
#include <chrono>
#include <memory>

#include "agent/cli/commands.h"
#include "agent/cli/state_options.h"
#include "agent/session/session.h"
#include "common/exit_codes.h"
#include "common/stop_signal.h"

namespace schedrig::agent {
namespace {

struct ConnectOptions {
  SessionOptions session;
  double connect_timeout_s = 10;
};

void run_connect(ConnectOptions& o, int& exit_code) {
  o.session.connect_timeout =
      std::chrono::milliseconds(static_cast<long>(o.connect_timeout_s * 1000));
  run_session(o.session, install_stop_signals());
  exit_code = kExitOk;
}

}  // namespace

void add_connect_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ConnectOptions>();
  auto* cmd = app.add_subcommand(
      "connect",
      "dial the host collector, introduce this machine (Hello, Topology), and run the plans it "
      "sends, streaming one IterationResult per iteration; exits 0 when the host closes the link "
      "normally (1000) or on SIGINT/SIGTERM, 1 when the link is lost otherwise (a reset, 1011, "
      "an over-size message), 3 when the host cannot be reached");
  cmd->add_option("url", opts->session.url, "collector URL, ws://HOST:PORT/agent")->required();
  cmd->add_option("--id", opts->session.id,
                  "agent id, a stable name for this box (default: hostname)");
  cmd->add_option("--connect-timeout", opts->connect_timeout_s, "seconds to wait for the host")
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--token", opts->session.token,
                  "opaque text echoed in Hello (schedrig lab uses it)");
  add_state_options(*cmd, opts->session.state);
  cmd->callback([opts, &exit_code] { run_connect(*opts, exit_code); });
}

}  // namespace schedrig::agent
