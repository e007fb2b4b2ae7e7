// `schedrig-agent connect URL`: dial the host, introduce this box (Hello,
// Topology), then run each StartRun it sends until the host closes the link.
#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/cli/agent_state.h"
#include "agent/cli/commands.h"
#include "agent/cli/hello.h"
#include "agent/cli/link_sink.h"
#include "agent/link/host_link.h"
#include "agent/link/ws_url.h"
#include "agent/runner/prepare.h"
#include "agent/runner/runner.h"
#include "agent/topology/topology.h"
#include "common/cli_error.h"
#include "common/envelope_codec.h"
#include "common/ids.h"
#include "common/stop_signal.h"
#include "common/wire_names.h"

namespace schedrig::agent {
namespace {

using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

struct ConnectOptions {
  std::string url;
  std::string id;
  double connect_timeout_s = 10;
  std::string token;
  StateOptions state;
};

void send_error(link::HostLink& link, v1::ErrorCode code, const std::string& message,
                const std::string& run_id) {
  v1::Envelope env;
  env.mutable_error()->set_code(code);
  env.mutable_error()->set_message(message);
  env.mutable_error()->set_run_id(run_id);
  link.send(std::move(env));
}

void run_one(link::HostLink& link, const v1::StartRun& start, const topology::Topology& topo,
             knobs::KnobController& knob_control, const std::atomic<bool>& stop_signal) {
  spdlog::info("run {}: plan '{}' starts", start.run_id(), start.plan().name());
  link.abort_flag() = stop_signal.load();
  LinkSink sink(link);
  try {
    v1::RunFinished done = runner::run_plan(start, topo, sink, knob_control, link.abort_flag(),
                                            run_options(knob_control));
    spdlog::info("run {}: {} after {} iterations", start.run_id(), status_name(done.status()),
                 done.completed_iterations());
  } catch (const runner::PlanRejected& e) {
    spdlog::error("run {}: plan rejected: {}", start.run_id(), e.what());
    send_error(link, e.code(), e.what(), start.run_id());
  }
  if (sink.last_seq() && !link.wait_acked(sink.last_seq(), 30s)) {
    if (link.closed()) {
      spdlog::warn("link closed before the host acked seq {}: {}", sink.last_seq(),
                   link.close_reason());
    } else {
      spdlog::warn("host did not ack seq {} within 30 s", sink.last_seq());
    }
  }
}

// Serves the host's commands until it closes the link or a signal arrives.
void serve(link::HostLink& link, const topology::Topology& topo,
           knobs::KnobController& knob_control) {
  const std::atomic<bool>& stop = install_stop_signals();
  while (!stop.load()) {
    auto cmd = link.next_command(200ms);
    if (!cmd) {
      if (link.closed()) {
        spdlog::info("link closed: {}", link.close_reason());
        return;
      }
      continue;
    }
    if (cmd->has_start_run()) {
      run_one(link, cmd->start_run(), topo, knob_control, stop);
    } else if (cmd->has_error()) {
      spdlog::warn("host reports an error: {}", cmd->error().message());
    } else if (!cmd->has_abort() && !cmd->has_ping()) {  // e.g. a Hello sent back
      const std::string what = fmt::format("agent does not take '{}' messages", body_name(*cmd));
      spdlog::warn("host sent a message the agent does not take: {}", body_name(*cmd));
      send_error(link, v1::ERROR_UNEXPECTED, what, "");
    }
  }
}

void run_connect(const ConnectOptions& o, int& exit_code) {
  try {
    link::parse_ws_url(o.url);
  } catch (const std::invalid_argument& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  auto knob_control = open_knobs(o.state);
  topology::Topology topo = topology::load_topology({});
  link::AgentIdentity id{o.id.empty() ? host_name() : o.id, read_boot_id(), make_uuid_v4()};
  link::HostLink link(id);
  try {
    link.connect(o.url, std::chrono::milliseconds(static_cast<long>(o.connect_timeout_s * 1000)));
  } catch (const link::LinkError& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
  spdlog::info("connected to {} as {} (instance {})", o.url, id.agent_id, id.instance_id);
  link.send(make_hello(topo, *knob_control, o.token));
  link.send(make_topology(topo));
  serve(link, topo, *knob_control);
  link.close();
  exit_code = kExitOk;
}

}  // namespace

void add_connect_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ConnectOptions>();
  auto* cmd = app.add_subcommand(
      "connect",
      "dial the host collector, introduce this machine (Hello, Topology), and run the plans it "
      "sends, streaming one IterationResult per iteration; exits 0 when the host closes the link, "
      "3 when the host cannot be reached");
  cmd->add_option("url", opts->url, "collector URL, ws://HOST:PORT/agent")->required();
  cmd->add_option("--id", opts->id, "agent id, a stable name for this box (default: hostname)");
  cmd->add_option("--connect-timeout", opts->connect_timeout_s, "seconds to wait for the host")
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--token", opts->token, "opaque text echoed in Hello (schedrig lab uses it)");
  add_state_options(*cmd, opts->state);
  cmd->callback([opts, &exit_code] { run_connect(*opts, exit_code); });
}

}  // namespace schedrig::agent
