#include "agent/session/offline_session.h"

#include <memory>

#include <spdlog/spdlog.h>

#include "agent/runner/prepare.h"
#include "agent/runner/runner.h"
#include "agent/session/file_sink.h"
#include "agent/session/hello.h"
#include "agent/session/state_lock.h"
#include "agent/topology/topology.h"
#include "common/cli_error.h"
#include "common/ids.h"
#include "common/run_lock.h"

namespace schedrig::agent {
namespace {

namespace v1 = schedrig::v1;

std::unique_ptr<FileSink> open_sink(const OfflineOptions& o, std::ostream& progress) {
  try {
    return std::make_unique<FileSink>(
        o.out, AgentIdentity{o.id.empty() ? host_name() : o.id, read_boot_id(), make_uuid_v4()},
        progress);
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
}

// The refusal, with the plan's file and line in front when the entry at
// fault is known (as the host's plan check gives them).
std::string rejection_text(const runner::PlanRejected& e, const OfflineOptions& o) {
  if (e.key().empty() || o.plan_file.empty()) return e.what();
  return PlanError(o.plan_file, o.plan_lines.line_of(e.key()), e.key(), e.value(), e.what()).what();
}

// A wait for the run lock, on stderr (there is no host to tell).
void log_run_lock_wait(const std::string& message, bool taken) {
  spdlog::log(taken ? spdlog::level::info : spdlog::level::warn, "{}", message);
}

}  // namespace

v1::RunFinished run_offline(const v1::StartRun& start, const OfflineOptions& o,
                            const std::atomic<bool>& stop, std::ostream& progress) {
  const StateDirLock state_lock(state_dir_of(o.state));  // exit 3 when another agent has it
  const auto run_lock = hold_run_lock(o.state.run_lock, start.run_id(), stop, log_run_lock_wait);
  auto knob_control = open_knobs(o.state);
  topology::Topology topo = topology::load_topology({});
  std::unique_ptr<FileSink> sink = open_sink(o, progress);
  sink->write(make_hello(topo, *knob_control));
  sink->write(make_topology(topo));
  try {
    return runner::run_plan(start, topo, *sink, *knob_control, stop,
                            run_options(*knob_control, o.state.tools));
  } catch (const runner::PlanRejected& e) {
    throw CliError(
        e.code() == v1::ERROR_FACILITY_UNAVAILABLE ? ErrorKind::kUnreachable : ErrorKind::kUsage,
        rejection_text(e, o));
  }
}

}  // namespace schedrig::agent
