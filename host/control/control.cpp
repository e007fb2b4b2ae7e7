#include "host/control/control.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/ids.h"
#include "common/printable.h"
#include "host/control/api_error.h"
#include "host/control/api_json.h"
#include "host/plan_check/plan_check.h"

namespace schedrig::control {

Control::Control(store::Store& store, boost::asio::any_io_executor executor, ControlOptions options)
    : store_(store),
      executor_(std::move(executor)),
      options_(options),
      reader_(store.path()),
      dispatcher_(store, options.shared_store),
      sweep_(executor_) {
  if (options.shared_store) return;
  if (int gone = store_.disconnect_dispatched_runs("serve restarted"); gone > 0) {
    spdlog::warn(
        "{} run(s) the last serve had started are disconnected (serve restarted); each "
        "resumes when its agent is back",
        gone);
  }
  schedule_sweep();
}

Control::~Control() {
  alive_.reset();
  sweep_.cancel();
}

void Control::schedule_sweep() {
  sweep_.expires_after(options_.sweep_interval);
  sweep_.async_wait([this, alive = std::weak_ptr<int>(alive_)](boost::system::error_code ec) {
    if (ec || alive.expired()) return;  // cancelled, or the Control is gone
    dispatcher_.interrupt_stale(options_.interrupt_after);
    schedule_sweep();
  });
}

void Control::on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                       const v1::Envelope& env) {
  dispatcher_.hello(channel, env);
}

void Control::on_stored(const v1::Envelope& env) { dispatcher_.stored(env); }

void Control::on_closed(const collector::AgentChannel& channel, const std::string& agent_id,
                        const std::string& reason) {
  if (!agent_id.empty()) dispatcher_.closed(channel, agent_id, reason);
}

std::vector<SubmittedRun> Control::submit(const Submission& s, const std::string& submitted_by) {
  const std::vector<Target> checked = targets(s);
  for (const Target& t : checked) {
    try {
      plan_check::check_plan_for_agent(s.plan, s.lines, s.plan_name, t.agent_id, t.hello,
                                       t.topology);
    } catch (const PlanError& e) {
      throw ApiError(400, plan_error_json(e));
    }
  }
  std::vector<SubmittedRun> out;
  if (s.check_only) return out;
  for (const Target& t : checked) {
    store::QueuedRun row;
    row.run_id = checked.size() == 1 && !s.run_id.empty() ? s.run_id : make_uuid_v4();
    row.agent_id = t.agent_id;
    row.plan_name = s.plan_name;
    row.plan = s.plan;
    row.labels = merged_labels(s.plan, s.labels);
    row.submitted_by = submitted_by;
    row.submitted_at_ns = wall_clock_ns();
    store_.enqueue_run(row);
    dispatcher_.submitted(row.run_id);
    spdlog::info("run {} queued for agent {} by {} (plan '{}')", row.run_id, t.agent_id,
                 printable(submitted_by), printable(s.plan_name));
    out.push_back({row.run_id, row.agent_id, 0});
  }
  const auto positions = queue_positions(active_rows());
  for (SubmittedRun& r : out) {
    auto pos = positions.find(r.run_id);
    r.queue_position = pos == positions.end() ? 0 : pos->second;
  }
  for (const Target& t : checked) dispatcher_.dispatch(t.agent_id);
  return out;
}

AbortOutcome Control::abort(const std::string& run_id, const std::string& by) {
  auto row = store_.queued_run(run_id);
  if (!row) throw ApiError(404, fmt::format("run {} is not in the queue", run_id));
  AbortOutcome outcome = dispatcher_.abort(*row, by);
  spdlog::info("run {} {} by {}", run_id, outcome.state, printable(by));
  return outcome;
}

std::vector<Control::Target> Control::targets(const Submission& s) const {
  std::vector<std::string> ids = s.agents;
  if (s.all) {
    for (const auto& [id, agent] : dispatcher_.live()) ids.push_back(id);
    if (ids.empty()) throw ApiError(400, "all: no agent is connected");
  }
  std::vector<Target> out;
  for (const std::string& id : ids) out.push_back(target(id));
  return out;
}

Control::Target Control::target(const std::string& agent_id) const {
  Target t;
  t.agent_id = agent_id;
  if (dispatcher_.live_state(agent_id, t.hello, t.topology)) return t;
  std::optional<store::AgentState> stored = reader_.agent_state(agent_id);
  if (!stored) throw ApiError(404, fmt::format("unknown agent {}", agent_id));
  if (!stored->has_topology) {
    throw ApiError(409, fmt::format("agent {} has not sent its topology yet", agent_id));
  }
  t.hello = std::move(stored->hello);
  t.topology = std::move(stored->topology);
  return t;
}

std::vector<store::QueuedRun> Control::active_rows() const {
  std::vector<store::QueuedRun> rows = store_.queued_runs("queued");
  for (const char* state : {"running", "disconnected", "interrupted"}) {
    std::vector<store::QueuedRun> more = store_.queued_runs(state);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  std::sort(rows.begin(), rows.end(),
            [](const store::QueuedRun& a, const store::QueuedRun& b) { return a.id < b.id; });
  return rows;
}

}  // namespace schedrig::control
