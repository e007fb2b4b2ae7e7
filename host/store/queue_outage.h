// Queue rows across outages (internal to schedrig_store; docs/architecture.md
// "Queue", runs across outages): a dispatched run whose agent's link is down
// is "disconnected", and "running" again when the same instance is back; it
// is "interrupted" when the agent came back as another instance or stayed
// away too long. Writers are called inside a write transaction, readers
// inside a read transaction.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"

namespace schedrig::store {

// A "running" row -> "disconnected" with `reason`, disconnected at
// `now_ns`. Returns whether the row changed.
bool set_disconnected(sqlite::Db& db, const std::string& run_id, const std::string& reason,
                      long long now_ns);

// Every "running" or "disconnected" row -> "disconnected" with `reason`; a
// row already disconnected keeps the time it went. Returns how many rows.
int disconnect_dispatched(sqlite::Db& db, const std::string& reason, long long now_ns);

// A "disconnected" or "interrupted" row -> "running": its reason becomes its
// abort note (or ""), and a `runs` row "interrupted" is "running" again.
// Returns whether the row changed.
bool set_resumed(sqlite::Db& db, const std::string& run_id);

// A "running" or "disconnected" row -> "interrupted" with `reason`, and its
// `runs` row if "running" (finished at `now_ns`). Not final: a RunFinished
// still sets the verdict. Returns whether the row changed.
bool set_interrupted(sqlite::Db& db, const std::string& run_id, const std::string& reason,
                     long long now_ns);

// Every row "disconnected" since `after` or longer before `now_ns` ->
// "interrupted" with "agent A disconnected for more than S s". Returns the
// rows as they were before the change, FIFO order.
std::vector<QueuedRun> interrupt_stale(sqlite::Db& db, std::chrono::seconds after,
                                       long long now_ns);

// `agent_id`'s rows in "running", "disconnected" or "interrupted", FIFO order.
std::vector<QueuedRun> load_dispatched(sqlite::Db& db, const std::string& agent_id);

}  // namespace schedrig::store
