// `schedrig results RUN --samples` and `schedrig watch` as a user runs them:
// the built binary against a real store file; watch follows a run while
// this test writes it, as `serve` or `lab` would.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "host/store/store.h"
#include "tests/host/report/text_lines.h"
#include "tests/host/store/sample_run.h"
#include "tests/support/run_command.h"

extern char** environ;

namespace schedrig {
namespace {

using namespace std::chrono_literals;
using testing::bin;
using testing::kRun;
using testing::lines;
using testing::run_command;
using testing::sampled_run;
using testing::TempDir;

void ingest(store::Store& s, const v1::Envelope& env) { s.ingest(env, encode_envelope(env)); }

std::string make_store(const TempDir& dir) {
  const std::string db = dir.file("schedrig.db");
  store::Store s(db);
  for (const auto& env : sampled_run()) ingest(s, env);
  return db;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// `schedrig ARGS` exits 2 with `message` in its output.
void expect_usage_error(const std::string& args, const std::string& message) {
  const auto r = run_command(bin("schedrig") + " " + args);
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
  EXPECT_TRUE(contains(r.output, message)) << args << "\n" << r.output;
}

// `schedrig watch ARGS` in the background, stdout and stderr to files.
class Watch {
 public:
  Watch(const TempDir& dir, std::vector<std::string> args)
      : out_(dir.file("watch.out")), err_(dir.file("watch.err")) {
    args.insert(args.begin(), {bin("schedrig"), "watch"});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int rc = posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("posix_spawn failed");
  }
  ~Watch() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  std::string out() const { return read_file(out_); }
  std::string err() const { return read_file(err_); }

  // Waits up to 10 s for `text` in stdout.
  bool shows(const std::string& text) const {
    for (auto until = std::chrono::steady_clock::now() + 10s;
         std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(10ms)) {
      if (contains(out(), text)) return true;
    }
    return false;
  }

  // The exit code once it exits within 10 s; -1 if it is still running.
  int exit_code() {
    for (auto until = std::chrono::steady_clock::now() + 10s;
         std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(10ms)) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return -1;
  }

  void signal(int sig) const { kill(pid_, sig); }
  bool running() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }

 private:
  std::string out_, err_;
  pid_t pid_ = -1;
};

TEST(SamplesCli, ResultsSamplesAsTableJsonAndCsv) {
  TempDir dir;
  const std::string db = make_store(dir);
  const auto text = run_command(bin("schedrig") + " results 3f2a --samples --db " + db);
  ASSERT_EQ(text.exit_code, 0) << text.output;
  const auto rows = lines(text.output);
  ASSERT_EQ(rows.size(), 7u) << text.output;
  EXPECT_TRUE(contains(rows[0], "IDLE%")) << rows[0];
  EXPECT_TRUE(contains(rows[2], "STARVED")) << rows[2];
  EXPECT_TRUE(contains(rows[1], "1,234,567")) << rows[1];

  const auto json = run_command(bin("schedrig") + " results 3f2a --samples --json --db " + db);
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto j = nlohmann::json::parse(json.output);
  ASSERT_EQ(j.at("samples").size(), 6u);
  EXPECT_EQ(j["samples"][0]["values"]["ctxt_per_s"].get<double>(), 1234567.0);
  EXPECT_EQ(j["samples"][1]["starved"], true);

  const auto csv = run_command(bin("schedrig") + " results 3f2a --samples --csv --db " + db);
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_EQ(lines(csv.output).size(), 7u);
  EXPECT_EQ(lines(csv.output)[0].substr(0, 22), "run_id,case,variant,it");
}

TEST(SamplesCli, ResultsSamplesNeedsOneRun) {
  TempDir dir;
  const std::string db = make_store(dir);
  expect_usage_error("results --samples --db " + db, "name the run");
  expect_usage_error("results ffff --samples --db " + db, "no run matches 'ffff'");
}

TEST(SamplesCli, RunDetailShowsTheSampleSummary) {
  TempDir dir;
  const std::string db = make_store(dir);
  const auto r = run_command(bin("schedrig") + " results 3f2a --db " + db);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "sampled, per variant")) << r.output;
  EXPECT_TRUE(contains(r.output, "quiet box: checked before 3 of 3 iterations")) << r.output;

  const auto j =
      nlohmann::json::parse(run_command(bin("schedrig") + " results --json --db " + db).output);
  EXPECT_EQ(j["runs"][0]["iterations"][0]["samples"]["count"], 2);
}

TEST(SamplesCli, WatchFollowsARunWhileItIsWrittenAndExitsWhenItFinishes) {
  TempDir dir;
  const std::string db = dir.file("schedrig.db");
  store::Store s(db);
  const auto envs = sampled_run();
  for (std::size_t i = 0; i < 3; ++i) ingest(s, envs[i]);  // Hello, Topology, RunStarted

  Watch watch(dir, {"3f2a", "--db", db, "--poll-ms", "20"});
  ASSERT_TRUE(watch.shows("NEWIDLE/S")) << watch.out() << watch.err();
  EXPECT_TRUE(contains(watch.out(), std::string("run ") + kRun + " (running, 3 iterations"));

  // Each sample and result shows up before the next one is written.
  const std::vector<std::string> expect = {
      "2026-01-01T00:00:11.250Z      1/3  fork-all",
      "2026-01-01T00:00:12.250Z      1/3  fork-all",
      "[1/3] fork-all / baseline / iteration 1: 127,553 ops/s; 1 starved interval",
      "2026-01-01T00:00:21.250Z      2/3",
      "2026-01-01T00:00:22.250Z      2/3",
      "[2/3] fork-all / baseline / iteration 2: 124,468 ops/s",
      "2026-01-01T00:00:31.250Z      3/3",
      "2026-01-01T00:00:32.250Z      3/3",
      "[3/3] fork-all / baseline / iteration 3: FAILED: watchdog"};
  for (std::size_t i = 0; i < expect.size(); ++i) {
    ingest(s, envs[3 + i]);
    ASSERT_TRUE(watch.shows(expect[i])) << expect[i] << "\n" << watch.out() << watch.err();
  }
  EXPECT_TRUE(watch.running());

  ingest(s, envs.back());  // RunFinished
  EXPECT_EQ(watch.exit_code(), 0) << watch.out() << watch.err();
  const auto rows = lines(watch.out());
  ASSERT_EQ(rows.size(), 2u + 9u + 1u) << watch.out();
  EXPECT_EQ(rows.back(), std::string("run ") + kRun + " ok: 3 iteration results");
  EXPECT_TRUE(contains(rows[3], "STARVED")) << rows[3];
  EXPECT_EQ(watch.err(), "");
}

TEST(SamplesCli, WatchStopsQuietlyOnSigint) {
  TempDir dir;
  const std::string db = dir.file("schedrig.db");
  store::Store s(db);
  const auto envs = sampled_run();
  for (std::size_t i = 0; i < 4; ++i) ingest(s, envs[i]);
  Watch watch(dir, {"--db", db, "--poll-ms", "20"});  // the newest run
  ASSERT_TRUE(watch.shows("2026-01-01T00:00:11.250Z")) << watch.out() << watch.err();
  watch.signal(SIGINT);
  EXPECT_EQ(watch.exit_code(), 130);
  EXPECT_EQ(watch.err(), "");
}

TEST(SamplesCli, WatchJsonIsOneObjectPerLine) {
  TempDir dir;
  const std::string db = make_store(dir);
  const auto r = run_command(bin("schedrig") + " watch --json --db " + db + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::map<std::string, int> events;
  for (const auto& line : lines(r.output)) {
    const auto j = nlohmann::json::parse(line);
    events[j.at("event").get<std::string>()]++;
    if (j["event"] == "sample") {
      EXPECT_EQ(j["case"], "fork-all");
      EXPECT_TRUE(j["values"].contains("idle_pct"));
    }
    if (j["event"] == "iteration") {
      EXPECT_TRUE(j.contains("samples"));
    }
  }
  EXPECT_EQ(events,
            (std::map<std::string, int>{{"sample", 6}, {"iteration", 3}, {"run_finished", 1}}));
}

// A store that does not exist yet is waited for (StoreError::Reason::kMissing),
// then followed once it appears; a file that is no store is refused at once.
TEST(SamplesCli, WatchWaitsForAMissingStoreThenFollowsIt) {
  TempDir dir;
  Watch watch(dir, {"--db", dir.file("schedrig.db"), "--poll-ms", "20", "--wait-s", "20"});
  for (auto until = std::chrono::steady_clock::now() + 10s;
       std::chrono::steady_clock::now() < until && !contains(watch.err(), "waiting for the run");
       std::this_thread::sleep_for(10ms)) {
  }
  ASSERT_TRUE(contains(watch.err(), "waiting for the run")) << watch.err();
  make_store(dir);
  EXPECT_EQ(watch.exit_code(), 0) << watch.out() << watch.err();
  EXPECT_TRUE(contains(watch.out(), std::string("run ") + kRun)) << watch.out();
  std::ofstream(dir.file("garbage.db")) << std::string(4096, 'x');
  const auto t0 = std::chrono::steady_clock::now();
  expect_usage_error("watch --wait-s 20 --db " + dir.file("garbage.db"), "not a database");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
}

TEST(SamplesCli, WatchRefusesABadRunOrStore) {
  TempDir dir;
  const std::string db = make_store(dir);
  expect_usage_error("watch ffff --wait-s 0 --db " + db, "no run matches 'ffff'");
  expect_usage_error("watch --wait-s 0 --db " + dir.file("none.db"), "no such file");
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.db")));
  // By default it waits for the store and run to appear (lab may be creating
  // them), saying so once, then gives up with the reason.
  const auto t0 = std::chrono::steady_clock::now();
  const auto waited =
      run_command(bin("schedrig") + " watch --wait-s 0.5 --poll-ms 50 --db " + dir.file("x.db"));
  EXPECT_EQ(waited.exit_code, 2) << waited.output;
  EXPECT_TRUE(contains(waited.output, "waiting for the run (store ")) << waited.output;
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(500));
  const auto help = run_command(bin("schedrig") + " watch --help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* want : {"--db", "--poll-ms", "--wait-s", "--json", "while `schedrig serve`"}) {
    EXPECT_TRUE(contains(help.output, want)) << want << "\n" << help.output;
  }
}

// Holds `db` locked from this process: an exclusive-locking-mode connection
// inside an uncommitted write transaction, so every other connection gets
// SQLITE_BUSY once its busy timeout (5 s) runs out.
class StoreLock {
 public:
  explicit StoreLock(const std::string& db) {
    if (sqlite3_open(db.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open");
    const char* sql =
        "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; "
        "CREATE TABLE lock_holder (x); INSERT INTO lock_holder VALUES (1);";
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sqlite3_errmsg(db_));
    }
  }
  ~StoreLock() { sqlite3_close(db_); }
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;

 private:
  sqlite3* db_ = nullptr;
};

// An offline envelope file (`schedrig-agent run --out F`) of the sampled run.
std::string make_offline_file(const TempDir& dir) {
  const std::string path = dir.file("run.bin");
  std::ofstream out(path, std::ios::binary);
  write_offline_header(out);
  for (const auto& env : sampled_run()) write_offline_record(out, encode_envelope(env));
  return path;
}

// A busy (locked) store is a failure (exit 1) naming the store, not bad
// usage (exit 2), and import does not call it a bad record. The commands
// run at once, so the test waits one busy timeout, not three.
TEST(SamplesCli, ABusyStoreExitsOneNamingTheStore) {
  TempDir dir;
  const std::string db = make_store(dir);
  const std::string offline = make_offline_file(dir);
  const StoreLock lock(db);
  auto in_background = [](const std::string& args) {
    return std::async(std::launch::async, [args] { return run_command(bin("schedrig") + args); });
  };
  auto results = in_background(" results 3f2a --db " + db);
  auto watch = in_background(" watch 3f2a --wait-s 0 --db " + db);
  auto import = in_background(" import " + offline + " --db " + db);
  for (auto* f : {&results, &watch, &import}) {
    ASSERT_EQ(f->wait_for(60s), std::future_status::ready);
    const auto r = f->get();
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(contains(r.output, db)) << r.output;
    EXPECT_TRUE(contains(r.output, "locked") || contains(r.output, "busy")) << r.output;
    EXPECT_FALSE(contains(r.output, ": record ")) << r.output;
  }
}

}  // namespace
}  // namespace schedrig
