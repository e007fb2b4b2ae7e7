// Who may write what (internal to schedrig_store; docs/architecture.md
// "Results model"): an agent instance belongs to the agent that first sent
// an envelope for it, and a queued run to the agent it was queued for. The
// caller holds the write transaction.
#pragma once

#include <string>
#include <unordered_map>

#include "host/store/sqlite.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::store {

// Owners already read in the current write transaction (one batch): an
// instance's agent and a queued run's agent never change once recorded, so
// a batch asks SQLite once per instance and run. Only rows that exist are
// kept, so a rolled-back item cannot leave a stale entry.
struct OwnerCache {
  std::unordered_map<std::string, std::string> instance_owner;
  std::unordered_map<std::string, std::string> run_owner;
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

// Throws StoreError kNotOwner when `env` is a run envelope whose run_id is
// not in table `queue` for env.agent_id. Writes nothing.
void require_assigned_run(sqlite::Db& db, const schedrig::v1::Envelope& env,
                          OwnerCache* cache = nullptr);

}  // namespace schedrig::store
