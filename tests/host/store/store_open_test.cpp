// Opening store files: creation, schema version, persistence, refusals, WAL.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "host/store/migrations.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::RawDb;
using schedrig::testing::sample_run;
using schedrig::testing::TempDir;

void ingest_all(Store& store) {
  for (const auto& env : sample_run()) store.ingest(env, encode_envelope(env));
}

// what() of the StoreError `fn` throws; fails the test if it throws nothing.
template <typename Fn>
std::string store_error(Fn fn) {
  try {
    fn();
  } catch (const StoreError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no StoreError thrown";
  return {};
}

TEST(StoreOpen, NewFileIsSchemaVersionFiveInWalMode) {
  TempDir tmp;
  Store store(tmp.file("new.db"));
  EXPECT_EQ(store.schema_version(), 6);
  EXPECT_EQ(store.path(), tmp.file("new.db"));
  RawDb raw(tmp.file("new.db"));
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), "6");
  EXPECT_EQ(raw.scalar("PRAGMA journal_mode"), "wal");
  EXPECT_TRUE(store.runs().empty());
}

TEST(StoreOpen, ReopenedFileKeepsItsData) {
  TempDir tmp;
  {
    Store store(tmp.file("results.db"));
    ingest_all(store);
  }
  Store again(tmp.file("results.db"));
  EXPECT_EQ(again.schema_version(), 6);
  auto runs = again.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].hostname, "altra-01.lab");
  ASSERT_EQ(runs[0].iterations.size(), 3u);
  EXPECT_DOUBLE_EQ(runs[0].iterations[1].metrics[0].value, schedrig::testing::kOpsPerS[1]);
  // Still deduplicates against what the first opening stored.
  auto envs = sample_run();
  EXPECT_EQ(again.ingest(envs[0], encode_envelope(envs[0])), Store::Ingest::kDuplicate);
}

TEST(StoreOpen, GarbageFileIsRefusedNamingThePath) {
  TempDir tmp;
  std::string path = tmp.file("garbage.db");
  std::ofstream(path) << std::string(4096, 'x') << "this is not a SQLite database\n";
  std::string what = store_error([&] { Store store(path); });
  EXPECT_NE(what.find(path), std::string::npos) << what;
  EXPECT_NE(what.find("not a database"), std::string::npos) << what;
}

TEST(StoreOpen, MissingDirectoryIsRefusedNamingThePath) {
  TempDir tmp;
  std::string path = tmp.file("no/such/dir/results.db");
  std::string what = store_error([&] { Store store(path); });
  EXPECT_NE(what.find(path), std::string::npos) << what;
}

TEST(StoreOpen, NewerSchemaIsRefusedAndLeftUntouched) {
  TempDir tmp;
  std::string path = tmp.file("future.db");
  {
    RawDb raw(path);
    raw.exec("CREATE TABLE from_the_future (x); PRAGMA user_version = 99");
  }
  std::string what = store_error([&] { Store store(path); });
  EXPECT_NE(what.find(path), std::string::npos) << what;
  EXPECT_NE(what.find("99"), std::string::npos) << what;
  EXPECT_NE(what.find("(6)"), std::string::npos) << what;
  RawDb raw(path);
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), "99");
  EXPECT_EQ(raw.scalar("PRAGMA journal_mode"), "delete");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'envelopes'"), "0");
}

TEST(StoreOpen, ReadsWhileAnotherConnectionHoldsTheWriteLock) {
  TempDir tmp;
  std::string path = tmp.file("results.db");
  {
    Store writer(path);
    ingest_all(writer);
  }
  // Another writer (as `schedrig serve` would be) in the middle of a transaction.
  RawDb other(path);
  other.exec("PRAGMA busy_timeout = 0; BEGIN EXCLUSIVE");
  other.exec(
      "INSERT INTO envelopes (agent_id, instance_id, seq, kind, sent_at_ns, received_at_ns, body)"
      " VALUES ('x', 'y', 1, 'log', 0, 0, X'00')");

  auto start = std::chrono::steady_clock::now();
  Store reader(path);  // would wait out the 5 s busy timeout without WAL
  auto runs = reader.runs();
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].iterations.size(), 3u);
  other.exec("COMMIT");
}

TEST(StoreOpen, ReaderProcessRacesWriterProcessFromCreation) {
  TempDir tmp;
  std::string path = tmp.file("results.db");
  constexpr int kRuns = 20;
  pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) {  // the writer: creates the file and ingests run after run
    int rc = 0;
    try {
      Store writer(path);
      for (int r = 0; r < kRuns; ++r) {
        for (const auto& env : sample_run(fmt::format("run-{:02}", r), 1 + 10ULL * r)) {
          writer.ingest(env, encode_envelope(env));
        }
      }
    } catch (const std::exception& e) {
      fprintf(stderr, "writer: %s\n", e.what());
      rc = 1;
    }
    _exit(rc);
  }
  // The reader opens (and may race the writer's migration) and reads until
  // the writer is done; every snapshot must be whole runs or none.
  int reads = 0;
  int status = 0;
  for (;;) {
    bool writer_done = waitpid(child, &status, WNOHANG) == child;
    try {
      Store reader(path);
      for (const auto& run : reader.runs()) {
        EXPECT_TRUE(run.iterations.size() <= 3u) << run.run_id;
      }
      ++reads;
    } catch (const StoreError& e) {
      ADD_FAILURE() << e.what();
    }
    if (writer_done) break;
  }
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_GT(reads, 0);
  Store reader(path);
  auto runs = reader.runs();
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kRuns));
  for (const auto& run : runs) EXPECT_EQ(run.status, "ok") << run.run_id;
}

TEST(StoreOpen, InMemoryStoreWorks) {
  Store store(":memory:");
  EXPECT_EQ(store.schema_version(), latest_schema_version());
  ingest_all(store);
  EXPECT_EQ(store.runs().size(), 1u);
}

TEST(StoreOpen, MovedStoreKeepsWorking) {
  TempDir tmp;
  Store first(tmp.file("results.db"));
  Store second = std::move(first);
  ingest_all(second);
  EXPECT_EQ(second.runs().size(), 1u);
  EXPECT_EQ(second.path(), tmp.file("results.db"));
}

}  // namespace
}  // namespace schedrig::store
