// Who may write what (internal to schedrig_store; docs/architecture.md
// "Results model"): an agent instance belongs to the agent that first sent
// an envelope for it, and a queued run to the agent it was queued for. The
// caller holds the write transaction.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "host/store/sqlite.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::store {

// Owners already read in the current write transaction (one batch): an
// instance's agent never changes once recorded, so a batch asks SQLite once
// per instance. Only rows that exist are kept, so a rolled-back item cannot
// leave a stale entry. `running_runs` holds the runs found dispatched
// (queue state not "queued") to the agent named; a RunFinished stored in the
// batch drops its run (forget_run), so what follows it is checked again.
struct OwnerCache {
  std::unordered_map<std::string, std::string> instance_owner;
  std::unordered_map<std::string, std::string> running_runs;  // run_id -> agent_id
};

// Records env.instance_id as env.agent_id's (a bare `instances` row when it
// has none yet; Hello and Topology fill it in). Throws StoreError kNotOwner,
// changing nothing, when the instance is recorded for another agent.
void claim_instance(sqlite::Db& db, const schedrig::v1::Envelope& env, OwnerCache* cache = nullptr);
// claim_instance in two steps, so every check can come before any write:
// instance_recorded() writes nothing, returns whether the instance has a
// row (throwing kNotOwner as above), and record_instance() adds the row.
bool instance_recorded(sqlite::Db& db, const schedrig::v1::Envelope& env,
                       OwnerCache* cache = nullptr);
void record_instance(sqlite::Db& db, const schedrig::v1::Envelope& env);

// Throws StoreError kNotOwner when `env` is a run envelope (common/
// envelope_codec.h run_id_of) whose run is not dispatched to env.agent_id:
// no queue row, another agent's, or never dispatched (still "queued", or
// aborted before it was). A run dispatched to it, in any state since
// (running, disconnected, interrupted, or ended: a late replay, which
// changes no verdict), passes. An exact duplicate of an
// envelope already stored (same agent, instance and seq, same bytes: a
// replay) passes, so it is acked again. Writes nothing.
// With `replay_session` (IngestPolicy::replay_session) the run must also
// be dispatched to env's instance, or be interrupted or ended; a run not in
// the queue at all is StoreError kUnknownRun (refused alone, not a breach).
void require_assigned_run(sqlite::Db& db, const schedrig::v1::Envelope& env,
                          std::string_view raw_bytes, OwnerCache* cache = nullptr,
                          bool replay_session = false);
// A replay session's Hello must be stored already with exactly these
// bytes: the instance was seen live. Else StoreError kNotOwner. Anything
// but a Hello passes.
void require_seen_hello(sqlite::Db& db, const schedrig::v1::Envelope& env,
                        std::string_view raw_bytes);
// After `env` is stored: a RunFinished ends its run, so the cache forgets it.
void forget_run(OwnerCache& cache, const schedrig::v1::Envelope& env);

}  // namespace schedrig::store
