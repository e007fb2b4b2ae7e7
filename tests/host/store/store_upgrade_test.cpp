// Stores written by older builds (schema 1: before samples; schema 2: before
// the queue) opened by this build: upgraded in place to schema 3, their runs
// read back whole.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "host/store/migrations.h"
#include "host/store/sqlite.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::kRun;
using schedrig::testing::RawDb;
using schedrig::testing::TempDir;

// One run and one iteration (with a metric), the rows written as schema 1's
// ingest wrote them; make_v1_store: a schema-1 file holding them.
void make_v1_rows(const std::string& path) {
  RawDb raw(path);
  raw.exec(R"sql(
      INSERT INTO instances (instance_id, agent_id, boot_id, hostname, kernel_release, pus)
      VALUES ('inst-1', 'altra-01', 'boot-1', 'altra-01.lab', '6.18.0', 160);
      INSERT INTO runs (run_id, agent_id, instance_id, labels, plan, fingerprint,
                        planned_iterations, status, completed_iterations, started_at_ns,
                        finished_at_ns)
      VALUES ('3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b', 'altra-01', 'inst-1', '{"tag":"v1"}',
              X'', X'', 1, 'ok', 1, 1000, 2000);
      INSERT INTO iterations (run_id, case_name, variant, iteration, position, status, knobs,
                              started_at_ns, finished_at_ns)
      VALUES ('3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b', 'fork-all', 'baseline', 1, 0, 'ok',
              '{"NI_RANDOM":"on"}', 1100, 1900);
      INSERT INTO metrics (iteration_id, ordinal, name, value, unit, direction)
      VALUES (1, 0, 'bogo_ops_per_s', 127553.25, 'ops/s', 'higher_is_better');
  )sql");
}

void make_v1_store(const std::string& path) {
  {
    sqlite::Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    migrate_to(db, 1);
  }
  RawDb(path).exec("PRAGMA journal_mode = WAL");
  make_v1_rows(path);
}

TEST(StoreUpgrade, SchemaOneFileIsUpgradedAndReadsBack) {
  TempDir tmp;
  const std::string path = tmp.file("v1.db");
  make_v1_store(path);
  {
    RawDb raw(path);
    ASSERT_EQ(raw.scalar("PRAGMA user_version"), "1");
    ASSERT_EQ(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'samples'"), "0");
  }

  // A read-only opening refuses to upgrade and says so.
  try {
    Store reader(path, Store::Mode::kReadOnly);
    ADD_FAILURE() << "read-only open of a schema-1 file did not throw";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 1 needs upgrading to 6"),
              std::string::npos)
        << e.what();
  }

  Store store(path);
  EXPECT_EQ(store.schema_version(), 6);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_id, kRun);
  EXPECT_EQ(runs[0].hostname, "altra-01.lab");
  EXPECT_EQ(runs[0].labels.at("tag"), "v1");
  ASSERT_EQ(runs[0].iterations.size(), 1u);
  const IterationRecord& it = runs[0].iterations[0];
  EXPECT_EQ(it.knobs.at("NI_RANDOM"), "on");
  ASSERT_EQ(it.metrics.size(), 1u);
  EXPECT_EQ(it.metrics[0].value, 127553.25);
  // The new columns read as "not sampled, no wait".
  EXPECT_EQ(it.sample_summary.samples, 0u);
  EXPECT_TRUE(it.sample_summary.stats.empty());
  EXPECT_EQ(it.quiet_wait_s, 0.0);
  EXPECT_FALSE(it.quiet_gave_up);
  EXPECT_TRUE(store.samples(kRun).empty());

  // And the upgraded file takes samples from now on.
  const v1::Envelope sample = schedrig::testing::make_sample(1, kRun, 0, 0);
  store.ingest(sample, encode_envelope(sample));
  EXPECT_EQ(store.samples(kRun).size(), 1u);

  // A later read-only opening (`results`, `watch`) is happy.
  Store reader(path, Store::Mode::kReadOnly);
  EXPECT_EQ(reader.schema_version(), 6);
  EXPECT_EQ(reader.runs().size(), 1u);
}

TEST(StoreUpgrade, SchemaTwoFileGetsTheQueueAndKeepsItsData) {
  TempDir tmp;
  const std::string path = tmp.file("v2.db");
  {
    sqlite::Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    migrate_to(db, 2);
  }
  {
    RawDb raw(path);
    raw.exec("PRAGMA journal_mode = WAL");
    ASSERT_EQ(raw.scalar("PRAGMA user_version"), "2");
  }
  // The rows schema 2's ingest wrote (schema 1's, a sample, a quiet wait).
  make_v1_rows(path);
  {
    RawDb raw(path);
    raw.exec(R"sql(
        INSERT INTO samples (run_id, position, case_name, variant, iteration, t_ns, body)
        VALUES ('3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b', 0, 'fork-all', 'baseline', 1, 1500, X'');
        UPDATE iterations SET quiet_wait_s = 2.5, quiet_gave_up = 1;
    )sql");
  }

  Store store(path);
  EXPECT_EQ(store.schema_version(), 6);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].labels.at("tag"), "v1");
  ASSERT_EQ(runs[0].iterations.size(), 1u);
  EXPECT_EQ(runs[0].iterations[0].metrics.at(0).value, 127553.25);
  EXPECT_EQ(runs[0].iterations[0].quiet_wait_s, 2.5);
  EXPECT_TRUE(runs[0].iterations[0].quiet_gave_up);
  EXPECT_EQ(store.samples(kRun).size(), 1u);
  EXPECT_TRUE(store.queued_runs().empty());

  // The queue works, and the old instance still belongs to its agent.
  QueuedRun q;
  q.run_id = "4a000000-0000-4000-8000-000000000001";
  q.agent_id = "altra-01";
  q.plan_name = "p.yaml";
  q.submitted_by = "alice";
  store.enqueue_run(q);
  EXPECT_EQ(store.next_queued_run("altra-01")->run_id, q.run_id);
  v1::Envelope hello = schedrig::testing::make_envelope(1, "inst-1", "intruder-01");
  hello.mutable_hello()->set_hostname("evil");
  EXPECT_THROW(store.ingest(hello, encode_envelope(hello)), StoreError);
  EXPECT_EQ(RawDb(path).scalar("SELECT agent_id FROM instances WHERE instance_id = 'inst-1'"),
            "altra-01");
}

// Step 4 (runs across outages): a running row's abort note moves to its own
// column; runs get dropped_samples 0.
TEST(StoreUpgrade, SchemaThreeFileKeepsItsAbortNotesAside) {
  TempDir tmp;
  const std::string path = tmp.file("v3.db");
  {
    sqlite::Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    migrate_to(db, 3);
  }
  make_v1_rows(path);
  {
    RawDb raw(path);
    raw.exec(R"sql(
        INSERT INTO queue (run_id, agent_id, plan, plan_name, labels, state, reason,
                           submitted_by, submitted_at_ns, dispatched_at_ns)
        VALUES ('b0000000-0000-4000-8000-000000000001', 'box1', X'', 'p.yaml', '{}', 'running',
                'aborted by operator ''alice''', 'alice', 1, 2),
               ('b0000000-0000-4000-8000-000000000002', 'box1', X'', 'p.yaml', '{}', 'failed',
                'serve restarted', 'alice', 1, 2);
    )sql");
  }
  Store store(path);
  EXPECT_EQ(store.schema_version(), 6);
  const auto running = store.queued_run("b0000000-0000-4000-8000-000000000001");
  ASSERT_TRUE(running);
  EXPECT_EQ(running->abort_note, "aborted by operator 'alice'");
  EXPECT_EQ(running->instance_id, "");
  EXPECT_EQ(store.queued_run("b0000000-0000-4000-8000-000000000002")->abort_note, "");
  EXPECT_EQ(store.runs().at(0).dropped_samples, 0u);
  // Step 5: iterations stored before it read as undisturbed, run once.
  const IterationRecord it = store.runs().at(0).iterations.at(0);  // a copy: runs() is a temporary
  EXPECT_FALSE(it.disturbed);
  EXPECT_EQ(it.disturbed_reason, "");
  EXPECT_EQ(it.attempts, 1u);
}

TEST(StoreUpgrade, NewFileGetsEveryStep) {
  TempDir tmp;
  Store store(tmp.file("new.db"));
  EXPECT_EQ(store.schema_version(), latest_schema_version());
  EXPECT_EQ(latest_schema_version(), 6);
  RawDb raw(tmp.file("new.db"));
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'samples_run_id'"), "1");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM pragma_table_info('iterations') WHERE name IN "
                       "('sample_summary', 'quiet_wait_s', 'quiet_gave_up')"),
            "3");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('queue', "
                       "'queue_agent_state', 'queue_state')"),
            "3");
}

}  // namespace
}  // namespace schedrig::store
