#include "host/store/queue_outage.h"

#include <algorithm>

#include <fmt/format.h>

#include "host/store/queue_queries.h"

namespace schedrig::store {

bool set_disconnected(sqlite::Db& db, const std::string& run_id, const std::string& reason,
                      long long now_ns) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET state = 'disconnected', reason = ?2, disconnected_at_ns = ?3
      WHERE run_id = ?1 AND state = 'running')sql");
  st.bind_text(1, run_id).bind_text(2, reason).bind_int(3, now_ns).run();
  return db.changes() == 1;
}

int disconnect_dispatched(sqlite::Db& db, const std::string& reason, long long now_ns) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET state = 'disconnected', reason = ?1,
                       disconnected_at_ns = CASE disconnected_at_ns WHEN 0 THEN ?2
                                            ELSE disconnected_at_ns END
      WHERE state IN ('running', 'disconnected'))sql");
  st.bind_text(1, reason).bind_int(2, now_ns).run();
  return db.changes();
}

bool set_resumed(sqlite::Db& db, const std::string& run_id) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET state = 'running', reason = abort_note, disconnected_at_ns = 0
      WHERE run_id = ?1 AND state IN ('disconnected', 'interrupted'))sql");
  st.bind_text(1, run_id).run();
  if (db.changes() != 1) return false;
  sqlite::Statement& run = db.cached(R"sql(
      UPDATE runs SET status = 'running', reason = '', finished_at_ns = 0
      WHERE run_id = ?1 AND status = 'interrupted')sql");
  run.bind_text(1, run_id).run();
  return true;
}

bool set_interrupted(sqlite::Db& db, const std::string& run_id, const std::string& reason,
                     long long now_ns) {
  sqlite::Statement& st = db.cached(R"sql(
      UPDATE queue SET state = 'interrupted', reason = ?2, disconnected_at_ns = 0
      WHERE run_id = ?1 AND state IN ('running', 'disconnected'))sql");
  st.bind_text(1, run_id).bind_text(2, reason).run();
  if (db.changes() != 1) return false;
  sqlite::Statement& run = db.cached(R"sql(
      UPDATE runs SET status = 'interrupted', reason = ?2, finished_at_ns = ?3
      WHERE run_id = ?1 AND status = 'running')sql");
  run.bind_text(1, run_id).bind_text(2, reason).bind_int(3, now_ns).run();
  return true;
}

std::vector<QueuedRun> interrupt_stale(sqlite::Db& db, std::chrono::seconds after,
                                       long long now_ns) {
  const long long cutoff = now_ns - std::chrono::nanoseconds(after).count();
  std::vector<QueuedRun> stale;
  for (QueuedRun& q : load_queue(db, QueueFilter::in_state("disconnected"))) {
    if (q.disconnected_at_ns != 0 && q.disconnected_at_ns <= cutoff) stale.push_back(std::move(q));
  }
  for (const QueuedRun& q : stale) {
    set_interrupted(
        db, q.run_id,
        fmt::format("agent {} disconnected for more than {} s", q.agent_id, after.count()), now_ns);
  }
  return stale;
}

std::vector<QueuedRun> load_dispatched(sqlite::Db& db, const std::string& agent_id) {
  std::vector<QueuedRun> out;
  for (const char* state : {"running", "disconnected", "interrupted"}) {
    for (QueuedRun& q : load_queue(db, {agent_id, state, "", false})) out.push_back(std::move(q));
  }
  std::sort(out.begin(), out.end(),
            [](const QueuedRun& a, const QueuedRun& b) { return a.id < b.id; });
  return out;
}

}  // namespace schedrig::store
