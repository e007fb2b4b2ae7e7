// Table `queue`: runs submitted to `schedrig serve` (internal to
// schedrig_store; docs/architecture.md "Results model"). Writers are called
// inside a write transaction, readers inside a read transaction.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"

namespace schedrig::store {

// Which queue rows to load; an empty field matches every row.
struct QueueFilter {
  std::string agent_id, state, run_id;
  bool first_only = false;  // just the oldest match

  static QueueFilter in_state(std::string state) { return {{}, std::move(state), {}, false}; }
  static QueueFilter of_run(std::string run_id) { return {{}, {}, std::move(run_id), false}; }
  // The oldest "queued" row of `agent_id`.
  static QueueFilter next_of(std::string agent_id) {
    return {std::move(agent_id), "queued", {}, true};
  }
};

// The matching rows in FIFO (id) order. Throws StoreError (kBadContent for
// a stored plan or labels that do not decode).
std::vector<QueuedRun> load_queue(sqlite::Db& db, const QueueFilter& filter);

// Inserts `run` as "queued" (state, reason, dispatched and finished times of
// `run` are ignored), submitted at run.submitted_at_ns or else `now_ns`.
// Throws StoreError kBadContent when run_id or agent_id is empty or the
// run_id is already queued or stored as a run.
void insert_queued_run(sqlite::Db& db, const QueuedRun& run, long long now_ns);

// queued -> running, dispatched to agent instance `instance_id` ("" =
// unknown) at `now_ns`; any other row is left alone.
void set_dispatched(sqlite::Db& db, const std::string& run_id, const std::string& instance_id,
                    long long now_ns);

// Sets the row's state ("ok" | "failed" | "aborted"), reason and finished
// time if it is still queued, running, disconnected or interrupted, and a
// `runs` row of the run that is still "running" or "interrupted" the same
// way (mark_run_row).
// Throws StoreError kBadContent for another state.
void set_finished(sqlite::Db& db, const std::string& run_id, const std::string& state,
                  const std::string& reason, long long now_ns);

// A "running" or "disconnected" row's abort_note becomes `note` (who
// aborted it: "aborted by operator 'alice'"), and so does a running row's
// reason; the run's RunFinished with status aborted then carries it
// (abort_note). Any other row is left alone.
void set_abort_note(sqlite::Db& db, const std::string& run_id, const std::string& note);

// The note set_abort_note left on `run_id`'s row of `agent_id` while it is
// running, disconnected or interrupted; "" when there is none (the run was
// not aborted by the host, or has ended).
std::string abort_note(sqlite::Db& db, const std::string& run_id, const std::string& agent_id);

// The `runs` row of `run_id`, if "running" or "interrupted", -> `state`,
// `reason`, finished at `now_ns`.
void mark_run_row(sqlite::Db& db, const std::string& run_id, const std::string& state,
                  const std::string& reason, long long now_ns);

// A queue row without a `runs` row as a RunRecord: status is the row's
// state ("queued", or "aborted"/"failed" when it ended before starting),
// labels and plan from the row, finished_at_ns the row's; instance, host,
// fingerprint and iterations empty. nullopt when `run_id` (exact) is not
// queued or has a `runs` row (Store::runs has it then).
std::optional<RunRecord> load_queued_run_record(sqlite::Db& db, const std::string& run_id);

// run_ids of queue rows that start with `prefix` and have no `runs` row, in
// FIFO order.
std::vector<std::string> load_unstarted_run_ids(sqlite::Db& db, const std::string& prefix);

}  // namespace schedrig::store
