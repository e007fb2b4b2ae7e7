// Storing one envelope raw and deriving the tables from it (internal to
// schedrig_store). The caller holds the write transaction.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "host/store/ingest_policy.h"
#include "host/store/ownership.h"
#include "host/store/sqlite.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::store {

// All of storing one envelope: checks its ids and ownership (ownership.h,
// with `policy`), inserts it raw and derives the tables. Returns false,
// changing nothing, for a duplicate. Throws StoreError: kBadContent for
// missing ids, kNotOwner for another agent's instance or (policy) run; the
// caller rolls back what this changed.
//
// With `batch` (Store::ingest_batch: one transaction for many envelopes)
// ownership answers are cached in it and the agents' last_seen_ns is left
// to the caller: note_stored() after the item's savepoint is released and
// touch_agents() once before the commit.
struct IngestBatch {
  OwnerCache owners;
  // Set once the current envelope's checks passed and its writes began: an
  // error before it changed nothing, an error after it needs a rollback.
  bool item_wrote = false;
  std::unordered_map<std::string, long long> last_seen;  // agent -> latest seen_at stored
};
bool ingest_envelope(sqlite::Db& db, const schedrig::v1::Envelope& env, std::string_view raw_bytes,
                     IngestPolicy policy, long long received_at_ns, IngestBatch* batch = nullptr);
void note_stored(IngestBatch& batch, const schedrig::v1::Envelope& env, long long received_at_ns);
// One UPDATE per agent of the batch. Throws StoreError.
void touch_agents(sqlite::Db& db, const IngestBatch& batch);

// Inserts the raw envelope row. Returns false, changing nothing, when
// (agent_id, instance_id, seq) is already stored. Throws StoreError.
bool insert_envelope(sqlite::Db& db, const schedrig::v1::Envelope& env, std::string_view raw_bytes,
                     long long received_at_ns);

// Updates agents/instances/runs/iterations/metrics/samples from one envelope's body.
// Bodies that derive nothing (Log, Error, host->agent messages) are ignored.
// The agent's last_seen_ns becomes at most `received_at_ns` (the host's
// clock: its sent_at_ns when earlier). Throws StoreError.
void derive_tables(sqlite::Db& db, const schedrig::v1::Envelope& env, long long received_at_ns);

}  // namespace schedrig::store
