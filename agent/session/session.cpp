#include "agent/session/session.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/link/uplink.h"
#include "agent/link/ws_url.h"
#include "agent/runner/prepare.h"
#include "agent/runner/runner.h"
#include "agent/session/current_run.h"
#include "agent/session/hello.h"
#include "agent/session/host_commands.h"
#include "agent/session/link_sink.h"
#include "agent/session/session_boot.h"
#include "agent/session/state_lock.h"
#include "agent/session/stop_relay.h"
#include "agent/spool/spool.h"
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
  link::Uplink& link;
  const topology::Topology& topo;
  knobs::KnobController& knob_control;
  const std::atomic<bool>& stop;
  std::string current_run_file;      // STATE/current-run
  RunLockOptions run_lock;           // taken by each run (common/run_lock.h)
  const tools::ToolPaths& tools;     // which binary runs for each external tool
  const boot::KernelTable& kernels;  // what a Boot may name
  // The test hook's simulated slower kernel, when the box runs one: the
  // same for the whole session (a boot ends it).
  v1::Antagonist simulated_slowdown;
};

// Waits for the host to ack the run's last envelope while the link is up;
// with the link down the spool keeps it for the next connection.
void wait_for_ack(link::Uplink& link, std::uint64_t last_seq) {
  if (!last_seq || link.wait_acked(last_seq, 30s)) return;
  if (!link.live()) {
    spdlog::info("link down: seq {} stays in the spool until the host acks it", last_seq);
  } else {
    spdlog::warn("host did not ack seq {} within 30 s", last_seq);
  }
}

// STATE/current-run names the run, so a restarted agent can report it; a
// file that cannot be written only costs that report (warned).
void note_current_run(const Session& s, const std::string& run_id) {
  try {
    write_current_run(s.current_run_file,
                      {run_id, s.link.identity().instance_id, s.link.identity().boot_id});
  } catch (const std::runtime_error& e) {
    spdlog::warn("run {}: {}", printable(run_id), e.what());
  }
}

void run_one(const Session& s, const v1::StartRun& start) {
  spdlog::info("run {}: plan '{}' starts", printable(start.run_id()),
               printable(start.plan().name()));
  note_current_run(s, start.run_id());
  s.link.abort_flag() = s.stop.load();
  const StopRelay relay(s.stop, s.link.abort_flag());  // SIGINT/SIGTERM abort the run
  LinkSink sink(s.link);
  try {
    runner::RunOptions options = run_options(s.knob_control, s.tools, s.run_lock);
    options.simulated_slowdown = s.simulated_slowdown;
    v1::RunFinished done =
        runner::run_plan(start, s.topo, sink, s.knob_control, s.link.abort_flag(), options);
    spdlog::info("run {}: {} after {} iterations", printable(start.run_id()),
                 status_name(done.status()), done.completed_iterations());
  } catch (const runner::PlanRejected& e) {
    spdlog::error("run {}: plan rejected: {}", printable(start.run_id()), printable(e.what()));
    s.link.send(error_envelope(e.code(), e.what(), start.run_id()));
  }
  remove_current_run(s.current_run_file);  // its RunFinished (or Error) is in the spool
  wait_for_ack(s.link, sink.last_seq());
}

// The uplink ended: the host closed it (1000: return, exit 0), refused this
// agent (exit 2, the host's reason), or --give-up-after passed (exit 3 when
// the host was never reached, 1 when the link was lost).
void link_ended(const link::Uplink& link) {
  switch (link.end()) {
    case link::UplinkEnd::kRefused:
      throw CliError(ErrorKind::kUsage, link.end_reason());
    case link::UplinkEnd::kNeverConnected:
      throw CliError(ErrorKind::kUnreachable, link.end_reason());
    case link::UplinkEnd::kLost:
      throw CliError(ErrorKind::kFailed, "link lost: " + link.end_reason());
    default:
      spdlog::info("link closed: {}", link.end_reason());
  }
}

BootContext boot_context(const Session& s) {
  return {s.kernels, s.knob_control.root(), s.topo.allowed_cpus,
          [&s](v1::Envelope env) { wait_for_ack(s.link, s.link.send(std::move(env))); }};
}

// Serves the host's commands until the uplink ends, `stop` is set or a
// Boot's hook asked for the reboot.
void serve(const Session& s, SeenRuns& seen) {
  bool rebooting = false;
  const CommandHandlers handlers{
      [&s](const v1::StartRun& start) { run_one(s, start); },
      [&s](v1::Envelope env) { s.link.send(std::move(env)); },
      [&s, &rebooting](const v1::Boot& b) { rebooting = boot_on_request(b, boot_context(s)); }};
  while (!s.stop.load() && !rebooting) {
    auto cmd = s.link.next_command(200ms);
    if (cmd) {
      handle_command(*cmd, handlers, seen);
    } else if (s.link.end() != link::UplinkEnd::kOpen) {
      return link_ended(s.link);
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

// Opens the run lock once (not taking it), so a lock directory that cannot
// be trusted is a usage error at start rather than a failed run later.
void check_run_lock(const RunLockOptions& o) {
  try {
    const RunLock lock(o);
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUsage, fmt::format("run lock: {}", e.what()));
  }
}

link::UplinkOptions uplink_options(const SessionOptions& o, const std::atomic<bool>& stop) {
  link::UplinkOptions u;
  u.url = o.url;
  u.security = o.security;
  u.connect_timeout = o.connect_timeout;
  u.give_up_after = o.give_up_after;
  u.stop = &stop;
  return u;
}

}  // namespace

void run_session(const SessionOptions& o, const std::atomic<bool>& stop) {
  check_url(o.url);
  const std::string state_dir = state_dir_of(o.state);
  const StateDirLock state_lock(state_dir);  // exit 3 when another agent has it
  check_run_lock(o.state.run_lock);          // exit 2 for an untrusted lock dir, before dialing
  auto knob_control = open_knobs(o.state);   // knobs of a killed instance restored first
  topology::Topology topo = topology::load_topology({});
  link::AgentIdentity id{o.id.empty() ? host_name() : o.id, current_boot_id(knob_control->root()),
                         make_uuid_v4()};
  spool::SpoolOptions spool_options;
  spool_options.max_bytes = o.spool_max_bytes;
  spool_options.agent_id = id.agent_id;  // older instances of other ids: *.orphan
  spool::Spool spool(state_dir + "/spool", spool_options);
  link::Uplink link(uplink_options(o, stop), id, spool);
  spdlog::info("agent {} (instance {})", id.agent_id, id.instance_id);
  v1::Envelope hello = make_hello(topo, *knob_control);
  o.kernels.add_to(*hello.mutable_hello());
  for (const auto& name : o.bisect_deny) hello.mutable_hello()->add_bisect_deny(name);
  link.start(std::move(hello), make_topology(topo));
  SeenRuns seen;
  seen.first(
      report_unfinished_run(state_dir, id.instance_id, id.boot_id,
                            [&link](v1::Envelope env) { return link.send(std::move(env)); }));
  serve(Session{link, topo, *knob_control, stop, current_run_path(state_dir), o.state.run_lock,
                o.state.tools, o.kernels, simulated_slowdown(o.kernels, knob_control->root())},
        seen);
  link.close();
}

}  // namespace schedrig::agent
