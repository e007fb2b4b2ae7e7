// The `schedrig` commands that take --server, run as a user runs them against
// a fake API (canned JSON in the API's shapes) on loopback: agents and queue
// tables, run --wait from events to the comparison, abort, watch, results
// and compare --server reading back exactly what --db shows, and the errors:
// a bad plan, a refused token, an unreachable server, escaped server text.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "host/report/results_json.h"
#include "host/report/samples_report.h"
#include "tests/host/client/fake_api.h"
#include "tests/host/client/token_file.h"
#include "tests/host/compare/synthetic_run.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::FakeAnswer;
using testing::FakeApi;
using testing::FakeRequest;
using testing::run_command;
using testing::TempDir;

constexpr const char* kRunA = "aaaaaaaa-1111-4111-8111-000000000001";
constexpr const char* kRunB = "bbbbbbbb-2222-4222-8222-000000000002";
constexpr long long kSeenNs = 1767225600LL * 1000000000LL;  // 2026-01-01T00:00:00Z

constexpr const char* kPlanYaml = R"(name: fork-vs-features
iterations: 10
duration_s: 1
cases:
  - name: fork-all
    workload: fork
variants:
  - name: baseline
  - name: slower
  - name: same
)";

// Runs A and B of compare_cli_test's store: three variants, 10 iterations,
// "slower" 5% below the baseline (a regression); run A has two live samples
// at each of positions 0 and 1 (ops so far, a starved interval).
std::string make_store(const TempDir& dir) {
  const std::string db = dir.file("schedrig.db");
  store::Store s(db);
  const auto [a, b] = testing::regression_runs(kRunA, kRunB);
  testing::ingest(s, testing::synthetic_run(a));
  testing::ingest(s, testing::synthetic_run(b));
  unsigned long long seq = 1000;  // after every seq of run A's instance
  for (unsigned position = 0; position < 2; ++position) {
    for (unsigned k = 0; k < 2; ++k) {
      testing::ingest(s, {testing::make_sample(++seq, kRunA, position, k)});
    }
  }
  return db;
}

nlohmann::json agents_json() {
  return {{"agents",
           {{{"agent_id", "box1"},
             {"connected", true},
             {"state", "running"},
             {"run_id", kRunA},
             {"queued", 2},
             {"hostname", "box1.lab"},
             {"kernel_release", "6.19.0-rc3"},
             {"pus", 160},
             {"allowed_pus", 158},
             {"peer", "10.0.0.7:40112"},
             {"instance_id", "i1"},
             {"last_seen_ns", kSeenNs}},
            {{"agent_id", "box2"},
             {"connected", false},
             {"state", "offline"},
             {"run_id", ""},
             {"queued", 0},
             {"hostname", "box2.lab"},
             {"kernel_release", "6.18.2\x1b[2J"},
             {"pus", 8},
             {"allowed_pus", 8},
             {"peer", ""},
             {"instance_id", "i2"},
             {"last_seen_ns", kSeenNs}}}}};
}

nlohmann::json queue_row(const std::string& run, const std::string& agent, const std::string& state,
                         int position) {
  return {{"run_id", run},
          {"agent_id", agent},
          {"plan_name", "plan.yaml"},
          {"state", state},
          {"reason", ""},
          {"labels", {{"tag", "nightly"}}},
          {"submitted_by", "ann"},
          {"submitted_at_ns", kSeenNs},
          {"dispatched_at_ns", 0},
          {"finished_at_ns", 0},
          {"queue_position", position}};
}

// The fake server: the store's runs behind GET runs/ID and their events.
class ServerCli : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(dir_.file("plan.yaml")) << kPlanYaml; }

  // The runs the fake serves, read before its thread starts (members are
  // made in order), so the thread sees them whole (ThreadSanitizer).
  std::map<std::string, store::RunRecord> stored_runs() const {
    std::map<std::string, store::RunRecord> out;
    store::Store s(db_, store::Store::Mode::kReadOnly);
    for (const auto& r : s.runs()) out[r.run_id] = r;
    return out;
  }
  std::vector<store::SampleRecord> stored_samples() const {
    return store::Store(db_, store::Store::Mode::kReadOnly).samples(kRunA);
  }

  // `schedrig ARGS --server URL --token-file F` against `api`.
  testing::CommandResult schedrig(const FakeApi& api, const std::string& args) {
    return run_command(bin("schedrig") + " " + args + " --server " + api.url() + " --token-file " +
                       token_);
  }

  FakeAnswer handle(const FakeRequest& r) {
    const std::string runs = "/api/v1/runs";
    if (r.target == "/api/v1/agents") return json(200, agents_json());
    if (r.method == "POST" && r.target == runs) return submit(r);
    if (r.target == runs) {
      return json(200,
                  {{"runs",
                    {queue_row(kRunA, "box1", "running", -1), queue_row(kRunB, "box1", "queued", 0),
                     queue_row("cccccccc-0000", "box2", "ok", -1)}}});
    }
    for (const auto& [id, run] : runs_) {
      const std::string path = runs + "/" + id;
      // compare asks for the histograms too (the pooled percentiles).
      if (r.target == path || r.target == path + "?histograms=1") {
        return json(200, report::results_json({run}));
      }
      if (r.target == path + "/abort") return json(200, {{"run_id", id}, {"state", "aborting"}});
      if (r.target.rfind(path + "/events?after=", 0) == 0) return events(run, r.target);
    }
    return json(404, {{"error", "no run matches the id"}});
  }

  FakeAnswer submit(const FakeRequest& r) {
    const auto body = nlohmann::json::parse(r.body);
    nlohmann::json queued = nlohmann::json::array();
    if (body.value("all", false)) {
      queued = {
          {{"run_id", kRunA}, {"agent_id", "box1"}, {"queue_position", 0}},
          {{"run_id", kRunB}, {"agent_id", "box2"}, {"queue_position", 2}, {"connected", false}}};
    } else {
      const std::string agent = body.at("agents").at(0);
      queued = {{{"run_id", kRunA},
                 {"agent_id", agent},
                 {"queue_position", 0},
                 {"connected", agent != "box2"}}};
    }
    return json(201, {{"runs", queued}});
  }

  // after=0: run_started and every result, each after its position's samples
  // (in the server's sample body, report::sample_json); later: run_finished.
  FakeAnswer events(const store::RunRecord& run, const std::string& target) {
    nlohmann::json list = nlohmann::json::array();
    long long id = 0;
    if (target.find("after=0&") != std::string::npos) {
      list.push_back({{"id", ++id}, {"kind", "run_started"}, {"body", nlohmann::json::object()}});
      for (const auto& it : run.iterations) {
        for (const auto& sample : samples_) {
          if (sample.run_id != run.run_id || sample.position != it.position) continue;
          list.push_back({{"id", ++id}, {"kind", "sample"}, {"body", report::sample_json(sample)}});
        }
        list.push_back(
            {{"id", ++id}, {"kind", "iteration_result"}, {"body", report::iteration_json(it)}});
      }
    } else {
      id = 1000;
      list.push_back({{"id", id},
                      {"kind", "run_finished"},
                      {"body", {{"status", "ok"}, {"reason", ""}, {"completed_iterations", 30}}}});
    }
    return json(200, {{"run_id", run.run_id},
                      {"state", id == 1000 ? "ok" : "running"},
                      {"events", list},
                      {"next_after", id}});
  }

  static FakeAnswer json(unsigned status, const nlohmann::json& j) { return {status, j.dump()}; }

  TempDir dir_;
  std::string db_ = make_store(dir_);
  std::string token_ = testing::write_token_file(dir_.file("operator.token"));
  std::map<std::string, store::RunRecord> runs_ = stored_runs();
  std::vector<store::SampleRecord> samples_ = stored_samples();
  FakeApi api_{[this](const FakeRequest& r) { return handle(r); }};
};

TEST_F(ServerCli, AgentsShowsLiveStateEscaped) {
  const auto r = schedrig(api_, "agents");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("AGENT  LINK       ACTIVITY"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("box1   connected  running aaaaaaaa, 2 queued  6.19.0-rc3"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("box2   offline    offline"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("6.18.2\\e[2J"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos);
  EXPECT_NE(r.output.find("2026-01-01T00:00:00Z"), std::string::npos);
  const auto j = schedrig(api_, "agents --json");
  ASSERT_EQ(j.exit_code, 0) << j.output;
  EXPECT_EQ(nlohmann::json::parse(j.output), agents_json());
  EXPECT_EQ(api_.requests().at(0).authorization, std::string("Bearer ") + testing::kOperatorToken);
}

TEST_F(ServerCli, QueueShowsWhatWaitsAndRuns) {
  const auto r = schedrig(api_, "queue");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::string(kRunA) + "  box1   running    -  plan.yaml"),
            std::string::npos)
      << r.output;
  EXPECT_NE(
      r.output.find(std::string(kRunB) + "  box1   queued     0  plan.yaml  tag=nightly  ann"),
      std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("cccccccc"), std::string::npos) << r.output;
  const auto all = schedrig(api_, "queue --all --json");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_EQ(nlohmann::json::parse(all.output)["runs"].size(), 3u);
}

TEST_F(ServerCli, RunWaitFollowsTheRunToItsComparison) {
  const auto r =
      schedrig(api_, "run --agent box1 --plan " + dir_.file("plan.yaml") + " --label k=v --wait");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::string("run ") + kRunA + " on box1: next in its queue"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("[ 1/30] fork-all / baseline / iteration 1: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("[30/30] fork-all / same / iteration 10: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(std::string("run ") + kRunA + " ok\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("each variant against 'baseline'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-5.07% (R)"), std::string::npos) << r.output;
  const FakeRequest post = api_.requests().at(0);
  EXPECT_EQ(post.method, "POST");
  const auto body = nlohmann::json::parse(post.body);
  EXPECT_EQ(body["agents"], nlohmann::json({"box1"}));
  EXPECT_EQ(body["plan_name"], "plan.yaml");
  EXPECT_EQ(body["plan_yaml"], kPlanYaml);
  EXPECT_EQ(body["labels"], nlohmann::json({{"k", "v"}}));

  const auto fail = schedrig(
      api_, "run --agent box1 --plan " + dir_.file("plan.yaml") + " --wait --fail-on regression");
  EXPECT_EQ(fail.exit_code, 1) << fail.output;
}

TEST_F(ServerCli, RunAllPrefixesEachLineWithItsAgent) {
  const auto r = schedrig(api_, "run --all --plan " + dir_.file("plan.yaml") + " --wait");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::string("run ") + kRunB +
                          " on box2: box2 is not connected, 2 runs ahead; the run waits in its "
                          "queue until it is\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("box1: [ 1/30] fork-all / baseline / iteration 1: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("box2: [30/30] fork-all / same / iteration 10: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(std::string("box2: run ") + kRunB + " ok"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(api_.requests().at(0).body)["all"], true);
}

TEST_F(ServerCli, RunWithoutWaitPrintsTheQueuedRuns) {
  const auto r = schedrig(api_, "run --agent box1 --plan " + dir_.file("plan.yaml") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(nlohmann::json::parse(r.output)["runs"][0]["run_id"], kRunA);
  EXPECT_EQ(api_.requests().size(), 1u);
}

TEST_F(ServerCli, RunForAnOfflineAgentSaysItIsNotConnected) {
  const auto r = schedrig(api_, "run --agent box2 --plan " + dir_.file("plan.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, std::string("run ") + kRunA +
                          " on box2: box2 is not connected; the run waits in its queue until it "
                          "is\n");
}

TEST_F(ServerCli, BadPlanFailsHereBeforeAnyRequest) {
  std::ofstream(dir_.file("bad.yaml")) << "name: x\niterations: 10\nduration_s: -1\n";
  const auto r = schedrig(api_, "run --agent box1 --plan " + dir_.file("bad.yaml"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir_.file("bad.yaml") + ":3: key 'duration_s'"), std::string::npos)
      << r.output;
  EXPECT_TRUE(api_.requests().empty());
  EXPECT_EQ(schedrig(api_, "run --plan " + dir_.file("plan.yaml")).exit_code, 2);
}

TEST_F(ServerCli, AbortSaysWhatHappens) {
  const auto r = schedrig(api_, std::string("abort ") + kRunA);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            std::string("run ") + kRunA + " aborting: its agent stops it and restores the knobs\n");
  EXPECT_EQ(api_.requests().at(0).method, "POST");
  EXPECT_EQ(api_.requests().at(0).target, std::string("/api/v1/runs/") + kRunA + "/abort");
}

TEST_F(ServerCli, WatchPrintsTheLocalWatchLines) {
  const auto r = schedrig(api_, std::string("watch ") + kRunA);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind(std::string("run ") + kRunA + " (ok, 30 iterations planned)\n", 0), 0u)
      << r.output;
  // The local watch's lines: TIME (the synthetic results have none), [POS], result.
  EXPECT_NE(
      r.output.find(
          "\n-                         [1/30] fork-all / baseline / iteration 1: 9,955 ops/s\n"),
      std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(std::string("run ") + kRunA + " ok: 30 iteration results\n"),
            std::string::npos)
      << r.output;
}

// The samples' columns (OPS so far, IDLE%, ..., STARVED) come from the event
// bodies: the remote watch prints exactly the local one, text and NDJSON.
TEST_F(ServerCli, WatchShowsTheSampleColumnsTheLocalWatchShows) {
  for (const std::string& args :
       {std::string("watch ") + kRunA, std::string("watch ") + kRunA + " --json"}) {
    const auto remote = schedrig(api_, args);
    const auto local = run_command(bin("schedrig") + " " + args + " --db " + db_);
    ASSERT_EQ(local.exit_code, 0) << local.output;
    EXPECT_EQ(remote.exit_code, 0) << remote.output;
    EXPECT_EQ(remote.output, local.output) << args;
  }
  const auto r = schedrig(api_, std::string("watch ") + kRunA);
  EXPECT_NE(r.output.find(" OPS "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1,001"), std::string::npos) << r.output;  // ops_so_far at position 1
  EXPECT_NE(r.output.find("STARVED"), std::string::npos) << r.output;
}

TEST_F(ServerCli, ResultsAndCompareReadBackWhatTheStoreShows) {
  for (const std::string& args :
       {std::string("results ") + kRunA + " --json", std::string("results ") + kRunA,
        std::string("compare ") + kRunA, std::string("compare ") + kRunA + " --json"}) {
    const auto remote = schedrig(api_, args);
    const auto local = run_command(bin("schedrig") + " " + args + " --db " + db_);
    ASSERT_EQ(local.exit_code, 0) << local.output;
    EXPECT_EQ(remote.exit_code, 0) << remote.output;
    EXPECT_EQ(remote.output, local.output) << args;
  }
}

TEST_F(ServerCli, ServerAndDbTogetherIsUsage) {
  const auto r = schedrig(api_, std::string("results ") + kRunA + " --db " + db_);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("give --server or --db, not both"), std::string::npos) << r.output;
  EXPECT_TRUE(api_.requests().empty());
}

// A run held up by the knob lock another schedrig on its box holds: queue
// says "waiting" and why, agents says why after the run, watch prints the
// agent's line (on stderr) between the run's events.
TEST(ServerCliWaiting, QueueAgentsAndWatchShowAKnobLockWait) {
  TempDir dir;
  const std::string token = testing::write_token_file(dir.file("t"));
  const std::string why =
      "waiting for the knob lock held by pid 4242 (another schedrig process changing knobs on "
      "this box; lock /run/lock/schedrig-knobs.lock, up to 30 s)";
  const std::string run = std::string(kRunA);
  FakeApi api([&](const FakeRequest& r) {
    if (r.target == "/api/v1/runs") {
      nlohmann::json row = queue_row(run, "box1", "running", -1);
      row["waiting"] = why;
      return FakeAnswer{200, nlohmann::json{{"runs", {row}}}.dump()};
    }
    if (r.target == "/api/v1/agents") {
      nlohmann::json agents = agents_json();
      agents["agents"][0]["waiting"] = why;
      return FakeAnswer{200, agents.dump()};
    }
    if (r.target == "/api/v1/runs/" + run) {
      store::RunRecord rec;
      rec.run_id = run;
      rec.agent_id = "box1";
      rec.status = "running";
      return FakeAnswer{200, report::results_json({rec}).dump()};
    }
    nlohmann::json log = {{"id", 7},
                          {"kind", "log"},
                          {"body", {{"level", "warn"}, {"message", why}, {"waiting", true}}}};
    nlohmann::json end = {
        {"id", 8},
        {"kind", "run_finished"},
        {"body", {{"status", "ok"}, {"reason", ""}, {"completed_iterations", 0}}}};
    return FakeAnswer{
        200,
        nlohmann::json{{"run_id", run}, {"state", "ok"}, {"events", {log, end}}, {"next_after", 8}}
            .dump()};
  });
  const auto on = [&](const std::string& args) {
    return run_command(bin("schedrig") + " " + args + " --server " + api.url() + " --token-file " +
                       token);
  };
  const auto queue = on("queue");
  ASSERT_EQ(queue.exit_code, 0) << queue.output;
  EXPECT_NE(queue.output.find(run + "  box1   waiting    -  plan.yaml"), std::string::npos)
      << queue.output;
  EXPECT_NE(queue.output.find("ann  2026-01-01T00:00:00Z  " + why), std::string::npos)
      << queue.output;
  const auto agents = on("agents");
  ASSERT_EQ(agents.exit_code, 0) << agents.output;
  EXPECT_NE(agents.output.find("running aaaaaaaa, " + why + ", 2 queued"), std::string::npos)
      << agents.output;
  const auto watch = on("watch " + run);
  ASSERT_EQ(watch.exit_code, 0) << watch.output;
  EXPECT_NE(watch.output.find("run " + run + ": agent: " + why + "\n"), std::string::npos)
      << watch.output;
}

// Run A as the server holds it once the host failed it (its agent killed
// after 4 results): no run_finished event, the reason only in GET runs/ID.
class FailedRunCli : public ::testing::Test {
 protected:
  static constexpr const char* kReason = "agent box1 disconnected: closed\x1b[2J";

  void SetUp() override { std::ofstream(dir_.file("plan.yaml")) << kPlanYaml; }

  store::RunRecord failed_run() const {
    store::RunRecord run = store::Store(db_, store::Store::Mode::kReadOnly).runs(kRunA).front();
    run.iterations.resize(4);
    run.status = "failed";
    run.reason = kReason;
    return run;
  }

  FakeAnswer handle(const FakeRequest& r) const {
    if (r.method == "POST") {
      return {201, R"({"runs":[{"run_id":")" + std::string(kRunA) +
                       R"(","agent_id":"box1","queue_position":0}]})"};
    }
    const std::string path = std::string("/api/v1/runs/") + kRunA;
    if (r.target == path || r.target == path + "?histograms=1") {  // compare asks for histograms
      return {200, report::results_json({run_}).dump()};
    }
    if (r.target == "/api/v1/runs") {
      return {200, nlohmann::json{{"runs",
                                   {queue_row(kRunB, "box1", "ok", -1),
                                    queue_row(kRunA, "box1", "failed", -1)}}}
                       .dump()};
    }
    nlohmann::json list = nlohmann::json::array();
    if (r.target.find("after=0&") != std::string::npos) {
      for (const auto& it : run_.iterations) {
        list.push_back({{"id", list.size() + 1},
                        {"kind", "iteration_result"},
                        {"body", report::iteration_json(it)}});
      }
    }
    return {
        200,
        nlohmann::json{{"run_id", kRunA}, {"state", "failed"}, {"events", list}, {"next_after", 4}}
            .dump()};
  }

  testing::CommandResult schedrig(const std::string& args) {
    return run_command(bin("schedrig") + " " + args + " --server " + api_.url() + " --token-file " +
                       token_);
  }

  TempDir dir_;
  std::string db_ = make_store(dir_);
  std::string token_ = testing::write_token_file(dir_.file("operator.token"));
  store::RunRecord run_ = failed_run();
  FakeApi api_{[this](const FakeRequest& r) { return handle(r); }};
};

TEST_F(FailedRunCli, RunWaitAndWatchSayWhyTheRunFailed) {
  const auto wait = schedrig("run --agent box1 --plan " + dir_.file("plan.yaml") + " --wait");
  EXPECT_EQ(wait.exit_code, 1) << wait.output;
  EXPECT_NE(wait.output.find(std::string("[ 4/30] fork-all / ")), std::string::npos) << wait.output;
  EXPECT_NE(wait.output.find(std::string("run ") + kRunA +
                             " failed: agent box1 disconnected: closed\\e[2J\n"),
            std::string::npos)
      << wait.output;
  const auto watch = schedrig(std::string("watch ") + kRunA);
  EXPECT_EQ(watch.exit_code, 0) << watch.output;
  EXPECT_NE(watch.output.find(std::string("run ") + kRunA +
                              " failed: agent box1 disconnected: closed\\e[2J (4 iteration "
                              "results)\n"),
            std::string::npos)
      << watch.output;
  EXPECT_EQ(watch.output.find('\x1b'), std::string::npos);
  const auto json = schedrig(std::string("watch ") + kRunA + " --json");
  EXPECT_NE(json.output.find(R"("reason":"agent box1 disconnected: closed\u001b[2J")"),
            std::string::npos)
      << json.output;
}

// Run A across an outage (issue #13): disconnected after 4 results, running
// again, then interrupted (its agent came back as another instance). Each
// events poll answers the next state.
class OutageRunCli : public FailedRunCli {
 protected:
  static constexpr const char* kWhy = "agent box1 restarted (instance b replaced a)";

  FakeAnswer outage(const FakeRequest& r) {
    if (r.method == "POST" || r.target == std::string("/api/v1/runs/") + kRunA ||
        r.target == "/api/v1/runs") {
      return handle(r);
    }
    if (r.target == "/api/v1/runs?state=disconnected") {
      nlohmann::json row = queue_row(kRunA, "box1", "disconnected", -1);
      row["reason"] = "agent box1 disconnected: connection reset by peer";
      return {200, nlohmann::json{{"runs", nlohmann::json::array({row})}}.dump()};
    }
    static constexpr const char* kStates[] = {"running", "disconnected", "disconnected", "running",
                                              "interrupted"};
    const int n = std::min(polls_++, 4);
    if (n == 4) interrupted_ = true;
    return {200, nlohmann::json{{"run_id", kRunA},
                                {"state", kStates[n]},
                                {"events", nlohmann::json::array()},
                                {"next_after", 0}}
                     .dump()};
  }

  void SetUp() override {
    FailedRunCli::SetUp();
    run_.status = "interrupted";
    run_.reason = kWhy;
    // Started after run_ is set: its thread reads run_ (thread start orders it).
    outage_api_.emplace([this](const FakeRequest& r) { return outage(r); });
  }

  std::atomic<int> polls_{0};
  std::atomic<bool> interrupted_{false};
  std::optional<FakeApi> outage_api_;
};

TEST_F(OutageRunCli, RunWaitWaitsThroughADisconnectAndStopsAtInterrupted) {
  const auto wait =
      run_command(bin("schedrig") + " run --agent box1 --plan " + dir_.file("plan.yaml") +
                  " --wait --server " + outage_api_->url() + " --token-file " + token_);
  EXPECT_EQ(wait.exit_code, 1) << wait.output;
  EXPECT_TRUE(interrupted_.load());
  const std::string a = kRunA;
  const auto said = [&](const std::string& line) {
    return wait.output.find(line) != std::string::npos;
  };
  EXPECT_TRUE(said("run " + a +
                   " disconnected: agent box1 disconnected: connection reset by peer; waiting "
                   "for its agent\n"))
      << wait.output;
  EXPECT_TRUE(said("run " + a + " running again: its agent is back\n")) << wait.output;
  EXPECT_TRUE(said("run " + a + " interrupted: " + kWhy + "\n")) << wait.output;
  // Said once each, not per poll.
  EXPECT_EQ(wait.output.find("waiting for its agent"), wait.output.rfind("waiting for its agent"));
}

// RunFinished.dropped_samples: the end lines of `run --wait` and `watch`
// (text and JSON) and the results JSON say it when > 0.
TEST_F(FailedRunCli, DroppedSamplesAreNamedInTheEndLines) {
  const std::string a = kRunA;
  FakeApi api([&](const FakeRequest& r) {
    if (r.method == "POST" || r.target == "/api/v1/runs/" + a) {
      store::RunRecord done = run_;
      done.status = "ok";
      done.reason = "";
      done.dropped_samples = 12;
      if (r.method == "POST") return handle(r);
      return FakeAnswer{200, report::results_json({done}).dump()};
    }
    nlohmann::json end = {{"id", 9},
                          {"kind", "run_finished"},
                          {"body",
                           {{"status", "ok"},
                            {"reason", ""},
                            {"completed_iterations", 30},
                            {"dropped_samples", 12}}}};
    return FakeAnswer{
        200, nlohmann::json{{"run_id", a}, {"state", "ok"}, {"events", {end}}, {"next_after", 9}}
                 .dump()};
  });
  const auto on = [&](const std::string& args) {
    return run_command(bin("schedrig") + " " + args + " --server " + api.url() + " --token-file " +
                       token_);
  };
  const auto wait = on("run --agent box1 --plan " + dir_.file("plan.yaml") + " --wait");
  EXPECT_NE(wait.output.find("run " + a + " ok; 12 samples dropped\n"), std::string::npos)
      << wait.output;
  const auto watch = on("watch " + a);
  EXPECT_NE(watch.output.find("run " + a + " ok: 0 iteration results; 12 samples dropped\n"),
            std::string::npos)
      << watch.output;
  const auto json = on("watch " + a + " --json");
  EXPECT_NE(json.output.find(R"("dropped_samples":12)"), std::string::npos) << json.output;
  const auto results = on("results " + a + " --json");
  EXPECT_NE(results.output.find(R"("dropped_samples": 12)"), std::string::npos) << results.output;
}

TEST_F(FailedRunCli, WatchWithoutRunFollowsTheRunLastSubmitted) {
  const auto watch = schedrig("watch");
  EXPECT_EQ(watch.exit_code, 0) << watch.output;
  EXPECT_EQ(
      watch.output.rfind(std::string("run ") + kRunA + " (failed, 30 iterations planned)\n", 0), 0u)
      << watch.output;
}

// A CI gate must not pass on a run that did not finish: compare says the
// run's status, and --fail-on regression exits 1 for it.
TEST_F(FailedRunCli, CompareShowsTheStatusAndFailOnRegressionFailsTheGate) {
  const std::string note = std::string("run ") + kRunA +
                           " failed: agent box1 disconnected: closed\\e[2J (4 of 30 iterations ok)";
  const auto r = schedrig(std::string("compare ") + kRunA);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  const auto gate = schedrig(std::string("compare ") + kRunA + " --fail-on regression");
  EXPECT_EQ(gate.exit_code, 1) << gate.output;
  EXPECT_NE(gate.output.find("--fail-on regression: a compared run did not finish ok"),
            std::string::npos)
      << gate.output;
  const auto wait = schedrig("run --agent box1 --plan " + dir_.file("plan.yaml") +
                             " --wait --fail-on regression");
  EXPECT_EQ(wait.exit_code, 1) << wait.output;
  EXPECT_NE(wait.output.find(note), std::string::npos) << wait.output;
}

TEST(ServerCliErrors, RefusedTokenIsExit2) {
  TempDir dir;
  const std::string token = testing::write_token_file(dir.file("t"));
  FakeApi api([](const FakeRequest&) { return FakeAnswer{401, R"({"error":"unknown token"})"}; });
  const auto r =
      run_command(bin("schedrig") + " agents --server " + api.url() + " --token-file " + token);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("schedrig: error: server " + api.url() +
                          " refused the token (401 Unauthorized)"),
            std::string::npos)
      << r.output;
}

TEST(ServerCliErrors, UnreachableServerIsExit3NamingTheUrl) {
  TempDir dir;
  const std::string token = testing::write_token_file(dir.file("t"));
  std::string url;
  {
    FakeApi gone([](const FakeRequest&) { return FakeAnswer{}; });
    url = gone.url();
  }
  const auto r = run_command(bin("schedrig") + " queue --server " + url + " --token-file " + token);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot reach server " + url), std::string::npos) << r.output;
}

TEST(ServerCliErrors, ServerErrorTextIsEscaped) {
  TempDir dir;
  const std::string token = testing::write_token_file(dir.file("t"));
  std::ofstream(dir.file("plan.yaml")) << kPlanYaml;
  FakeApi api([](const FakeRequest&) {
    return FakeAnswer{404,
                      nlohmann::json{{"error", "unknown agent 'box9\x1b]0;pwned\x07'"}}.dump()};
  });
  const auto r = run_command(bin("schedrig") + " run --agent box9 --plan " + dir.file("plan.yaml") +
                             " --server " + api.url() + " --token-file " + token);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown agent 'box9\\e]0;pwned\\x07'"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos);
}

// Starts `args` (argv[0] the program) with stdout and stderr to `out`; its pid.
pid_t spawn(const std::vector<std::string>& args, const std::string& out) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

TEST(ServerCliErrors, CtrlCStopsWaitingAndLeavesTheRuns) {
  using namespace std::chrono_literals;
  TempDir dir;
  const std::string token = testing::write_token_file(dir.file("t"));
  std::ofstream(dir.file("plan.yaml")) << kPlanYaml;
  std::atomic<bool> polled{false};
  FakeApi api([&](const FakeRequest& r) {
    if (r.method == "POST") {
      return FakeAnswer{201, R"({"runs":[{"run_id":"r1","agent_id":"box1","queue_position":0}]})"};
    }
    polled = true;
    std::this_thread::sleep_for(1500ms);  // a long poll with nothing new
    return FakeAnswer{200, R"({"run_id":"r1","state":"running","events":[],"next_after":0})"};
  });
  const pid_t pid =
      spawn({bin("schedrig"), "run", "--agent", "box1", "--plan", dir.file("plan.yaml"), "--wait",
             "--server", api.url(), "--token-file", token},
            dir.file("out"));
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 500 && !polled; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(polled);
  std::this_thread::sleep_for(100ms);
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1000ms);  // not after the long poll
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::stringstream out;
  out << std::ifstream(dir.file("out")).rdbuf();
  EXPECT_NE(out.str().find("stopped waiting; the runs go on on the server"), std::string::npos)
      << out.str();
  for (const auto& r : api.requests()) EXPECT_EQ(r.target.find("/abort"), std::string::npos);
}

}  // namespace
}  // namespace schedrig
