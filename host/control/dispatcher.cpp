#include "host/control/dispatcher.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "common/printable.h"
#include "host/control/api_error.h"

namespace schedrig::control {

Dispatcher::Dispatcher(store::Store& store, bool own_runs_only)
    : store_(store), own_runs_only_(own_runs_only) {}

void Dispatcher::submitted(const std::string& run_id) {
  std::lock_guard queue_lock(queue_mu_);
  if (own_runs_only_) own_runs_.insert(run_id);
}

std::optional<store::QueuedRun> Dispatcher::next_run(const std::string& agent_id) {
  if (!own_runs_only_) return store_.next_queued_run(agent_id);
  if (own_runs_.empty()) return std::nullopt;
  for (store::QueuedRun& r : store_.queued_runs("queued")) {
    if (r.agent_id == agent_id && own_runs_.count(r.run_id)) return std::move(r);
  }
  return std::nullopt;
}

void Dispatcher::hello(const std::shared_ptr<collector::AgentChannel>& channel,
                       const v1::Envelope& env) {
  {
    // No dispatch between the connect and the take-back: the agent is not
    // idle if it has a run to resume.
    std::lock_guard queue_lock(queue_mu_);
    {
      std::lock_guard lock(mu_);
      agents_.connect(channel, env);
    }
    try {
      take_back_runs(channel, env);
    } catch (const store::StoreError& e) {
      spdlog::error("cannot resume the runs of agent {}: {}", printable(env.agent_id()), e.what());
    }
  }
  dispatch(env.agent_id());
}

void Dispatcher::take_back_runs(const std::shared_ptr<collector::AgentChannel>& channel,
                                const v1::Envelope& env) {
  bool resumed = false;
  for (const store::QueuedRun& row : store_.dispatched_runs(env.agent_id())) {
    if (own_runs_only_ && !own_runs_.count(row.run_id)) continue;  // a serve's, on a shared store
    if (!resumed && row.instance_id == env.instance_id()) {
      resumed = resume(channel, row);
    } else if (row.state != "interrupted" && row.instance_id != env.instance_id()) {
      const std::string why =
          fmt::format("agent {} restarted (instance {} replaced {})", env.agent_id(),
                      env.instance_id(), row.instance_id.empty() ? "?" : row.instance_id);
      if (store_.interrupt_run(row.run_id, why)) {
        spdlog::warn("run {} interrupted: {}", row.run_id, printable(why));
      }
    }
  }
}

bool Dispatcher::resume(const std::shared_ptr<collector::AgentChannel>& channel,
                        const store::QueuedRun& row) {
  {
    std::lock_guard lock(mu_);
    LiveAgent* agent = agents_.find(row.agent_id);
    if (!agent || agent->channel != channel) return false;  // gone again meanwhile
    agent->run_id = row.run_id;
    agent->aborting = !row.abort_note.empty();
  }
  if (row.state != "running") store_.resume_run(row.run_id);
  spdlog::info("run {} resumes on agent {} (it was {})", row.run_id, printable(row.agent_id),
               row.state);
  if (!store_.run_started(row.run_id)) channel->send(start_run(row));  // it may never have got it
  if (!row.abort_note.empty()) channel->send(abort_for(row.run_id, row.abort_note));
  return true;
}

void Dispatcher::stored(const v1::Envelope& env) {
  {
    std::lock_guard lock(mu_);
    agents_.saw(env);
  }
  if (env.has_run_finished()) {
    run_ended(env.agent_id(), env.run_finished().run_id());
  } else if (env.has_error() && env.error().run_id().empty()) {
    dispatch(env.agent_id());  // a failed Boot: the agent is idle again
  } else if (env.has_error() && !env.error().run_id().empty()) {
    const std::string& run_id = env.error().run_id();
    auto row = store_.queued_run(run_id);
    if (!row || row->agent_id != env.agent_id()) return;
    fail_run(run_id, "the agent rejected the run: " + env.error().message());
    run_ended(env.agent_id(), run_id);
  }
}

void Dispatcher::closed(const collector::AgentChannel& channel, const std::string& agent_id,
                        const std::string& reason) {
  std::optional<std::string> run_id;
  {
    std::lock_guard lock(mu_);
    run_id = agents_.disconnect(agent_id, channel);
  }
  if (run_id && !run_id->empty()) {
    disconnect_run(*run_id, fmt::format("agent {} disconnected: {}", agent_id, reason));
  }
}

void Dispatcher::disconnect_run(const std::string& run_id, const std::string& reason) {
  try {
    if (store_.mark_run_disconnected(run_id, reason)) {
      spdlog::warn("run {} disconnected: {}; it resumes when its agent is back", run_id,
                   printable(reason));
    }
  } catch (const store::StoreError& e) {
    spdlog::error("cannot mark run {} disconnected: {}", run_id, e.what());
  }
}

void Dispatcher::dispatch(const std::string& agent_id) {
  std::lock_guard queue_lock(queue_mu_);
  if (stopping_) return;
  std::shared_ptr<collector::AgentChannel> channel;
  {
    std::lock_guard lock(mu_);
    LiveAgent* agent = agents_.find(agent_id);
    if (!agent || !agent->run_id.empty() || !agent->booting.empty()) return;
    channel = agent->channel;
  }
  std::optional<store::QueuedRun> next;
  try {
    next = next_run(agent_id);
    if (!next) return;
    {
      std::lock_guard lock(mu_);
      LiveAgent* agent = agents_.find(agent_id);
      // Gone or replaced meanwhile: its next Hello dispatches.
      if (!agent || agent->channel != channel || !agent->run_id.empty()) return;
      agent->run_id = next->run_id;
    }
    store_.mark_run_dispatched(next->run_id, channel->instance_id());
  } catch (const store::StoreError& e) {
    spdlog::error("cannot dispatch a run to agent {}: {}", printable(agent_id), e.what());
    return;
  }
  spdlog::info("run {} starts on agent {} (plan '{}', submitted by {})", next->run_id,
               printable(agent_id), printable(next->plan_name), printable(next->submitted_by));
  channel->send(start_run(*next));
}

AbortOutcome Dispatcher::abort(const store::QueuedRun& run, const std::string& by) {
  std::lock_guard queue_lock(queue_mu_);
  auto row = store_.queued_run(run.run_id);
  const std::string state = row ? row->state : run.state;
  const std::string note = "aborted by " + by;
  if (state == "queued") {
    store_.finish_queued_run(run.run_id, "aborted", note + " before it started");
    return {"aborted"};
  }
  if (state == "interrupted") {  // its agent is gone as that instance: nobody will finish it
    store_.finish_queued_run(run.run_id, "aborted", note);
    return {"aborted"};
  }
  if (state != "running" && state != "disconnected") {
    throw ApiError(409, fmt::format("run {} has already finished ({})", run.run_id, state));
  }
  std::shared_ptr<collector::AgentChannel> channel;
  {
    std::lock_guard lock(mu_);
    if (LiveAgent* agent = agents_.running(run.run_id)) {
      if (agent->aborting) return {"aborting"};
      agent->aborting = true;
      channel = agent->channel;
    }
  }
  store_.note_abort(run.run_id, note);
  // Without a live agent the Abort goes out on its instance's next Hello (resume).
  if (channel) channel->send(abort_for(run.run_id, note));
  return {"aborting"};
}

// The kernel `agent` lists as `kernel`; ApiError 400 naming the others when none.
static const v1::BootableKernel& listed_kernel(const std::string& agent_id, const LiveAgent& agent,
                                               const std::string& kernel) {
  std::vector<std::string> names;
  for (const v1::BootableKernel& k : agent.hello.kernels()) {
    if (k.name() == kernel) return k;
    names.push_back(printable(k.name()));
  }
  throw ApiError(400,
                 fmt::format("agent {} does not list kernel '{}' (its config lists: {})", agent_id,
                             printable(kernel),
                             names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
}

BootOutcome Dispatcher::boot(const std::string& agent_id, const std::string& kernel,
                             const std::string& reason) {
  std::lock_guard queue_lock(queue_mu_);  // no dispatch between the checks and the Boot
  const std::vector<store::QueuedRun> queued = store_.queued_runs("queued");
  const auto waiting = std::count_if(queued.begin(), queued.end(),
                                     [&](const auto& r) { return r.agent_id == agent_id; });
  std::lock_guard lock(mu_);
  LiveAgent* agent = agents_.find(agent_id);
  if (!agent) throw ApiError(409, fmt::format("agent {} is not connected", agent_id));
  if (!agent->run_id.empty())
    throw ApiError(409, fmt::format("agent {} is running run {}", agent_id, agent->run_id));
  if (!agent->booting.empty())
    throw ApiError(409, fmt::format("agent {} is already booting kernel '{}'", agent_id,
                                    printable(agent->booting)));
  if (waiting > 0)
    throw ApiError(409, fmt::format("agent {} has {} queued runs: boot it when they are done",
                                    agent_id, waiting));
  const v1::BootableKernel& k = listed_kernel(agent_id, *agent, kernel);
  v1::Envelope env;
  env.mutable_boot()->set_kernel(kernel);
  env.mutable_boot()->set_reason(reason);
  agent->booting = kernel;
  agent->boot_error.clear();
  agent->channel->send(std::move(env));
  return {k.name(), k.release(), k.hook(), agent->boot_id, agent->instance_id};
}

void Dispatcher::stopping(const std::string& reason) {
  std::vector<std::string> running;
  {
    std::lock_guard queue_lock(queue_mu_);
    stopping_ = true;
    std::lock_guard lock(mu_);
    for (const auto& [id, agent] : agents_.all()) {
      if (!agent.run_id.empty()) running.push_back(agent.run_id);
    }
  }
  for (const std::string& run_id : running) disconnect_run(run_id, reason);
}

void Dispatcher::interrupt_stale(std::chrono::seconds after) {
  std::lock_guard queue_lock(queue_mu_);
  try {
    for (const store::QueuedRun& row : store_.interrupt_stale_runs(after)) {
      spdlog::warn("run {} interrupted: agent {} disconnected for more than {} s", row.run_id,
                   printable(row.agent_id), after.count());
    }
  } catch (const store::StoreError& e) {
    spdlog::error("cannot interrupt the runs of agents gone too long: {}", e.what());
  }
}

std::map<std::string, LiveAgent> Dispatcher::live() const {
  std::lock_guard lock(mu_);
  return agents_.all();
}

bool Dispatcher::live_state(const std::string& agent_id, v1::Hello& hello,
                            v1::Topology& topology) const {
  std::lock_guard lock(mu_);
  auto it = agents_.all().find(agent_id);
  if (it == agents_.all().end() || !it->second.has_topology) return false;
  hello = it->second.hello;
  topology = it->second.topology;
  return true;
}

bool Dispatcher::aborting(const std::string& run_id) const {
  std::lock_guard lock(mu_);
  for (const auto& [id, agent] : agents_.all()) {
    if (agent.run_id == run_id) return agent.aborting;
  }
  return false;
}

void Dispatcher::run_ended(const std::string& agent_id, const std::string& run_id) {
  {
    std::lock_guard lock(mu_);
    LiveAgent* agent = agents_.find(agent_id);
    if (!agent || agent->run_id != run_id) return;
    agent->run_id.clear();
    agent->aborting = false;
    agent->waiting.clear();
  }
  dispatch(agent_id);
}

void Dispatcher::fail_run(const std::string& run_id, const std::string& reason) {
  try {
    auto row = store_.queued_run(run_id);
    if (row && (row->state == "ok" || row->state == "failed" || row->state == "aborted")) {
      return;  // it has finished
    }
    spdlog::warn("run {} failed: {}", run_id, printable(reason));
    if (row) store_.finish_queued_run(run_id, "failed", reason);
    store_.fail_unfinished_run(run_id, reason);
  } catch (const store::StoreError& e) {
    spdlog::error("cannot mark run {} failed: {}", run_id, e.what());
  }
}

v1::Envelope Dispatcher::abort_for(const std::string& run_id, const std::string& note) {
  v1::Envelope env;
  env.mutable_abort()->set_run_id(run_id);
  env.mutable_abort()->set_reason(note);
  return env;
}

v1::Envelope Dispatcher::start_run(const store::QueuedRun& run) {
  v1::Envelope env;
  v1::StartRun* start = env.mutable_start_run();
  start->set_run_id(run.run_id);
  *start->mutable_plan() = run.plan;
  for (const auto& [k, v] : run.labels) (*start->mutable_labels())[k] = v;
  return env;
}

}  // namespace schedrig::control
