#include "host/store/agent_state_queries.h"

#include <sqlite3.h>

#include "common/envelope_codec.h"
#include "common/wire_names.h"
#include "host/store/sample_queries.h"
#include "host/store/sqlite.h"

namespace schedrig::store {
namespace {

SampleSummaryRecord summary_record(const v1::SampleSummary& s) {
  SampleSummaryRecord out;
  out.samples = s.samples();
  out.starved_intervals = s.starved_intervals();
  for (const v1::SampleStat& stat : s.stats()) {
    out.stats.push_back({stat.name(), stat.unit(), stat.mean(), stat.p95()});
  }
  return out;
}

// Decodes a stored envelope body; false for one that does not decode.
bool decode(const std::string& bytes, v1::Envelope& env) { return env.ParseFromString(bytes); }

}  // namespace

IterationRecord iteration_record(const v1::IterationResult& r) {
  IterationRecord it;
  it.case_name = r.case_name();
  it.variant = r.variant();
  it.iteration = r.iteration();
  it.position = r.position();
  it.status = stored_status_name(r.status());
  it.reason = r.reason();
  for (const v1::Metric& m : r.metrics()) {
    it.metrics.push_back({m.name(), m.value(), m.unit(), direction_name(m.direction())});
  }
  it.knobs = {r.knobs().begin(), r.knobs().end()};
  it.cpus = r.cpus();
  it.started_at_ns = r.started_at_ns();
  it.finished_at_ns = r.finished_at_ns();
  if (r.has_sample_summary()) it.sample_summary = summary_record(r.sample_summary());
  it.quiet_wait_s = r.quiet_wait_s();
  it.quiet_gave_up = r.quiet_gave_up();
  it.disturbed = r.disturbed();
  it.disturbed_reason = r.disturbed_reason();
  it.attempts = std::max(1u, r.attempts());
  return it;
}

SampleRecord sample_record(const v1::Sample& s) {
  SampleRecord out;
  out.run_id = s.run_id();
  out.case_name = s.case_name();
  out.variant = s.variant();
  out.iteration = s.iteration();
  out.position = s.position();
  out.t_ns = s.t_ns();
  out.interval_s = s.interval_s();
  out.ops_so_far = s.ops_so_far();
  out.values = sample_values(s);
  out.starved = s.starved();
  out.starved_reason = s.starved_reason();
  return out;
}

StateReader::StateReader(const std::string& path)
    : db_(std::make_unique<sqlite::Db>(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)) {
  sqlite3_busy_timeout(db_->handle(), 5000);
}

StateReader::~StateReader() = default;

std::optional<AgentState> StateReader::agent_state(const std::string& agent_id) const {
  std::lock_guard lock(mu_);
  sqlite::Transaction tx(*db_, sqlite::Transaction::Kind::kDeferred);
  sqlite::Statement inst(*db_, R"sql(
      SELECT instance_id, topology FROM instances
      WHERE rowid = (SELECT max(rowid) FROM instances WHERE agent_id = ?1))sql");
  inst.bind_text(1, agent_id);
  if (!inst.step()) return std::nullopt;
  AgentState state;
  state.instance_id = inst.column_text(0);
  state.has_topology = !inst.is_null(1) && state.topology.ParseFromString(inst.column_blob(1));
  sqlite::Statement hello(*db_, R"sql(
      SELECT body FROM envelopes
      WHERE agent_id = ?1 AND instance_id = ?2 AND kind = 'hello' ORDER BY id DESC LIMIT 1)sql");
  hello.bind_text(1, agent_id).bind_text(2, state.instance_id);
  v1::Envelope env;
  if (!hello.step() || !decode(hello.column_blob(0), env) || !env.has_hello()) return std::nullopt;
  state.hello = env.hello();
  tx.commit();
  return state;
}

RunEventsPage StateReader::run_events(const std::string& agent_id, const std::string& run_id,
                                      long long after, int max_scan) const {
  std::lock_guard lock(mu_);
  sqlite::Transaction tx(*db_, sqlite::Transaction::Kind::kDeferred);
  RunEventsPage page;
  page.next_after = after;
  // A range of the primary key: cheap however big the table is.
  sqlite::Statement st(*db_, R"sql(
      SELECT id, agent_id = ?2 AND kind IN ('run_started', 'iteration_result', 'sample',
                                            'run_finished', 'error', 'log'), body
      FROM envelopes WHERE id > ?1 ORDER BY id LIMIT ?3)sql");
  st.bind_int(1, after).bind_text(2, agent_id).bind_int(3, max_scan);
  int scanned = 0;
  while (st.step()) {
    ++scanned;
    page.next_after = st.column_int(0);
    v1::Envelope env;
    if (st.column_int(1) == 0 || !decode(st.column_blob(2), env)) continue;
    if (const std::string* of = run_id_of(env); of && *of == run_id)
      page.events.push_back({page.next_after, std::move(env)});
  }
  if (scanned == max_scan) {
    sqlite::Statement beyond(*db_, "SELECT 1 FROM envelopes WHERE id > ?1 LIMIT 1");
    beyond.bind_int(1, page.next_after);
    page.more = beyond.step();
  }
  tx.commit();
  return page;
}

long long StateReader::last_envelope_before(long long received_at_ns) const {
  std::lock_guard lock(mu_);
  sqlite::Transaction tx(*db_, sqlite::Transaction::Kind::kDeferred);
  sqlite::Statement max_id(*db_, "SELECT coalesce(max(id), 0) FROM envelopes");
  max_id.step();
  long long lo = 0, hi = max_id.column_int(0);  // answer in [lo, hi]
  sqlite::Statement at(
      *db_, "SELECT id, received_at_ns FROM envelopes WHERE id >= ?1 ORDER BY id LIMIT 1");
  while (lo < hi) {
    const long long mid = lo + (hi - lo + 1) / 2;
    at.reset();
    at.bind_int(1, mid);
    // The first row at or after `mid` (ids may have gaps).
    if (at.step() && at.column_int(1) < received_at_ns) {
      lo = at.column_int(0);
    } else {
      hi = mid - 1;
    }
  }
  tx.commit();
  return lo;
}

}  // namespace schedrig::store
