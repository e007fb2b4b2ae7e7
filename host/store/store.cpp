#include "host/store/store.h"

#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include <sqlite3.h>

#include <fmt/format.h>

#include "common/envelope_codec.h"
#include "common/ids.h"
#include "host/store/agent_queries.h"
#include "host/store/ingest.h"
#include "host/store/migrations.h"
#include "host/store/nightly_queries.h"
#include "host/store/queries.h"
#include "host/store/queue_outage.h"
#include "host/store/queue_queries.h"
#include "host/store/sample_queries.h"
#include "host/store/sqlite.h"
#include "host/store/store_file.h"

namespace schedrig::store {

struct Store::Impl {
  Impl(const std::string& path, int flags) : db(path, flags | SQLITE_OPEN_NOMUTEX) {}
  sqlite::Db db;
  mutable std::mutex mu;
};

namespace {

// PRAGMA journal_mode = WAL's answer. SQLite returns SQLITE_BUSY at once,
// without the busy handler, while another process is switching a new file
// to WAL, so a busy answer is retried for up to the busy timeout (5 s).
std::string switch_to_wal(sqlite::Db& db) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    try {
      sqlite::Statement st(db, "PRAGMA journal_mode = WAL");
      return st.step() ? st.column_text(0) : std::string();
    } catch (const StoreError& e) {
      if (e.reason() != StoreError::Reason::kBusy || std::chrono::steady_clock::now() >= deadline) {
        throw;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

// WAL lets readers (`schedrig results`) run while the collector writes.
void set_wal(sqlite::Db& db) {
  const std::string mode = switch_to_wal(db);
  if (mode != "wal" && mode != "memory") {
    throw StoreError(
        StoreError::Reason::kSql,
        fmt::format("store {}: cannot switch to WAL journal mode (got '{}')", db.path(), mode));
  }
}

}  // namespace

Store::Store(const std::string& path) : Store(path, Mode::kReadWrite) {}

Store::Store(const std::string& path, Mode mode) : path_(path) {
  std::error_code ec;
  if (mode == Mode::kReadOnly && !std::filesystem::exists(path, ec)) {
    throw StoreError(StoreError::Reason::kMissing,
                     fmt::format("store {}: no such file (run `schedrig lab` or `schedrig serve` "
                                 "first, or name the store with --db)",
                                 path));
  }
  if (mode == Mode::kReadWrite) create_private_file(path);
  impl_ = std::make_unique<Impl>(path, mode == Mode::kReadOnly
                                           ? SQLITE_OPEN_READONLY
                                           : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  sqlite::Db& db = impl_->db;
  sqlite3_busy_timeout(db.handle(), 5000);
  // Reads the header first: a file that is not SQLite fails here, and a newer
  // schema is refused before anything is written to it.
  refuse_newer_schema(db);
  if (mode == Mode::kReadOnly && schema_version() == 0) {
    throw StoreError(
        StoreError::Reason::kNoSchema,
        fmt::format("store {}: not a schedrig store (no schedrig schema in it)", path));
  }
  if (!db.read_only()) {
    set_wal(db);
    // An Ack means committed durably, power loss included: the WAL is synced
    // at every commit (SQLite's usual default, stated so no build differs).
    db.exec("PRAGMA synchronous = FULL");
    // The writer's indexes (envelopes' UNIQUE key, samples by run) outgrow
    // the default 2 MB page cache within a batch; 64 MiB keeps them hot.
    db.exec("PRAGMA cache_size = -65536");
    // Checkpoint every 8192 pages (32 MiB) of WAL instead of 1000: the same
    // hot index pages are committed again and again, and each checkpoint
    // copies them (and syncs the database) only once.
    db.exec("PRAGMA wal_autocheckpoint = 8192");
  }
  migrate(db);
}

Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

Store::Ingest Store::ingest(const v1::Envelope& env, std::string_view raw_bytes,
                            IngestPolicy policy) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  if (!ingest_envelope(impl_->db, env, raw_bytes, policy, wall_clock_ns())) {
    return Ingest::kDuplicate;
  }
  tx.commit();
  return Ingest::kStored;
}

namespace {

// The batch's policy for one item (replay_session is the item's sender's).
IngestPolicy item_policy(IngestPolicy policy, const Store::IngestItem& item) {
  policy.replay_session = item.replay_session;
  return policy;
}

}  // namespace

std::vector<Store::IngestOutcome> Store::ingest_batch(std::span<const IngestItem> items,
                                                      IngestPolicy policy) {
  std::vector<IngestOutcome> out(items.size());
  std::lock_guard lock(impl_->mu);
  sqlite::Db& db = impl_->db;
  const long long now = wall_clock_ns();
  {
    // The fast way: no savepoint per envelope (each one costs SQLite a
    // statement journal of every page the envelope touches). An envelope
    // refused by its checks has written nothing, so it needs no rollback.
    sqlite::Transaction tx(db);
    IngestBatch batch;
    bool clean = true;
    for (std::size_t i = 0; i < items.size() && clean; ++i) {
      batch.item_wrote = false;
      try {
        const bool stored = ingest_envelope(db, *items[i].env, items[i].raw,
                                            item_policy(policy, items[i]), now, &batch);
        out[i].result = stored ? Ingest::kStored : Ingest::kDuplicate;
        if (stored) note_stored(batch, *items[i].env, now);
      } catch (const StoreError& e) {
        if (batch.item_wrote) {
          clean = false;  // it failed half-way: redo the batch item by item
        } else {
          out[i].error = e;
        }
      }
    }
    if (clean) {
      touch_agents(db, batch);
      tx.commit();
      return out;
    }
  }  // rolled back
  // The careful way: each envelope in its own SAVEPOINT, so one that fails
  // after writing is undone alone and the rest commit.
  out.assign(items.size(), IngestOutcome{});
  sqlite::Transaction tx(db);
  IngestBatch batch;
  for (std::size_t i = 0; i < items.size(); ++i) {
    sqlite::Savepoint item(db);
    try {
      const bool stored = ingest_envelope(db, *items[i].env, items[i].raw,
                                          item_policy(policy, items[i]), now, &batch);
      out[i].result = stored ? Ingest::kStored : Ingest::kDuplicate;
      item.release();
      if (stored) note_stored(batch, *items[i].env, now);
    } catch (const StoreError& e) {
      item.rollback();  // throws (failing the batch) when the transaction is gone
      out[i].error = e;
    }
  }
  touch_agents(db, batch);
  tx.commit();
  return out;
}

std::vector<RunRecord> Store::runs(const std::string& run_id_prefix, RunsOptions options) const {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db, sqlite::Transaction::Kind::kDeferred);
  std::vector<RunRecord> out = load_runs(impl_->db, run_id_prefix, options);
  tx.commit();
  return out;
}

std::vector<std::string> Store::run_ids(const std::string& run_id_prefix) const {
  std::lock_guard lock(impl_->mu);
  return load_run_ids(impl_->db, run_id_prefix);
}

std::vector<SampleRecord> Store::samples(const std::string& run_id_prefix,
                                         long long after_id) const {
  std::lock_guard lock(impl_->mu);
  return load_samples(impl_->db, run_id_prefix, after_id, /*exact=*/false);
}

RunProgress Store::run_progress(const std::string& run_id, long long after_sample_id,
                                long long after_iteration_id) const {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db, sqlite::Transaction::Kind::kDeferred);
  RunProgress out = load_progress(impl_->db, run_id, after_sample_id, after_iteration_id);
  tx.commit();
  return out;
}

std::vector<AgentRecord> Store::agents() const {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db, sqlite::Transaction::Kind::kDeferred);
  std::vector<AgentRecord> out = load_agents(impl_->db);
  tx.commit();
  return out;
}

namespace {

// A run still `running` -> `status` with `reason`.
void end_running_run(sqlite::Db& db, const std::string& run_id, const char* status,
                     const std::string& reason, long long finished_at_ns) {
  sqlite::Statement st(db,
                       "UPDATE runs SET status = ?4, reason = ?2, finished_at_ns = ?3 "
                       "WHERE run_id = ?1 AND status = 'running'");
  st.bind_text(1, run_id).bind_text(2, reason).bind_int(3, finished_at_ns).bind_text(4, status);
  st.run();
}

}  // namespace

void Store::fail_unfinished_run(const std::string& run_id, const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  mark_run_row(impl_->db, run_id, "failed", reason, wall_clock_ns());
}

std::string Store::mark_run_incomplete(const std::string& run_id, const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  end_running_run(impl_->db, run_id, "incomplete", reason, 0);
  std::string status;
  {
    sqlite::Statement st(impl_->db, "SELECT status FROM runs WHERE run_id = ?1");
    st.bind_text(1, run_id);
    if (st.step()) status = st.column_text(0);
  }
  tx.commit();
  return status;
}

std::vector<std::string> Store::known_run_ids(const std::string& run_id_prefix) const {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db, sqlite::Transaction::Kind::kDeferred);
  std::vector<std::string> out = load_run_ids(impl_->db, run_id_prefix);
  for (std::string& id : load_unstarted_run_ids(impl_->db, run_id_prefix)) {
    out.push_back(std::move(id));
  }
  tx.commit();
  return out;
}

std::optional<RunRecord> Store::queued_run_record(const std::string& run_id) const {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db, sqlite::Transaction::Kind::kDeferred);
  std::optional<RunRecord> out = load_queued_run_record(impl_->db, run_id);
  tx.commit();
  return out;
}

void Store::enqueue_run(const QueuedRun& run) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  insert_queued_run(impl_->db, run, wall_clock_ns());
  tx.commit();
}

std::optional<QueuedRun> Store::next_queued_run(const std::string& agent_id) const {
  std::lock_guard lock(impl_->mu);
  std::vector<QueuedRun> rows = load_queue(impl_->db, QueueFilter::next_of(agent_id));
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

void Store::save_night(const NightRecord& night) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  store::save_night(impl_->db, night);
  tx.commit();
}

std::vector<NightlyVerdictRecord> Store::nightly_verdicts() const {
  std::lock_guard lock(impl_->mu);
  return load_nightly_verdicts(impl_->db);
}

unsigned Store::detector_failed_nights() const {
  std::lock_guard lock(impl_->mu);
  return count_detector_failed_nights(impl_->db);
}

std::vector<QueuedRun> Store::queued_runs(const std::string& state) const {
  std::lock_guard lock(impl_->mu);
  return load_queue(impl_->db, QueueFilter::in_state(state));
}

std::optional<QueuedRun> Store::queued_run(const std::string& run_id) const {
  std::lock_guard lock(impl_->mu);
  std::vector<QueuedRun> rows = load_queue(impl_->db, QueueFilter::of_run(run_id));
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

void Store::mark_run_dispatched(const std::string& run_id, const std::string& instance_id) {
  std::lock_guard lock(impl_->mu);
  set_dispatched(impl_->db, run_id, instance_id, wall_clock_ns());
}

void Store::note_abort(const std::string& run_id, const std::string& note) {
  std::lock_guard lock(impl_->mu);
  set_abort_note(impl_->db, run_id, note);
}

void Store::finish_queued_run(const std::string& run_id, const std::string& state,
                              const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  set_finished(impl_->db, run_id, state, reason, wall_clock_ns());
  tx.commit();
}

bool Store::mark_run_disconnected(const std::string& run_id, const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  return set_disconnected(impl_->db, run_id, reason, wall_clock_ns());
}

bool Store::resume_run(const std::string& run_id) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  const bool changed = set_resumed(impl_->db, run_id);
  tx.commit();
  return changed;
}

bool Store::interrupt_run(const std::string& run_id, const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  const bool changed = set_interrupted(impl_->db, run_id, reason, wall_clock_ns());
  tx.commit();
  return changed;
}

std::vector<QueuedRun> Store::interrupt_stale_runs(std::chrono::seconds after) {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  std::vector<QueuedRun> stale = interrupt_stale(impl_->db, after, wall_clock_ns());
  tx.commit();
  return stale;
}

int Store::disconnect_dispatched_runs(const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  return disconnect_dispatched(impl_->db, reason, wall_clock_ns());
}

std::vector<QueuedRun> Store::dispatched_runs(const std::string& agent_id) const {
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db, sqlite::Transaction::Kind::kDeferred);
  std::vector<QueuedRun> out = load_dispatched(impl_->db, agent_id);
  tx.commit();
  return out;
}

bool Store::run_started(const std::string& run_id) const {
  std::lock_guard lock(impl_->mu);
  sqlite::Statement st(impl_->db, "SELECT 1 FROM runs WHERE run_id = ?1");
  st.bind_text(1, run_id);
  return st.step();
}

int Store::schema_version() const {
  std::lock_guard lock(impl_->mu);
  return read_schema_version(impl_->db);
}

const std::string& Store::path() const { return path_; }

}  // namespace schedrig::store
