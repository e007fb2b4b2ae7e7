#include "agent/session/session.h"

#include <spdlog/spdlog.h>

#include "agent/link/host_link.h"
#include "agent/link/ws_url.h"
#include "agent/runner/prepare.h"
#include "agent/runner/runner.h"
#include "agent/session/hello.h"
#include "agent/session/host_commands.h"
#include "agent/session/link_sink.h"
#include "agent/session/state_lock.h"
#include "agent/session/stop_relay.h"
#include "agent/topology/topology.h"
#include "common/cli_error.h"
#include "common/ids.h"
#include "common/printable.h"
#include "common/wire_names.h"

namespace schedrig::agent {
namespace {

using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

// Everything a run needs that lives as long as the session.
struct Session {
  link::HostLink& link;
  const topology::Topology& topo;
  knobs::KnobController& knob_control;
  const std::atomic<bool>& stop;
};

// Waits for the host to ack the run's last envelope; logs when it does not.
void wait_for_ack(link::HostLink& link, std::uint64_t last_seq) {
  if (!last_seq || link.wait_acked(last_seq, 30s)) return;
  if (link.closed()) {
    spdlog::warn("link closed before the host acked seq {}: {}", last_seq, link.close_reason());
  } else {
    spdlog::warn("host did not ack seq {} within 30 s", last_seq);
  }
}

void run_one(const Session& s, const v1::StartRun& start) {
  spdlog::info("run {}: plan '{}' starts", printable(start.run_id()),
               printable(start.plan().name()));
  s.link.abort_flag() = s.stop.load();
  const StopRelay relay(s.stop, s.link.abort_flag());  // SIGINT/SIGTERM abort the run
  LinkSink sink(s.link);
  try {
    v1::RunFinished done = runner::run_plan(start, s.topo, sink, s.knob_control,
                                            s.link.abort_flag(), run_options(s.knob_control));
    spdlog::info("run {}: {} after {} iterations", printable(start.run_id()),
                 status_name(done.status()), done.completed_iterations());
  } catch (const runner::PlanRejected& e) {
    spdlog::error("run {}: plan rejected: {}", printable(start.run_id()), printable(e.what()));
    s.link.send(error_envelope(e.code(), e.what(), start.run_id()));
  }
  wait_for_ack(s.link, sink.last_seq());
}

// The link ended otherwise than cleanly. A 1008 close is the host refusing
// this agent (an --id its token was not made for, another live agent with
// this id): a configuration error, exit 2 like a refused token, with the
// host's reason; anything else lost the session: exit 1.
[[noreturn]] void link_ended(const link::HostLink& link) {
  if (link.refused()) {
    throw CliError(ErrorKind::kUsage, "host refused this agent: " + link.close_reason());
  }
  throw CliError(ErrorKind::kFailed, "link lost: " + link.close_reason());
}

// Serves the host's commands until it closes the link or `stop` is set.
void serve(const Session& s) {
  const CommandHandlers handlers{[&s](const v1::StartRun& start) { run_one(s, start); },
                                 [&s](v1::Envelope env) { s.link.send(std::move(env)); }};
  while (!s.stop.load()) {
    auto cmd = s.link.next_command(200ms);
    if (cmd) {
      handle_command(*cmd, handlers);
    } else if (s.link.closed()) {
      if (!s.link.closed_cleanly()) link_ended(s.link);
      spdlog::info("link closed: {}", s.link.close_reason());
      return;
    }
  }
}

void check_url(const std::string& url) {
  try {
    link::parse_ws_url(url);
  } catch (const std::invalid_argument& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
}

}  // namespace

void run_session(const SessionOptions& o, const std::atomic<bool>& stop) {
  check_url(o.url);
  const StateDirLock state_lock(state_dir_of(o.state));  // exit 3 when another agent has it
  auto knob_control = open_knobs(o.state);
  topology::Topology topo = topology::load_topology({});
  link::AgentIdentity id{o.id.empty() ? host_name() : o.id, read_boot_id(), make_uuid_v4()};
  link::HostLink link(id);
  link.connect(o.url, o.connect_timeout, o.security);  // LinkError: kUnreachable, exit 3
  spdlog::info("connected to {} as {} (instance {})", o.url, id.agent_id, id.instance_id);
  try {
    link.send(make_hello(topo, *knob_control));
    link.send(make_topology(topo));
    serve(Session{link, topo, *knob_control, stop});
  } catch (const link::LinkError& e) {  // lost once connected: the session failed (exit 1)
    if (link.refused()) link_ended(link);
    throw CliError(ErrorKind::kFailed, e.what());
  }
  link.close();
}

}  // namespace schedrig::agent
