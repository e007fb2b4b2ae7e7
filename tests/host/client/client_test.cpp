// host/client against a fake API on loopback: the URL and the target, the
// bearer token on the wire, each HTTP status mapped to its error kind with
// the server's text escaped, an unreachable or silent server, the body
// limit, the results JSON read back, the run events followed to the end.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "common/error.h"
#include "host/client/api_client.h"
#include "host/client/api_error.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"
#include "host/client/run_events.h"
#include "host/client/run_record_json.h"
#include "host/client/server_target.h"
#include "host/client/server_url.h"
#include "host/report/results_json.h"
#include "tests/host/client/fake_api.h"
#include "tests/host/client/token_file.h"
#include "tests/host/report/stored_runs.h"
#include "tests/support/run_command.h"

namespace schedrig::client {
namespace {

using namespace std::chrono_literals;
using testing::FakeAnswer;
using testing::FakeApi;
using testing::FakeRequest;
using testing::kOperatorToken;

ServerTarget target_for(const FakeApi& api) { return {api.url(), kOperatorToken, ""}; }

// The Error `f` throws; fails the test when it throws none.
template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no schedrig::Error thrown";
  return Error(ErrorKind::kFailed, "");
}

FakeAnswer answer(unsigned status, const nlohmann::json& j) { return {status, j.dump()}; }

TEST(ServerUrl, SchemesPortsAndHosts) {
  const ServerUrl plain = parse_server_url("http://lab-host:7878");
  EXPECT_FALSE(plain.tls);
  EXPECT_EQ(plain.host, "lab-host");
  EXPECT_EQ(plain.port, "7878");
  EXPECT_EQ(plain.origin(), "http://lab-host:7878");
  const ServerUrl tls = parse_server_url("https://lab.example.org/");
  EXPECT_TRUE(tls.tls);
  EXPECT_EQ(tls.port, "443");
  EXPECT_EQ(parse_server_url("ws://h:1/agent").origin(), "http://h:1");
  EXPECT_TRUE(parse_server_url("wss://h:8443").tls);
  const ServerUrl v6 = parse_server_url("http://[::1]:7878");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.authority(), "[::1]:7878");
}

TEST(ServerUrl, BadUrlsAreUsageErrorsNamingTheUrl) {
  for (const char* url : {"lab-host:7878", "ftp://h:1", "http://:7878", "http://h:0",
                          "http://h:65536", "http://h:12x", "http://[::1:7878"}) {
    const Error e = error_of([&] { parse_server_url(url); });
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << url;
    EXPECT_NE(std::string(e.what()).find(url), std::string::npos) << e.what();
  }
}

TEST(ServerTarget, FlagsThenEnvironment) {
  testing::TempDir dir;
  const std::string token = testing::write_token_file(dir.file("op.token"));
  const ServerTarget t = server_target("http://h:1", token, "ca.pem");
  EXPECT_EQ(t.url, "http://h:1");
  EXPECT_EQ(t.token, kOperatorToken);
  EXPECT_EQ(t.ca_file, "ca.pem");
  ::setenv("SCHEDRIG_SERVER", "https://env-host:8443", 1);
  ::setenv("SCHEDRIG_TOKEN_FILE", token.c_str(), 1);
  ::setenv("SCHEDRIG_CA", "env-ca.pem", 1);
  const ServerTarget e = server_target("", "", "");
  EXPECT_EQ(e.url, "https://env-host:8443");
  EXPECT_EQ(e.token, kOperatorToken);
  EXPECT_EQ(e.ca_file, "env-ca.pem");
  EXPECT_EQ(server_target("http://flag:2", "", "").url, "http://flag:2");
  ::unsetenv("SCHEDRIG_SERVER");
  ::unsetenv("SCHEDRIG_TOKEN_FILE");
  ::unsetenv("SCHEDRIG_CA");
}

TEST(ServerTarget, MissingUrlOrTokenFileIsUsage) {
  testing::TempDir dir;
  const Error no_url = error_of([] { server_target("", "t", ""); });
  EXPECT_EQ(no_url.kind(), ErrorKind::kUsage);
  EXPECT_NE(std::string(no_url.what()).find("--server"), std::string::npos);
  const Error no_token = error_of([] { server_target("http://h:1", "", ""); });
  EXPECT_EQ(no_token.kind(), ErrorKind::kUsage);
  EXPECT_NE(std::string(no_token.what()).find("--token-file"), std::string::npos);
  const std::string open_file = testing::write_token_file(dir.file("open.token"));
  ::chmod(open_file.c_str(), 0644);
  EXPECT_EQ(error_of([&] { server_target("http://h:1", open_file, ""); }).kind(),
            ErrorKind::kUsage);
}

TEST(ApiClient, SendsTheBearerTokenAndReturnsTheBody) {
  FakeApi api([](const FakeRequest&) {
    return answer(200, {{"agents", nlohmann::json::array()}});
  });
  ApiClient client(target_for(api));
  const nlohmann::json j = client.get_json(agents_path());
  EXPECT_EQ(j, (nlohmann::json{{"agents", nlohmann::json::array()}}));
  const nlohmann::json posted = client.post_json(runs_path(), {{"all", true}});
  EXPECT_TRUE(posted.contains("agents"));
  const auto requests = api.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/api/v1/agents");
  EXPECT_EQ(requests[0].authorization, std::string("Bearer ") + kOperatorToken);
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/api/v1/runs");
  EXPECT_EQ(nlohmann::json::parse(requests[1].body), (nlohmann::json{{"all", true}}));
}

TEST(ApiClient, RefusedTokenIsUsageNamingTheStatus) {
  for (unsigned status : {401u, 403u}) {
    FakeApi api([&](const FakeRequest&) { return answer(status, {{"error", "bad token"}}); });
    ApiClient client(target_for(api));
    const Error e = error_of([&] { client.get(agents_path()); });
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_EQ(std::string(e.what()), "server " + api.url() + " refused the token (" +
                                         (status == 401 ? "401 Unauthorized)" : "403 Forbidden)"));
  }
}

TEST(ApiClient, ClientErrorsCarryTheServersTextEscaped) {
  FakeApi api([](const FakeRequest&) {
    return answer(404, {{"error", "no run matches 'x\x1b]0;owned\x07\r\nforged'"}});
  });
  ApiClient client(target_for(api));
  const Error e = error_of([&] { client.get(run_path("x")); });
  EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  EXPECT_EQ(std::string(e.what()), "no run matches 'x\\e]0;owned\\x07\\r\\nforged'");
}

TEST(ApiClient, PlanErrorsNameFileLineAndKey) {
  FakeApi api([](const FakeRequest& r) {
    if (r.target == "/api/v1/runs") {
      return answer(400, {{"error", "workers 999 is more than the 160 PUs of agent box1"},
                          {"file", "plan.yaml"},
                          {"line", 7},
                          {"key", "cases[0].params.workers"},
                          {"value", "999"}});
    }
    return answer(400, {{"error", "plan.yaml:3: key 'duration_s': must be > 0"},
                        {"file", "plan.yaml"},
                        {"line", 3},
                        {"key", "duration_s"}});
  });
  ApiClient client(target_for(api));
  EXPECT_EQ(std::string(error_of([&] { client.post(runs_path(), "{}"); }).what()),
            "plan.yaml:7: key 'cases[0].params.workers': workers 999 is more than the 160 PUs of "
            "agent box1");
  EXPECT_EQ(std::string(error_of([&] { client.post("/api/v1/other", "{}"); }).what()),
            "plan.yaml:3: key 'duration_s': must be > 0");
}

TEST(ApiClient, ServerErrorsAreFailures) {
  FakeApi api([](const FakeRequest&) { return FakeAnswer{500, "store is gone\x1b[2J"}; });
  ApiClient client(target_for(api));
  const Error e = error_of([&] { client.get(agents_path()); });
  EXPECT_EQ(e.kind(), ErrorKind::kFailed);
  EXPECT_EQ(std::string(e.what()),
            "server " + api.url() + " failed (500 Internal Server Error): store is gone\\e[2J");
}

TEST(ApiClient, UnreachableServerNamesTheUrl) {
  unsigned short port = 0;
  {
    FakeApi gone([](const FakeRequest&) { return FakeAnswer{}; });
    port = gone.port();
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  ApiClient client({url, kOperatorToken, ""});
  const Error e = error_of([&] { client.get(agents_path()); });
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  EXPECT_EQ(e.exit_code(), 3);
  EXPECT_NE(std::string(e.what()).find("cannot reach server " + url), std::string::npos)
      << e.what();
}

TEST(ApiClient, SilentServerTimesOut) {
  FakeApi api([](const FakeRequest&) {
    std::this_thread::sleep_for(800ms);
    return FakeAnswer{};
  });
  ApiClient client(target_for(api));
  const auto t0 = std::chrono::steady_clock::now();
  const Error e = error_of([&] { client.get(agents_path(), 200ms); });
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 700ms);
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  EXPECT_EQ(std::string(e.what()), "server " + api.url() + ": no answer within 0.2 s");
}

TEST(ApiClient, AnswerOverTheLimitIsRefused) {
  FakeApi api([](const FakeRequest&) {
    return FakeAnswer{200, std::string(kMaxResponseBody + 1, 'x')};
  });
  ApiClient client(target_for(api));
  const Error e = error_of([&] { client.get(agents_path()); });
  EXPECT_EQ(e.kind(), ErrorKind::kPeerLimit);
  EXPECT_EQ(std::string(e.what()), "server " + api.url() + ": answer over 64 MiB");
}

TEST(ApiClient, NotJsonIsAFailure) {
  FakeApi api([](const FakeRequest&) { return FakeAnswer{200, "<html>"}; });
  ApiClient client(target_for(api));
  const Error e = error_of([&] { client.get_json(agents_path()); });
  EXPECT_EQ(e.kind(), ErrorKind::kFailed);
  EXPECT_EQ(std::string(e.what()),
            "server " + api.url() + ": the answer to /api/v1/agents is not JSON");
}

TEST(ApiPaths, RunIdsArePercentEncoded) {
  EXPECT_EQ(run_path("3f2a9c1e"), "/api/v1/runs/3f2a9c1e");
  EXPECT_EQ(abort_path("../agents?x"), "/api/v1/runs/..%2Fagents%3Fx/abort");
  EXPECT_EQ(events_path("r1", 42, 25), "/api/v1/runs/r1/events?after=42&wait_s=25");
  EXPECT_EQ(runs_path("queued"), "/api/v1/runs?state=queued");
}

TEST(RunRecordJson, ResultsJsonReadsBackToTheSameJson) {
  for (const auto& runs : {testing::stored_runs(), testing::stored_sampled_runs()}) {
    const nlohmann::json original = report::results_json(runs);
    const std::vector<store::RunRecord> back = runs_from_results_json(original);
    ASSERT_EQ(back.size(), runs.size());
    EXPECT_EQ(report::results_json(back), original);
    EXPECT_EQ(back[0].planned_iterations, 3u);
    EXPECT_EQ(back[0].iterations.size(), 3u);
    EXPECT_EQ(back[0].iterations[2].position, 2u);
  }
}

TEST(RunRecordJson, MissingKeyIsAFailureNamingIt) {
  nlohmann::json j = report::results_json(testing::stored_runs());
  j["runs"][0].erase("status");
  const Error e = error_of([&] { runs_from_results_json(j); });
  EXPECT_EQ(e.kind(), ErrorKind::kFailed);
  EXPECT_NE(std::string(e.what()).find("status"), std::string::npos) << e.what();
}

TEST(ApiViews, AgentsAndQueue) {
  const auto agents = live_agents_from_json(nlohmann::json::parse(R"({"agents":[
    {"agent_id":"box1","connected":true,"state":"running","run_id":"3f2a9c1e-5b6d","queued":2,
     "hostname":"box1.lab","kernel_release":"6.19.0","pus":160,"allowed_pus":158,
     "peer":"10.0.0.7:5555","instance_id":"i1","last_seen_ns":1767225600000000000}]})"));
  ASSERT_EQ(agents.size(), 1u);
  EXPECT_EQ(agents[0].pus, 160u);
  EXPECT_EQ(report::agent_activity(agents[0]), "running 3f2a9c1e, 2 queued");
  const auto queue = queue_from_json(nlohmann::json::parse(R"({"runs":[
    {"run_id":"r1","agent_id":"box1","plan_name":"p.yaml","state":"queued","reason":"",
     "labels":{"k":"v"},"submitted_by":"ann","submitted_at_ns":1,"dispatched_at_ns":0,
     "finished_at_ns":0,"queue_position":1}]})"));
  ASSERT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue[0].queue_position, 1);
  EXPECT_EQ(queue[0].labels.at("k"), "v");
}

// One agent's row, and the ids the server does list when it is not there;
// rows without a string id are passed over.
TEST(ApiViews, AgentRowByIdOrTheOthersForTheError) {
  const auto agents = nlohmann::json::parse(R"({"agents":[
    {"agent_id":"box1","connected":true}, {"agent_id":7}, "x", {"agent_id":"box2"}]})");
  const auto row = agent_row_from_json(agents, "box2");
  ASSERT_TRUE(row);
  EXPECT_EQ((*row)["agent_id"], "box2");
  std::vector<std::string> others;
  EXPECT_FALSE(agent_row_from_json(agents, "box3", &others));
  EXPECT_EQ(others, (std::vector<std::string>{"box1", "box2"}));
  EXPECT_FALSE(agent_row_from_json(nlohmann::json::parse(R"({"agents":{}})"), "box1"));
}

// The lines for a run's state changes: disconnected, back, and ended while
// disconnected (serve gave up on its agent) without claiming it came back.
TEST(RunStateLine, SaysWhetherTheAgentCameBack) {
  EXPECT_EQ(run_state_line("r1", {"disconnected", "agent gone"}),
            "run r1 disconnected: agent gone; waiting for its agent");
  EXPECT_EQ(run_state_line("r1", {"running", ""}), "run r1 running again: its agent is back");
  EXPECT_EQ(run_state_line("r1", {"interrupted", ""}),
            "run r1 interrupted: its agent did not come back in time");
}

// Events in two polls: the run starts, a sample, a result and the agent's
// line (a knob lock wait); then the end.
TEST(RunFollower, FollowsEventsToTheEnd) {
  const store::RunRecord run = testing::stored_runs().front();
  const nlohmann::json result = report::iteration_json(run.iterations[0]);
  FakeApi api([&](const FakeRequest& r) {
    if (r.target.find("after=0&") != std::string::npos) {
      return answer(200,
                    {{"run_id", run.run_id},
                     {"state", "running"},
                     {"events",
                      {{{"id", 3}, {"kind", "run_started"}, {"body", nlohmann::json::object()}},
                       {{"id", 4},
                        {"kind", "sample"},
                        {"body",
                         {{"position", 0},
                          {"case", "fork-all"},
                          {"variant", "baseline"},
                          {"iteration", 1},
                          {"t_ns", 5},
                          {"values", {{"idle_pct", 12.5}}}}}},
                       {{"id", 5}, {"kind", "iteration_result"}, {"body", result}},
                       {{"id", 6},
                        {"kind", "log"},
                        {"body",
                         {{"level", "warn"},
                          {"message", "waiting for the knob lock held by pid 7"},
                          {"waiting", true}}}},
                       {{"id", 7}, {"kind", "heartbeat"}, {"body", nlohmann::json::object()}}}},
                     {"next_after", 7}});
    }
    return answer(200,
                  {{"run_id", run.run_id},
                   {"state", "ok"},
                   {"events",
                    {{{"id", 9},
                      {"kind", "run_finished"},
                      {"body", {{"status", "ok"}, {"reason", ""}, {"completed_iterations", 1}}}}}},
                   {"next_after", 9}});
  });
  ApiClient client(target_for(api));
  RunFollower follower(client, run.run_id);
  const auto first = follower.poll(5);
  ASSERT_EQ(first.size(), 4u);  // the unknown "heartbeat" kind is skipped
  EXPECT_TRUE(std::holds_alternative<RunStartedEvent>(first[0]));
  const auto& sample = std::get<store::SampleRecord>(first[1]);
  EXPECT_EQ(sample.values.at(0), (std::pair<std::string, double>{"idle_pct", 12.5}));
  EXPECT_EQ(std::get<store::IterationRecord>(first[2]).metrics.at(0).value, testing::kOpsPerS[0]);
  const auto& log = std::get<RunLogEvent>(first[3]);
  EXPECT_EQ(log.level, "warn");
  EXPECT_EQ(log.message, "waiting for the knob lock held by pid 7");
  EXPECT_TRUE(log.waiting);
  EXPECT_FALSE(follower.ended());
  EXPECT_EQ(follower.state(), "running");
  const auto second = follower.poll(5);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(std::get<RunEnd>(second[0]).status, "ok");
  EXPECT_TRUE(follower.ended());
  const auto requests = api.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].target, events_path(run.run_id, 7, 5));
}

TEST(RunFollower, ARunEndedWithoutRunFinishedEndsWithItsStoredReason) {
  store::RunRecord run;
  run.run_id = "r1";
  run.status = "aborted";
  run.reason = "aborted by operator 'ann' before it started";
  FakeApi api([&](const FakeRequest& r) {
    if (r.target == "/api/v1/runs/r1") return answer(200, report::results_json({run}));
    return answer(200, {{"run_id", "r1"},
                        {"state", "aborted"},
                        {"events", nlohmann::json::array()},
                        {"next_after", 0}});
  });
  ApiClient client(target_for(api));
  RunFollower follower(client, "r1");
  const auto events = follower.poll(5);
  ASSERT_EQ(events.size(), 1u);  // the end, from GET runs/r1
  EXPECT_EQ(std::get<RunEnd>(events[0]).status, "aborted");
  EXPECT_EQ(std::get<RunEnd>(events[0]).reason, run.reason);
  EXPECT_TRUE(follower.ended());
  EXPECT_EQ(follower.state(), "aborted");
  EXPECT_EQ(follower.reason(), run.reason);
}

}  // namespace
}  // namespace schedrig::client

namespace schedrig::client {
namespace {

// A plan that stops on its verdict plans `max` rounds (common/plan/plan_json.h).
TEST(RunRecordJson, PlannedIterationsOfAPlanThatStopsOnItsVerdictAreItsMax) {
  const nlohmann::json fixed = {{"iterations", 5u}, {"cases", {1, 2}}, {"variants", {1, 2, 3}}};
  EXPECT_EQ(planned_iterations(fixed), 30u);
  nlohmann::json stop = fixed;
  stop["iterations"] = {{"min", 3u}, {"max", 20u}, {"stop", "verdict"}, {"delta_pct", 2.0}};
  EXPECT_EQ(planned_iterations(stop), 120u);
  stop["iterations"] = {{"stop", "verdict"}};
  EXPECT_EQ(planned_iterations(stop), 0u);
}

}  // namespace
}  // namespace schedrig::client
