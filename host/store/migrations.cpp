#include "host/store/migrations.h"

#include <fmt/format.h>

namespace schedrig::store {
namespace {

struct Migration {
  int version;      // user_version after this step
  const char* sql;  // statements of the step
};

// Append-only: a released step is never edited; a schema change is a new
// step {N+1, "ALTER TABLE ...; CREATE ..."}.
constexpr Migration kMigrations[] = {
    {1, R"sql(
-- Every envelope as received (docs/architecture.md "Wire protocol"): the source of truth.
CREATE TABLE envelopes (
  id             INTEGER PRIMARY KEY,
  agent_id       TEXT    NOT NULL,
  instance_id    TEXT    NOT NULL,
  seq            INTEGER NOT NULL,
  kind           TEXT    NOT NULL,  -- schedrig::body_name: "hello", "iteration_result", ...
  sent_at_ns     INTEGER NOT NULL,
  received_at_ns INTEGER NOT NULL,
  body           BLOB    NOT NULL,  -- the serialized schedrig.v1.Envelope
  UNIQUE (agent_id, instance_id, seq)
);

-- One row per lab box.
CREATE TABLE agents (
  agent_id     TEXT PRIMARY KEY,
  hostname     TEXT    NOT NULL,
  last_seen_ns INTEGER NOT NULL  -- latest sent_at_ns of any envelope from it
);

-- One row per agent start (Hello, then Topology).
CREATE TABLE instances (
  instance_id    TEXT PRIMARY KEY,
  agent_id       TEXT    NOT NULL,
  boot_id        TEXT    NOT NULL,
  hostname       TEXT    NOT NULL DEFAULT '',
  kernel_release TEXT    NOT NULL DEFAULT '',
  agent_version  TEXT    NOT NULL DEFAULT '',
  allowed_pus    INTEGER NOT NULL DEFAULT 0,
  pus            INTEGER NOT NULL DEFAULT 0,  -- from Topology, 0 until it arrives
  topology       BLOB                         -- serialized schedrig.v1.Topology
);
CREATE INDEX instances_agent ON instances (agent_id);

CREATE TABLE runs (
  run_id               TEXT PRIMARY KEY,
  agent_id             TEXT    NOT NULL,
  instance_id          TEXT    NOT NULL,
  labels               TEXT    NOT NULL,  -- JSON object of strings
  plan                 BLOB    NOT NULL,  -- serialized schedrig.v1.Plan
  fingerprint          BLOB    NOT NULL,  -- serialized schedrig.v1.Fingerprint
  planned_iterations   INTEGER NOT NULL,
  status               TEXT    NOT NULL,  -- running | ok | failed | aborted
  reason               TEXT    NOT NULL DEFAULT '',
  completed_iterations INTEGER,           -- RunFinished's count, NULL while running
  started_at_ns        INTEGER NOT NULL,
  finished_at_ns       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_started ON runs (started_at_ns);

-- One row per IterationResult; run_id may name a run not yet started.
CREATE TABLE iterations (
  id             INTEGER PRIMARY KEY,
  run_id         TEXT    NOT NULL,
  case_name      TEXT    NOT NULL,
  variant        TEXT    NOT NULL,
  iteration      INTEGER NOT NULL,
  position       INTEGER NOT NULL,
  status         TEXT    NOT NULL,  -- ok | failed | aborted
  reason         TEXT    NOT NULL DEFAULT '',
  knobs          TEXT    NOT NULL,  -- JSON object of strings
  cpus           TEXT    NOT NULL DEFAULT '',
  started_at_ns  INTEGER NOT NULL,
  finished_at_ns INTEGER NOT NULL,
  UNIQUE (run_id, case_name, variant, iteration)
);
CREATE INDEX iterations_run_position ON iterations (run_id, position);

CREATE TABLE metrics (
  iteration_id INTEGER NOT NULL,
  ordinal      INTEGER NOT NULL,  -- 0 = the workload's primary metric
  name         TEXT    NOT NULL,
  value        REAL,              -- NULL when the agent sent NaN
  unit         TEXT    NOT NULL,
  direction    TEXT    NOT NULL,  -- higher_is_better | lower_is_better | ''
  PRIMARY KEY (iteration_id, ordinal)
) WITHOUT ROWID;

-- Latency histograms, kept whole so percentiles can be pooled later.
CREATE TABLE histograms (
  iteration_id INTEGER NOT NULL,
  ordinal      INTEGER NOT NULL,
  name         TEXT    NOT NULL,
  unit         TEXT    NOT NULL,
  body         BLOB    NOT NULL,  -- serialized schedrig.v1.Histogram
  PRIMARY KEY (iteration_id, ordinal)
) WITHOUT ROWID;
)sql"},
    {2, R"sql(
-- One row per Sample envelope (issue #6; docs/sampling.md): what the agent's
-- sampler saw in one interval of an iteration's measured window. run_id may
-- name a run not yet started. `watch` reads new rows by id > the last seen.
CREATE TABLE samples (
  id        INTEGER PRIMARY KEY,
  run_id    TEXT    NOT NULL,
  position  INTEGER NOT NULL,  -- 0-based place in the run's schedule
  case_name TEXT    NOT NULL,
  variant   TEXT    NOT NULL,
  iteration INTEGER NOT NULL,  -- 1-based within (case, variant)
  t_ns      INTEGER NOT NULL,  -- wall clock at the interval's end
  body      BLOB    NOT NULL   -- serialized schedrig.v1.Sample
);
CREATE INDEX samples_run_id ON samples (run_id, id);

-- The IterationResult's sample summary and quiet-box wait.
ALTER TABLE iterations ADD COLUMN sample_summary BLOB;  -- serialized schedrig.v1.SampleSummary
ALTER TABLE iterations ADD COLUMN quiet_wait_s REAL NOT NULL DEFAULT 0;
ALTER TABLE iterations ADD COLUMN quiet_gave_up INTEGER NOT NULL DEFAULT 0;  -- 0 | 1
)sql"},
    {3, R"sql(
-- Runs submitted to `schedrig serve` (issue #12): one row per (run, agent),
-- FIFO per agent by id. A row is written before the run starts; RunStarted
-- and RunFinished move its state in the transaction that stores them.
CREATE TABLE queue (
  id               INTEGER PRIMARY KEY,  -- FIFO order
  run_id           TEXT    NOT NULL UNIQUE,
  agent_id         TEXT    NOT NULL,
  plan             BLOB    NOT NULL,  -- serialized schedrig.v1.Plan
  plan_name        TEXT    NOT NULL,
  labels           TEXT    NOT NULL,  -- JSON object of strings
  state            TEXT    NOT NULL,  -- queued | running | ok | failed | aborted
  reason           TEXT    NOT NULL DEFAULT '',
  submitted_by     TEXT    NOT NULL,  -- operator name
  submitted_at_ns  INTEGER NOT NULL,
  dispatched_at_ns INTEGER NOT NULL DEFAULT 0,
  finished_at_ns   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX queue_agent_state ON queue (agent_id, state, id);
CREATE INDEX queue_state ON queue (state, id);
)sql"},
    {4, R"sql(
-- Runs across outages (issue #13): a dispatched run outlives its agent's
-- link and serve itself. queue.state gains disconnected (its agent's link
-- is down; it resumes on the same instance's Hello) and interrupted (the
-- agent came back as another instance, or stayed away too long; not final:
-- a later RunFinished still sets the verdict); runs.status mirrors
-- interrupted. The abort note moves out of `reason`, which a disconnect
-- rewrites, into its own column.
ALTER TABLE queue ADD COLUMN instance_id TEXT NOT NULL DEFAULT '';  -- dispatched to; '' = unknown
ALTER TABLE queue ADD COLUMN abort_note TEXT NOT NULL DEFAULT '';   -- "aborted by ..." or ''
ALTER TABLE queue ADD COLUMN disconnected_at_ns INTEGER NOT NULL DEFAULT 0;  -- 0 = not now
UPDATE queue SET abort_note = reason WHERE state = 'running';
-- RunFinished.dropped_samples: samples the agent's full spool dropped.
ALTER TABLE runs ADD COLUMN dropped_samples INTEGER NOT NULL DEFAULT 0;
)sql"},
    {5, R"sql(
-- Disturbed iterations (other work in the window, or the quiet check gave
-- up) and how many attempts the runner made (issue #14).
ALTER TABLE iterations ADD COLUMN disturbed INTEGER NOT NULL DEFAULT 0;  -- 0 | 1
ALTER TABLE iterations ADD COLUMN disturbed_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE iterations ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
)sql"},
    {6, R"sql(
-- The nights `schedrig nightly` reported to serve (POST /api/v1/nightly),
-- and each agent and plan's rows of its latest night (serve's /metrics).
CREATE TABLE nights (
  night           TEXT    PRIMARY KEY,  -- RFC 3339 UTC, the night's name
  received_at_ns  INTEGER NOT NULL,
  regression      INTEGER NOT NULL,     -- 0 | 1: a gated row failed
  detector_failed INTEGER NOT NULL,     -- 0 | 1: a selftest missed its regression
  submitted_by    TEXT    NOT NULL      -- the operator's name
);
CREATE TABLE nightly_verdicts (
  agent_id   TEXT NOT NULL,
  plan       TEXT NOT NULL,
  case_name  TEXT NOT NULL,
  variant    TEXT NOT NULL,
  metric     TEXT NOT NULL,
  kernel     TEXT NOT NULL,
  night      TEXT NOT NULL REFERENCES nights(night),
  verdict    INTEGER NOT NULL,          -- -1 (R), 0 none, 1 (I), NULL-free; 2 not judged
  change_pct REAL,                      -- NULL when not judged
  PRIMARY KEY (agent_id, plan, case_name, variant, metric, kernel)
);
)sql"},
};

}  // namespace

int latest_schema_version() { return std::end(kMigrations)[-1].version; }

int read_schema_version(sqlite::Db& db) {
  sqlite::Statement st(db, "PRAGMA user_version");
  if (!st.step()) db.fail("PRAGMA user_version", "no result");
  return static_cast<int>(st.column_int(0));
}

void refuse_newer_schema(sqlite::Db& db) {
  int latest = latest_schema_version();
  int current = read_schema_version(db);
  if (current > latest) {
    throw StoreError(
        StoreError::Reason::kNewerSchema,
        fmt::format("store {}: schema version {} is newer than this build of schedrig knows ({}); "
                    "use a newer schedrig",
                    db.path(), current, latest));
  }
}

void migrate(sqlite::Db& db) { migrate_to(db, latest_schema_version()); }

void migrate_to(sqlite::Db& db, int version) {
  refuse_newer_schema(db);
  int current = read_schema_version(db);
  if (current >= version) return;
  if (db.read_only()) {
    throw StoreError(
        StoreError::Reason::kOldSchema,
        fmt::format("store {}: schema version {} needs upgrading to {}, but the file is read-only",
                    db.path(), current, version));
  }
  for (const Migration& m : kMigrations) {
    if (m.version > version) break;
    sqlite::Transaction tx(db);
    // Re-read under the write lock: another process may have got here first.
    if (read_schema_version(db) >= m.version) continue;
    db.exec(m.sql);
    db.exec(fmt::format("PRAGMA user_version = {}", m.version));
    tx.commit();
  }
}

}  // namespace schedrig::store
