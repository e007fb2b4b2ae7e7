#include "host/control/dispatcher.h"

#include <fmt/format.h>
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
  std::string replaced_run;
  {
    std::lock_guard lock(mu_);
    replaced_run = agents_.connect(channel, env);
  }
  if (!replaced_run.empty()) {
    fail_run(replaced_run,
             fmt::format("agent {} disconnected: a new connection took over", env.agent_id()));
  }
  dispatch(env.agent_id());
}

void Dispatcher::stored(const v1::Envelope& env) {
  {
    std::lock_guard lock(mu_);
    agents_.saw(env);
  }
  if (env.has_run_finished()) {
    run_ended(env.agent_id(), env.run_finished().run_id());
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
    fail_run(*run_id, fmt::format("agent {} disconnected: {}", agent_id, reason));
  }
}

void Dispatcher::dispatch(const std::string& agent_id) {
  std::lock_guard queue_lock(queue_mu_);
  if (stopping_) return;
  std::shared_ptr<collector::AgentChannel> channel;
  {
    std::lock_guard lock(mu_);
    LiveAgent* agent = agents_.find(agent_id);
    if (!agent || !agent->run_id.empty()) return;
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
    store_.mark_run_dispatched(next->run_id);
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
  if (state == "queued") {
    store_.finish_queued_run(run.run_id, "aborted", "aborted by " + by + " before it started");
    return {"aborted"};
  }
  if (state != "running") {
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
  if (!channel) {  // its agent is gone: nobody will finish it
    store_.finish_queued_run(run.run_id, "aborted", "aborted by " + by);
    store_.fail_unfinished_run(run.run_id, "aborted by " + by);
    return {"aborted"};
  }
  store_.note_abort(run.run_id, "aborted by " + by);
  v1::Envelope env;
  env.mutable_abort()->set_run_id(run.run_id);
  env.mutable_abort()->set_reason("aborted by " + by);
  channel->send(std::move(env));
  return {"aborting"};
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
  for (const std::string& run_id : running) fail_run(run_id, reason);
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
    if (row && row->state != "queued" && row->state != "running") return;  // it has finished
    spdlog::warn("run {} failed: {}", run_id, printable(reason));
    if (row) store_.finish_queued_run(run_id, "failed", reason);
    store_.fail_unfinished_run(run_id, reason);
  } catch (const store::StoreError& e) {
    spdlog::error("cannot mark run {} failed: {}", run_id, e.what());
  }
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
