#include "host/store/ingest.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "common/envelope_codec.h"
#include "common/wire_names.h"
#include "host/store/ownership.h"
#include "host/store/queue_queries.h"

namespace schedrig::store {
namespace {

using v1::Envelope;

// A protobuf map<string,string> as compact JSON text with sorted keys.
template <typename Map>
std::string json_object_text(const Map& m) {
  return nlohmann::json(std::map<std::string, std::string>(m.begin(), m.end())).dump();
}

std::string reason_text(v1::Status s, const std::string& reason) {
  if (reason.empty() && s != v1::STATUS_OK && s != v1::STATUS_FAILED && s != v1::STATUS_ABORTED) {
    return "agent sent no status";
  }
  return reason;
}

std::string serialized(const google::protobuf::MessageLite& m) {
  std::string out;
  m.SerializeToString(&out);
  return out;
}

// When the host last heard from an agent, as an envelope says it: its
// sent_at_ns, but never after the host received it (an agent's clock, or a
// forged stamp, cannot pin last_seen in the future; an imported file keeps
// its own, earlier, times).
long long seen_at_ns(const Envelope& env, long long received_at_ns) {
  return std::min<long long>(env.sent_at_ns(), received_at_ns);
}

void touch_agent(sqlite::Db& db, const std::string& agent_id, long long sent_at_ns) {
  sqlite::Statement& st =
      db.cached("UPDATE agents SET last_seen_ns = max(last_seen_ns, ?2) WHERE agent_id = ?1");
  st.bind_text(1, agent_id).bind_int(2, sent_at_ns).run();
}

void derive_body(sqlite::Db& db, const Envelope& env, long long received_at_ns);

void on_hello(sqlite::Db& db, const Envelope& env, long long received_at_ns) {
  const v1::Hello& h = env.hello();
  sqlite::Statement& instance = db.cached(R"sql(
      INSERT INTO instances (instance_id, agent_id, boot_id, hostname, kernel_release,
                             agent_version, allowed_pus)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      ON CONFLICT (instance_id) DO UPDATE SET
        boot_id = excluded.boot_id,
        hostname = excluded.hostname, kernel_release = excluded.kernel_release,
        agent_version = excluded.agent_version, allowed_pus = excluded.allowed_pus)sql");
  instance.bind_text(1, env.instance_id())
      .bind_text(2, env.agent_id())
      .bind_text(3, env.boot_id())
      .bind_text(4, h.hostname())
      .bind_text(5, h.kernel_release())
      .bind_text(6, h.agent_version())
      .bind_int(7, h.allowed_pus())
      .run();
  sqlite::Statement& agent = db.cached(R"sql(
      INSERT INTO agents (agent_id, hostname, last_seen_ns) VALUES (?1, ?2, ?3)
      ON CONFLICT (agent_id) DO UPDATE SET
        hostname = excluded.hostname,
        last_seen_ns = max(last_seen_ns, excluded.last_seen_ns))sql");
  agent.bind_text(1, env.agent_id())
      .bind_text(2, h.hostname())
      .bind_int(3, seen_at_ns(env, received_at_ns))
      .run();
}

void on_topology(sqlite::Db& db, const Envelope& env) {
  sqlite::Statement& st = db.cached(R"sql(
      INSERT INTO instances (instance_id, agent_id, boot_id, pus, topology)
      VALUES (?1, ?2, ?3, ?4, ?5)
      ON CONFLICT (instance_id) DO UPDATE SET pus = excluded.pus, topology = excluded.topology)sql");
  st.bind_text(1, env.instance_id())
      .bind_text(2, env.agent_id())
      .bind_text(3, env.boot_id())
      .bind_int(4, env.topology().pus())
      .bind_blob(5, serialized(env.topology()))
      .run();
}

// A RunStarted that arrives after the host gave its verdict (a replay of a
// run the queue marked interrupted, or ended): the new runs row takes the
// queue row's state and reason instead of "running".
void mirror_queue_verdict(sqlite::Db& db, const std::string& run_id, const std::string& agent_id) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE runs SET (status, reason, finished_at_ns) =
          (SELECT q.state, q.reason, q.finished_at_ns FROM queue q WHERE q.run_id = runs.run_id)
      WHERE run_id = ?1 AND agent_id = ?2 AND status = 'running'
        AND EXISTS (SELECT 1 FROM queue q WHERE q.run_id = ?1 AND q.agent_id = ?2
                    AND q.state IN ('interrupted', 'ok', 'failed', 'aborted')))sql");
  st.bind_text(1, run_id).bind_text(2, agent_id).run();
}

void on_run_started(sqlite::Db& db, const Envelope& env) {
  const v1::RunStarted& r = env.run_started();
  sqlite::Statement& st = db.cached(R"sql(
      INSERT INTO runs (run_id, agent_id, instance_id, labels, plan, fingerprint,
                        planned_iterations, status, started_at_ns)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'running', ?8)
      ON CONFLICT (run_id) DO NOTHING)sql");
  st.bind_text(1, r.run_id())
      .bind_text(2, env.agent_id())
      .bind_text(3, env.instance_id())
      .bind_text(4, json_object_text(r.labels()))
      .bind_blob(5, serialized(r.plan()))
      .bind_blob(6, serialized(r.fingerprint()))
      .bind_int(7, r.planned_iterations())
      .bind_int(8, env.sent_at_ns())
      .run();
  // The queue row of a run `serve` dispatched (none for `lab` or an import).
  sqlite::Statement& queue = db.cached(R"sql(
      UPDATE queue SET state = 'running',
                       dispatched_at_ns = CASE dispatched_at_ns WHEN 0 THEN ?3
                                          ELSE dispatched_at_ns END
      WHERE run_id = ?1 AND agent_id = ?2 AND state IN ('queued', 'running'))sql");
  queue.bind_text(1, r.run_id()).bind_text(2, env.agent_id()).bind_int(3, env.sent_at_ns()).run();
  mirror_queue_verdict(db, r.run_id(), env.agent_id());
}

void on_iteration_result(sqlite::Db& db, const Envelope& env) {
  const v1::IterationResult& it = env.iteration_result();
  sqlite::Statement& st = db.cached(R"sql(
      INSERT INTO iterations (run_id, case_name, variant, iteration, position, status, reason,
                              knobs, cpus, started_at_ns, finished_at_ns, sample_summary,
                              quiet_wait_s, quiet_gave_up, disturbed, disturbed_reason,
                              attempts)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
      ON CONFLICT (run_id, case_name, variant, iteration) DO NOTHING)sql");
  st.bind_text(1, it.run_id())
      .bind_text(2, it.case_name())
      .bind_text(3, it.variant())
      .bind_int(4, it.iteration())
      .bind_int(5, it.position())
      .bind_text(6, stored_status_name(it.status()))
      .bind_text(7, reason_text(it.status(), it.reason()))
      .bind_text(8, json_object_text(it.knobs()))
      .bind_text(9, it.cpus())
      .bind_int(10, it.started_at_ns())
      .bind_int(11, it.finished_at_ns());
  if (it.has_sample_summary()) {
    st.bind_blob(12, serialized(it.sample_summary()));
  } else {
    st.bind_null(12);
  }
  st.bind_double(13, it.quiet_wait_s())
      .bind_int(14, it.quiet_gave_up() ? 1 : 0)
      .bind_int(15, it.disturbed() ? 1 : 0)
      .bind_text(16, it.disturbed_reason())
      .bind_int(17, std::max(1u, it.attempts()))
      .run();
  if (db.changes() == 0) return;  // already have this iteration: keep the first
  long long iteration_id = db.last_insert_rowid();

  sqlite::Statement& metric = db.cached(R"sql(
      INSERT INTO metrics (iteration_id, ordinal, name, value, unit, direction)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6))sql");
  for (int i = 0; i < it.metrics_size(); ++i) {
    const v1::Metric& m = it.metrics(i);
    metric.reset();
    metric.bind_int(1, iteration_id)
        .bind_int(2, i)
        .bind_text(3, m.name())
        .bind_double(4, m.value())
        .bind_text(5, m.unit())
        .bind_text(6, direction_name(m.direction()))
        .run();
  }

  sqlite::Statement& histogram = db.cached(R"sql(
      INSERT INTO histograms (iteration_id, ordinal, name, unit, body)
      VALUES (?1, ?2, ?3, ?4, ?5))sql");
  for (int i = 0; i < it.histograms_size(); ++i) {
    const v1::Histogram& h = it.histograms(i);
    histogram.reset();
    histogram.bind_int(1, iteration_id)
        .bind_int(2, i)
        .bind_text(3, h.name())
        .bind_text(4, h.unit())
        .bind_blob(5, serialized(h))
        .run();
  }
}

// Samples need no RunStarted or IterationResult first: they are kept and
// show up with their run.
void on_sample(sqlite::Db& db, const Envelope& env) {
  const v1::Sample& s = env.sample();
  sqlite::Statement& st = db.cached(R"sql(
      INSERT INTO samples (run_id, position, case_name, variant, iteration, t_ns, body)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7))sql");
  st.bind_text(1, s.run_id())
      .bind_int(2, s.position())
      .bind_text(3, s.case_name())
      .bind_text(4, s.variant())
      .bind_int(5, s.iteration())
      .bind_int(6, s.t_ns())
      .bind_blob(7, serialized(s))
      .run();
}

// The reason a RunFinished stores: the agent's; for an aborted run whose
// queue row says who aborted it (set_abort_note), "NOTE (AGENT'S REASON)".
std::string finished_reason(sqlite::Db& db, const Envelope& env) {
  const v1::RunFinished& r = env.run_finished();
  const std::string reason = reason_text(r.status(), r.reason());
  if (r.status() != v1::STATUS_ABORTED) return reason;
  const std::string note = abort_note(db, r.run_id(), env.agent_id());
  if (note.empty()) return reason;
  return reason.empty() ? note : fmt::format("{} ({})", note, reason);
}

// A terminal status (ok, failed, aborted) is final: only a row still
// running, incomplete or interrupted (a queue row queued, running,
// disconnected or interrupted) takes the agent's verdict. dropped_samples
// is the agent's count whatever the status.
void on_run_finished(sqlite::Db& db, const Envelope& env) {
  const v1::RunFinished& r = env.run_finished();
  const std::string reason = finished_reason(db, env);
  sqlite::Statement& dropped = db.cached(R"sql(
      UPDATE runs SET dropped_samples = ?3 WHERE run_id = ?1 AND agent_id = ?2)sql");
  dropped.bind_text(1, r.run_id())
      .bind_text(2, env.agent_id())
      .bind_int(3, static_cast<long long>(std::min<std::uint64_t>(r.dropped_samples(), INT64_MAX)))
      .run();
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE runs SET status = ?2, reason = ?3, completed_iterations = ?4, finished_at_ns = ?5
      WHERE run_id = ?1 AND agent_id = ?6 AND status IN ('running', 'incomplete', 'interrupted'))sql");
  st.bind_text(1, r.run_id())
      .bind_text(2, stored_status_name(r.status()))
      .bind_text(3, reason)
      .bind_int(4, r.completed_iterations())
      .bind_int(5, env.sent_at_ns())
      .bind_text(6, env.agent_id())
      .run();
  sqlite::Statement& queue = db.cached(R"sql(
      UPDATE queue SET state = ?2, reason = ?3, finished_at_ns = ?4, disconnected_at_ns = 0
      WHERE run_id = ?1 AND agent_id = ?5
        AND state IN ('queued', 'running', 'disconnected', 'interrupted'))sql");
  queue.bind_text(1, r.run_id())
      .bind_text(2, stored_status_name(r.status()))
      .bind_text(3, reason)
      .bind_int(4, env.sent_at_ns())
      .bind_text(5, env.agent_id())
      .run();
}

// The ids every stored envelope needs, and a seq the store can hold.
void require_ids(const sqlite::Db& db, const Envelope& env) {
  if (env.agent_id().empty() || env.instance_id().empty() || env.seq() == 0) {
    throw StoreError(
        StoreError::Reason::kBadContent,
        fmt::format("store {}: envelope ({}) lacks agent_id, instance_id or seq "
                    "(agent '{}', instance '{}', seq {})",
                    db.path(), body_name(env), env.agent_id(), env.instance_id(), env.seq()));
  }
  if (env.seq() > static_cast<std::uint64_t>(INT64_MAX)) {  // an INTEGER column holds 2^63 - 1
    throw StoreError(StoreError::Reason::kBadContent,
                     fmt::format("store {}: envelope ({}) of agent '{}' has seq {}, over 2^63 - 1",
                                 db.path(), body_name(env), env.agent_id(), env.seq()));
  }
}

}  // namespace

bool ingest_envelope(sqlite::Db& db, const Envelope& env, std::string_view raw_bytes,
                     IngestPolicy policy, long long received_at_ns, IngestBatch* batch) {
  // Every check first, writing nothing: a refused envelope changes nothing.
  require_ids(db, env);
  OwnerCache* owners = batch ? &batch->owners : nullptr;
  const bool recorded = instance_recorded(db, env, owners);
  if (policy.replay_session) require_seen_hello(db, env, raw_bytes);
  if (policy.require_assigned_run) {
    require_assigned_run(db, env, raw_bytes, owners, policy.replay_session);
  }
  if (batch) batch->item_wrote = true;
  if (!recorded) record_instance(db, env);
  if (!insert_envelope(db, env, raw_bytes, received_at_ns)) return false;
  if (batch) {
    derive_body(db, env, received_at_ns);  // the caller touches the agent
    forget_run(batch->owners, env);
  } else {
    derive_tables(db, env, received_at_ns);
  }
  return true;
}

void note_stored(IngestBatch& batch, const Envelope& env, long long received_at_ns) {
  const long long seen = seen_at_ns(env, received_at_ns);
  auto [it, added] = batch.last_seen.try_emplace(env.agent_id(), seen);
  if (!added) it->second = std::max<long long>(it->second, seen);
}

void touch_agents(sqlite::Db& db, const IngestBatch& batch) {
  for (const auto& [agent_id, sent_at_ns] : batch.last_seen) touch_agent(db, agent_id, sent_at_ns);
}

bool insert_envelope(sqlite::Db& db, const Envelope& env, std::string_view raw_bytes,
                     long long received_at_ns) {
  sqlite::Statement& st = db.cached(R"sql(
      INSERT INTO envelopes (agent_id, instance_id, seq, kind, sent_at_ns, received_at_ns, body)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      ON CONFLICT (agent_id, instance_id, seq) DO NOTHING)sql");
  st.bind_text(1, env.agent_id())
      .bind_text(2, env.instance_id())
      .bind_int(3, static_cast<long long>(env.seq()))
      .bind_text(4, body_name(env))
      .bind_int(5, env.sent_at_ns())
      .bind_int(6, received_at_ns)
      .bind_blob(7, raw_bytes)
      .run();
  return db.changes() == 1;
}

void derive_tables(sqlite::Db& db, const Envelope& env, long long received_at_ns) {
  derive_body(db, env, received_at_ns);
  touch_agent(db, env.agent_id(), seen_at_ns(env, received_at_ns));
}

namespace {

void derive_body(sqlite::Db& db, const Envelope& env, long long received_at_ns) {
  switch (env.body_case()) {
    case Envelope::kHello:
      on_hello(db, env, received_at_ns);
      break;
    case Envelope::kTopology:
      on_topology(db, env);
      break;
    case Envelope::kRunStarted:
      on_run_started(db, env);
      break;
    case Envelope::kIterationResult:
      on_iteration_result(db, env);
      break;
    case Envelope::kSample:
      on_sample(db, env);
      break;
    case Envelope::kRunFinished:
      on_run_finished(db, env);
      break;
    default:
      break;
  }
}

}  // namespace

}  // namespace schedrig::store
