#include "host/store/ownership.h"

#include <fmt/format.h>

#include "common/envelope_codec.h"

namespace schedrig::store {

using v1::Envelope;

namespace {

[[noreturn]] void refuse_instance(const sqlite::Db& db, const Envelope& env,
                                  const std::string& agent) {
  throw StoreError(StoreError::Reason::kNotOwner,
                   fmt::format("store {}: envelope ({}) from agent '{}' names instance {} of "
                               "agent '{}'; refused",
                               db.path(), body_name(env), env.agent_id(), env.instance_id(), agent),
                   fmt::format("{} (seq {}): instance {} is not this agent's: refused",
                               body_name(env), env.seq(), env.instance_id()));
}

}  // namespace

void claim_instance(sqlite::Db& db, const Envelope& env, OwnerCache* cache) {
  if (!instance_recorded(db, env, cache)) record_instance(db, env);
}

bool instance_recorded(sqlite::Db& db, const Envelope& env, OwnerCache* cache) {
  if (cache) {
    auto found = cache->instance_owner.find(env.instance_id());
    if (found != cache->instance_owner.end()) {
      if (found->second == env.agent_id()) return true;
      refuse_instance(db, env, found->second);
    }
  }
  sqlite::Statement& owner = db.cached("SELECT agent_id FROM instances WHERE instance_id = ?1");
  owner.bind_text(1, env.instance_id());
  if (!owner.step()) {
    owner.reset();
    return false;
  }
  std::string agent = owner.column_text(0);
  owner.reset();
  if (cache) cache->instance_owner.emplace(env.instance_id(), agent);
  if (agent == env.agent_id()) return true;
  refuse_instance(db, env, agent);
}

void record_instance(sqlite::Db& db, const Envelope& env) {
  sqlite::Statement& claim =
      db.cached("INSERT INTO instances (instance_id, agent_id, boot_id) VALUES (?1, ?2, ?3)");
  claim.bind_text(1, env.instance_id())
      .bind_text(2, env.agent_id())
      .bind_text(3, env.boot_id())
      .run();
}

namespace {

// True when (agent, instance, seq) of `env` is stored with exactly `raw_bytes`.
bool stored_exactly(sqlite::Db& db, const Envelope& env, std::string_view raw_bytes) {
  sqlite::Statement& st = db.cached(
      "SELECT body = ?4 FROM envelopes WHERE agent_id = ?1 AND instance_id = ?2 AND seq = ?3");
  st.bind_text(1, env.agent_id())
      .bind_text(2, env.instance_id())
      .bind_int(3, static_cast<long long>(env.seq()))
      .bind_blob(4, raw_bytes);
  const bool same = st.step() && st.column_int(0) == 1;
  st.reset();
  return same;
}

// A run's queue row as far as the check needs it.
struct QueueRow {
  bool found = false;
  std::string agent_id, state;
  bool dispatched = false;  // dispatched_at_ns set: the agent was sent it (or started it)
  std::string instance_id;  // the instance it was dispatched to ("" before schema 4)
};

QueueRow queue_row(sqlite::Db& db, const std::string& run_id) {
  sqlite::Statement& st = db.cached(
      "SELECT agent_id, state, dispatched_at_ns != 0, instance_id FROM queue WHERE run_id = ?1");
  st.bind_text(1, run_id);
  QueueRow row;
  if (st.step()) {
    row = {true, st.column_text(0), st.column_text(1), st.column_int(2) != 0, st.column_text(3)};
  }
  st.reset();
  return row;
}

// A replay session may write to `row`'s run: it was dispatched to the
// replayed instance itself, or no instance runs it any more.
bool replay_may_write(const QueueRow& row, const Envelope& env) {
  return row.instance_id.empty() || row.instance_id == env.instance_id() ||
         (row.state != "running" && row.state != "disconnected");
}

// Why the run is not this agent's to write: for the host's log (whose
// agent, which state) and for the peer (only what it did wrong).
[[noreturn]] void refuse_run(const sqlite::Db& db, const Envelope& env, const std::string& run_id,
                             const QueueRow& row) {
  const bool mine = row.found && row.agent_id == env.agent_id();
  const std::string peer =
      mine ? fmt::format(
                 "{} (seq {}) for run {}, which {}: refused", body_name(env), env.seq(), run_id,
                 row.state == "queued" ? std::string("is not dispatched to this agent yet")
                                       : fmt::format("was {} before it was dispatched", row.state))
           : fmt::format("{} (seq {}) for run {}, which is not this agent's: refused",
                         body_name(env), env.seq(), run_id);
  if (!row.found) {  // stale (a spool older than this store): this envelope alone is refused
    throw StoreError(StoreError::Reason::kUnknownRun,
                     fmt::format("store {}: envelope ({}) from agent '{}' for run '{}', which is "
                                 "not in the queue; refused",
                                 db.path(), body_name(env), env.agent_id(), run_id),
                     fmt::format("{} (seq {}) for run {}, which this host does not know: refused",
                                 body_name(env), env.seq(), run_id));
  }
  const std::string whose = !row.found ? std::string("is not in the queue")
                            : mine     ? fmt::format("is {} in the queue", row.state)
                                       : fmt::format("is queued for agent '{}'", row.agent_id);
  throw StoreError(StoreError::Reason::kNotOwner,
                   fmt::format("store {}: envelope ({}) from agent '{}' for run '{}', which {}; "
                               "refused",
                               db.path(), body_name(env), env.agent_id(), run_id, whose),
                   peer);
}

}  // namespace

void require_assigned_run(sqlite::Db& db, const Envelope& env, std::string_view raw_bytes,
                          OwnerCache* cache, bool replay_session) {
  const std::string* run_id = run_id_of(env);  // common/envelope_codec.h
  if (!run_id) return;
  if (replay_session) {
    const QueueRow row = queue_row(db, *run_id);
    if (row.found && row.agent_id == env.agent_id() && row.dispatched &&
        replay_may_write(row, env)) {
      return;
    }
    if (row.found && row.agent_id == env.agent_id() && row.dispatched) {
      throw StoreError(
          StoreError::Reason::kNotOwner,
          fmt::format("store {}: replayed envelope ({}) of instance '{}' for run "
                      "'{}', which instance '{}' is running; refused",
                      db.path(), body_name(env), env.instance_id(), *run_id, row.instance_id),
          fmt::format("replayed {} (seq {}) for run {}, which another instance of "
                      "this agent is running: refused",
                      body_name(env), env.seq(), *run_id));
    }
    refuse_run(db, env, *run_id, row);
  }
  if (cache) {
    auto found = cache->running_runs.find(*run_id);
    if (found != cache->running_runs.end() && found->second == env.agent_id()) return;
  }
  const QueueRow row = queue_row(db, *run_id);
  // Dispatched, whatever happened since (a link down, a restart, a verdict
  // of the host's): the agent's envelopes for it are stored (a late replay).
  if (row.found && row.agent_id == env.agent_id() && row.dispatched) {
    if (cache) cache->running_runs.emplace(*run_id, row.agent_id);
    return;
  }
  if (stored_exactly(db, env, raw_bytes)) return;  // a replay: acked, changes nothing
  refuse_run(db, env, *run_id, row);
}

void require_seen_hello(sqlite::Db& db, const Envelope& env, std::string_view raw_bytes) {
  if (!env.has_hello() || stored_exactly(db, env, raw_bytes)) return;
  throw StoreError(StoreError::Reason::kNotOwner,
                   fmt::format("store {}: a replay session's Hello of instance '{}' (agent '{}') "
                               "is not the one stored for it, or none is; refused",
                               db.path(), env.instance_id(), env.agent_id()),
                   fmt::format("replay of instance {}, which this host never saw live (or whose "
                               "Hello differs): refused",
                               env.instance_id()));
}

void forget_run(OwnerCache& cache, const Envelope& env) {
  if (env.has_run_finished()) cache.running_runs.erase(env.run_finished().run_id());
}

}  // namespace schedrig::store
