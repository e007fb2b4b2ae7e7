// serve's GET /metrics (host/metrics/server_metrics.h) and POST
// /api/v1/nightly through the control plane over a real store: the text
// exposition parsed line by line.
#include <map>
#include <sstream>

#include "host/metrics/server_metrics.h"
#include "tests/host/control/control_fixture.h"

namespace schedrig::testing {
namespace {

using nlohmann::json;

// Series -> value of a Prometheus text exposition: "name{labels}" or
// "name" as written; comments and blank lines skipped. A line that does
// not parse fails the test.
std::map<std::string, double> parse_exposition(const std::string& text) {
  std::map<std::string, double> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    if (space == std::string::npos) {
      ADD_FAILURE() << "not a sample line: " << line;
      continue;
    }
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

class MetricsApi : public ControlTest {
 protected:
  void SetUp() override {
    control::ControlOptions o;
    o.metrics = &metrics_;
    make_control(false, o);
  }
  std::map<std::string, double> scrape() {
    const server::ApiResponse r = call("GET", "/metrics");
    EXPECT_EQ(r.status, 200u) << r.body;
    EXPECT_EQ(r.content_type, metrics::kMetricsContentType);
    return parse_exposition(r.body);
  }
  metrics::ServerMetrics metrics_;
};

json night_summary(const std::string& night, const std::string& verdict, bool detector_failed) {
  return {{"night", night},
          {"regression", verdict == "(R)"},
          {"detector_failed", detector_failed},
          {"rows",
           {{{"agent", "box1"},
             {"plan", "fork.yaml"},
             {"case", "fork-all"},
             {"variant", "baseline"},
             {"metric", "bogo_ops_per_s"},
             {"kernel", "6.19-rc4"},
             {"change_pct", -12.5},
             {"verdict", verdict}}}}};
}

TEST_F(MetricsApi, ScrapeCountsAgentsRunsAndStoredEnvelopes) {
  auto before = scrape();
  EXPECT_EQ(before.at("schedrig_agents_connected"), 0);
  EXPECT_EQ(before.at("schedrig_envelopes_stored_total"), 0);
  EXPECT_EQ(before.at("schedrig_ingest_latency_seconds_count"), 0);
  Agent box{"box1"};
  connect(box);
  call_json("POST", "/api/v1/runs", 201,
            json{{"agents", {"box1"}}, {"plan_yaml", kPlanYaml}}.dump());
  call_json("POST", "/api/v1/runs", 201,
            json{{"agents", {"box1"}}, {"plan_yaml", kPlanYaml}}.dump());
  metrics_.envelope_committed(std::chrono::milliseconds(3));
  metrics_.envelope_committed(std::chrono::microseconds(50));
  auto after = scrape();
  EXPECT_EQ(after.at("schedrig_agents_connected"), 1);
  EXPECT_EQ(after.at("schedrig_runs{state=\"running\"}"), 1);
  EXPECT_EQ(after.at("schedrig_runs{state=\"queued\"}"), 1);
  EXPECT_EQ(after.at("schedrig_envelopes_stored_total"), 2);
  EXPECT_EQ(after.at("schedrig_ingest_latency_seconds_count"), 2);
  EXPECT_NEAR(after.at("schedrig_ingest_latency_seconds_sum"), 0.00305, 1e-9);
  // 50 us is in every bucket from 0.0001 s up; 3 ms from 0.0032 s up.
  EXPECT_EQ(after.at("schedrig_ingest_latency_seconds_bucket{le=\"0.0001\"}"), 1);
  EXPECT_EQ(after.at("schedrig_ingest_latency_seconds_bucket{le=\"0.0032\"}"), 2);
  EXPECT_EQ(after.at("schedrig_ingest_latency_seconds_bucket{le=\"+Inf\"}"), 2);
}

// An agent channel whose upgrade said its spool held `backlog` envelopes.
class BackloggedChannel : public FakeChannel {
 public:
  BackloggedChannel(std::string agent_id, std::string instance_id, std::uint64_t backlog)
      : FakeChannel(std::move(agent_id), std::move(instance_id)), backlog_(backlog) {}
  std::optional<std::uint64_t> spool_backlog() const override { return backlog_; }

 private:
  std::uint64_t backlog_;
};

TEST_F(MetricsApi, SpoolBacklogIsTheOneTheAgentLastReported) {
  auto channel = std::make_shared<BackloggedChannel>("box7", "i1", 1234);
  metrics_.on_hello(channel, v1::Envelope());
  EXPECT_EQ(scrape().at("schedrig_agent_spool_backlog_envelopes{agent=\"box7\"}"), 1234);
  metrics_.on_hello(std::make_shared<BackloggedChannel>("box7", "i2", 0), v1::Envelope());
  EXPECT_EQ(scrape().at("schedrig_agent_spool_backlog_envelopes{agent=\"box7\"}"), 0);
  // A connection without the header (or a bad one) leaves no stale value.
  metrics_.on_hello(std::make_shared<FakeChannel>("box8", "i3"), v1::Envelope());
  EXPECT_EQ(scrape().count("schedrig_agent_spool_backlog_envelopes{agent=\"box8\"}"), 0u);
  metrics_.on_hello(std::make_shared<FakeChannel>("box7", "i4"), v1::Envelope());
  EXPECT_EQ(scrape().count("schedrig_agent_spool_backlog_envelopes{agent=\"box7\"}"), 0u);
}

TEST_F(MetricsApi, NightlyVerdictsAreKeptPerAgentAndPlanAndShown) {
  const json stored = call_json("POST", "/api/v1/nightly", 201,
                                night_summary("2026-12-01T02:00:00Z", "(R)", false).dump());
  EXPECT_EQ(stored["rows"], 1);
  const std::string series =
      "{agent=\"box1\",case=\"fork-all\",kernel=\"6.19-rc4\",metric=\"bogo_ops_per_s\","
      "plan=\"fork.yaml\",variant=\"baseline\"}";
  auto m = scrape();
  EXPECT_EQ(m.at("schedrig_nightly_verdict" + series), -1);
  EXPECT_EQ(m.at("schedrig_nightly_change_percent" + series), -12.5);
  EXPECT_EQ(m.at("schedrig_nightly_detector_failed_nights"), 0);
  // The next night replaces the agent and plan's rows; a failed detector is counted.
  call_json("POST", "/api/v1/nightly", 201, night_summary("2026-12-02T02:00:00Z", "", true).dump());
  m = scrape();
  EXPECT_EQ(m.at("schedrig_nightly_verdict" + series), 0);
  EXPECT_EQ(m.at("schedrig_nightly_detector_failed_nights"), 1);
  EXPECT_EQ(store_.nightly_verdicts().size(), 1u);
}

TEST_F(MetricsApi, BadNightSummariesAreRefusedAndNothingIsKept) {
  call_json("POST", "/api/v1/nightly", 400, "{not json");
  call_json("POST", "/api/v1/nightly", 400, json{{"rows", json::array()}}.dump());
  json bad_mark = night_summary("n1", "(X)", false);
  EXPECT_NE(
      call_json("POST", "/api/v1/nightly", 400, bad_mark.dump())["error"].get<std::string>().find(
          "verdict"),
      std::string::npos);
  json control_char = night_summary("n1", "(R)", false);
  control_char["rows"][0]["case"] = "fork\x1b[2J";
  call_json("POST", "/api/v1/nightly", 400, control_char.dump());
  json many = night_summary("n1", "(R)", false);
  for (int i = 0; i < 10001; ++i) many["rows"].push_back(many["rows"][0]);
  call_json("POST", "/api/v1/nightly", 400, many.dump());
  json not_bool = night_summary("n1", "(R)", false);
  not_bool["regression"] = "yes";
  EXPECT_EQ(call_json("POST", "/api/v1/nightly", 400, not_bool.dump())["error"],
            "'regression' must be true or false");
  EXPECT_EQ(call("GET", "/api/v1/nightly").status, 405u);
  EXPECT_TRUE(store_.nightly_verdicts().empty());
}

TEST_F(ControlTest, WithoutMetricsTheScrapeIs404) {
  EXPECT_EQ(call("GET", "/metrics").status, 404u);
}

}  // namespace
}  // namespace schedrig::testing
