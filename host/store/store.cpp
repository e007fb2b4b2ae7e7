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
#include "host/store/queries.h"
#include "host/store/sample_queries.h"
#include "host/store/sqlite.h"

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
  if (!db.read_only()) set_wal(db);
  migrate(db);
}

Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

Store::Ingest Store::ingest(const v1::Envelope& env, std::string_view raw_bytes) {
  if (env.agent_id().empty() || env.instance_id().empty() || env.seq() == 0) {
    throw StoreError(
        StoreError::Reason::kBadContent,
        fmt::format("store {}: envelope ({}) lacks agent_id, instance_id or seq (agent '{}', "
                    "instance '{}', "
                    "seq {})",
                    path_, body_name(env), env.agent_id(), env.instance_id(), env.seq()));
  }
  std::lock_guard lock(impl_->mu);
  sqlite::Transaction tx(impl_->db);
  if (!insert_envelope(impl_->db, env, raw_bytes, wall_clock_ns())) return Ingest::kDuplicate;
  derive_tables(impl_->db, env);
  tx.commit();
  // TEMPORARY STUB (P5 control) until P4 lands: RunFinished ends its queue row.
  if (env.has_run_finished()) {
    static const char* names[] = {"unspecified", "ok", "failed", "aborted"};
    int st = env.run_finished().status();
    finish_queued_run(env.run_finished().run_id(), st >= 0 && st < 4 ? names[st] : "failed",
                      env.run_finished().reason());
  }
  return Ingest::kStored;
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

void Store::fail_unfinished_run(const std::string& run_id, const std::string& reason) {
  std::lock_guard lock(impl_->mu);
  sqlite::Statement st(impl_->db,
                       "UPDATE runs SET status = 'failed', reason = ?2, finished_at_ns = ?3 "
                       "WHERE run_id = ?1 AND status = 'running'");
  st.bind_text(1, run_id).bind_text(2, reason).bind_int(3, wall_clock_ns()).run();
}

int Store::schema_version() const {
  std::lock_guard lock(impl_->mu);
  return read_schema_version(impl_->db);
}

const std::string& Store::path() const { return path_; }

}  // namespace schedrig::store
