// TEMPORARY STUB (P5 control) until P4 lands: the queue in memory, by path.
#include <chrono>
#include <map>
#include <mutex>

#include "host/store/store.h"

namespace schedrig::store {
namespace {

std::mutex mu;
std::map<std::string, std::vector<QueuedRun>> queues;
long long next_id = 1;

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

QueuedRun* find(const std::string& path, const std::string& run_id) {
  for (auto& r : queues[path])
    if (r.run_id == run_id) return &r;
  return nullptr;
}

}  // namespace

void Store::enqueue_run(const QueuedRun& run) {
  std::lock_guard lock(mu);
  if (find(path(), run.run_id)) throw StoreError(StoreError::Reason::kSql, "duplicate run_id");
  QueuedRun r = run;
  r.id = next_id++;
  r.state = "queued";
  queues[path()].push_back(r);
}

std::optional<QueuedRun> Store::next_queued_run(const std::string& agent_id) const {
  std::lock_guard lock(mu);
  for (auto& r : queues[path()])
    if (r.agent_id == agent_id && r.state == "queued") return r;
  return std::nullopt;
}

std::vector<QueuedRun> Store::queued_runs(const std::string& state) const {
  std::lock_guard lock(mu);
  std::vector<QueuedRun> out;
  for (auto& r : queues[path()])
    if (state.empty() || r.state == state) out.push_back(r);
  return out;
}

std::optional<QueuedRun> Store::queued_run(const std::string& run_id) const {
  std::lock_guard lock(mu);
  if (auto* r = find(path(), run_id)) return *r;
  return std::nullopt;
}

void Store::mark_run_dispatched(const std::string& run_id) {
  std::lock_guard lock(mu);
  if (auto* r = find(path(), run_id); r && r->state == "queued") {
    r->state = "running";
    r->dispatched_at_ns = now_ns();
  }
}

void Store::finish_queued_run(const std::string& run_id, const std::string& state,
                              const std::string& reason) {
  std::lock_guard lock(mu);
  if (auto* r = find(path(), run_id)) {
    r->state = state;
    r->reason = reason;
    r->finished_at_ns = now_ns();
  }
}

int Store::fail_dispatched_runs(const std::string& reason) {
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mu);
    for (auto& r : queues[path()])
      if (r.state == "running") {
        r.state = "failed";
        r.reason = reason;
        ids.push_back(r.run_id);
      }
  }
  for (auto& id : ids) fail_unfinished_run(id, reason);
  return static_cast<int>(ids.size());
}

}  // namespace schedrig::store
