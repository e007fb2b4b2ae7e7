#include "host/store/queue_queries.h"

#include <fmt/format.h>

#include "common/plan/plan_json.h"
#include "host/store/queries.h"

namespace schedrig::store {
namespace {

constexpr const char* kColumns =
    "id, run_id, agent_id, plan, plan_name, labels, state, reason, submitted_by, "
    "submitted_at_ns, dispatched_at_ns, finished_at_ns, instance_id, abort_note, "
    "disconnected_at_ns";

QueuedRun read_row(const sqlite::Db& db, const sqlite::Statement& st) {
  QueuedRun q;
  q.id = st.column_int(0);
  q.run_id = st.column_text(1);
  q.agent_id = st.column_text(2);
  q.plan = decode_plan(db, st.column_blob(3), q.run_id);
  q.plan_name = st.column_text(4);
  q.labels = string_map(db, st.column_text(5), "labels of queued run " + q.run_id);
  q.state = st.column_text(6);
  q.reason = st.column_text(7);
  q.submitted_by = st.column_text(8);
  q.submitted_at_ns = st.column_int(9);
  q.dispatched_at_ns = st.column_int(10);
  q.finished_at_ns = st.column_int(11);
  q.instance_id = st.column_text(12);
  q.abort_note = st.column_text(13);
  q.disconnected_at_ns = st.column_int(14);
  return q;
}

bool exists(sqlite::Db& db, const char* sql, const std::string& run_id) {
  sqlite::Statement& st = db.cached(sql);
  st.bind_text(1, run_id);
  const bool found = st.step();
  st.reset();
  return found;
}

}  // namespace

void mark_run_row(sqlite::Db& db, const std::string& run_id, const std::string& state,
                  const std::string& reason, long long now_ns) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE runs SET status = ?2, reason = ?3, finished_at_ns = ?4
      WHERE run_id = ?1 AND status IN ('running', 'interrupted'))sql");
  st.bind_text(1, run_id).bind_text(2, state).bind_text(3, reason).bind_int(4, now_ns).run();
}

std::vector<QueuedRun> load_queue(sqlite::Db& db, const QueueFilter& filter) {
  std::string sql = fmt::format("SELECT {} FROM queue WHERE 1", kColumns);
  if (!filter.agent_id.empty()) sql += " AND agent_id = :agent";
  if (!filter.state.empty()) sql += " AND state = :state";
  if (!filter.run_id.empty()) sql += " AND run_id = :run";
  sql += filter.first_only ? " ORDER BY id LIMIT 1" : " ORDER BY id";
  sqlite::Statement& st = db.cached(sql);
  int index = 0;
  if (!filter.agent_id.empty()) st.bind_text(++index, filter.agent_id);
  if (!filter.state.empty()) st.bind_text(++index, filter.state);
  if (!filter.run_id.empty()) st.bind_text(++index, filter.run_id);
  std::vector<QueuedRun> out;
  while (st.step()) out.push_back(read_row(db, st));
  return out;
}

void insert_queued_run(sqlite::Db& db, const QueuedRun& run, long long now_ns) {
  if (run.run_id.empty() || run.agent_id.empty()) {
    throw StoreError(StoreError::Reason::kBadContent,
                     fmt::format("store {}: a queued run needs a run_id and an agent_id (got "
                                 "'{}', '{}')",
                                 db.path(), run.run_id, run.agent_id));
  }
  if (exists(db, "SELECT 1 FROM queue WHERE run_id = ?1", run.run_id) ||
      exists(db, "SELECT 1 FROM runs WHERE run_id = ?1", run.run_id)) {
    throw StoreError(
        StoreError::Reason::kBadContent,
        fmt::format("store {}: run {} is already queued or stored", db.path(), run.run_id));
  }
  std::string plan;
  run.plan.SerializeToString(&plan);
  sqlite::Statement& st = db.cached(R"sql(
      INSERT INTO queue (run_id, agent_id, plan, plan_name, labels, state, submitted_by,
                         submitted_at_ns)
      VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7))sql");
  st.bind_text(1, run.run_id)
      .bind_text(2, run.agent_id)
      .bind_blob(3, plan)
      .bind_text(4, run.plan_name)
      .bind_text(5, nlohmann::json(run.labels).dump())
      .bind_text(6, run.submitted_by)
      .bind_int(7, run.submitted_at_ns != 0 ? run.submitted_at_ns : now_ns)
      .run();
}

void set_dispatched(sqlite::Db& db, const std::string& run_id, const std::string& instance_id,
                    long long now_ns) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET state = 'running', dispatched_at_ns = ?2, instance_id = ?3
      WHERE run_id = ?1 AND state = 'queued')sql");
  st.bind_text(1, run_id).bind_int(2, now_ns).bind_text(3, instance_id).run();
}

void set_finished(sqlite::Db& db, const std::string& run_id, const std::string& state,
                  const std::string& reason, long long now_ns) {
  if (state != "ok" && state != "failed" && state != "aborted") {
    throw StoreError(StoreError::Reason::kBadContent,
                     fmt::format("store {}: run {} cannot finish as '{}' (ok, failed or aborted)",
                                 db.path(), run_id, state));
  }
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET state = ?2, reason = ?3, finished_at_ns = ?4, disconnected_at_ns = 0
      WHERE run_id = ?1 AND state IN ('queued', 'running', 'disconnected', 'interrupted'))sql");
  st.bind_text(1, run_id).bind_text(2, state).bind_text(3, reason).bind_int(4, now_ns).run();
  mark_run_row(db, run_id, state, reason, now_ns);
}

void set_abort_note(sqlite::Db& db, const std::string& run_id, const std::string& note) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET abort_note = ?2,
                       reason = CASE state WHEN 'running' THEN ?2 ELSE reason END
      WHERE run_id = ?1 AND state IN ('running', 'disconnected'))sql");
  st.bind_text(1, run_id).bind_text(2, note).run();
}

std::string abort_note(sqlite::Db& db, const std::string& run_id, const std::string& agent_id) {
  sqlite::Statement& st = db.cached(R"sql(
      SELECT abort_note FROM queue
      WHERE run_id = ?1 AND agent_id = ?2 AND state IN ('running', 'disconnected', 'interrupted'))sql");
  st.bind_text(1, run_id).bind_text(2, agent_id);
  std::string note = st.step() ? st.column_text(0) : "";
  st.reset();
  return note;
}

std::optional<RunRecord> load_queued_run_record(sqlite::Db& db, const std::string& run_id) {
  if (exists(db, "SELECT 1 FROM runs WHERE run_id = ?1", run_id)) return std::nullopt;
  std::vector<QueuedRun> rows = load_queue(db, QueueFilter::of_run(run_id));
  if (rows.empty()) return std::nullopt;
  const QueuedRun& q = rows.front();
  RunRecord r;
  r.run_id = q.run_id;
  r.agent_id = q.agent_id;
  r.labels = q.labels;
  r.plan = plan_to_json(q.plan);
  r.status = q.state;
  r.reason = q.reason;
  r.finished_at_ns = q.finished_at_ns;
  return r;
}

std::vector<std::string> load_unstarted_run_ids(sqlite::Db& db, const std::string& prefix) {
  sqlite::Statement& st = db.cached(R"sql(
      SELECT q.run_id FROM queue q
      WHERE substr(q.run_id, 1, length(?1)) = ?1
        AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.run_id = q.run_id)
      ORDER BY q.id)sql");
  st.bind_text(1, prefix);
  std::vector<std::string> out;
  while (st.step()) out.push_back(st.column_text(0));
  return out;
}

}  // namespace schedrig::store
