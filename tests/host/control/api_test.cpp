// The HTTP API's answers (docs/architecture.md "HTTP API") over a real store.
#include <cerrno>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "host/report/results_json.h"
#include "tests/host/control/control_fixture.h"

namespace schedrig::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

json runs_body(const std::string& plan_yaml) {
  return {{"agents", {"box1"}}, {"plan_yaml", plan_yaml}, {"plan_name", "nightly.yaml"}};
}

TEST_F(ControlTest, PostRunsRefusesBadBodies) {
  Agent box{"box1"};
  connect(box);
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 400, "{not json")["error"], "body: not JSON");
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 400, json{{"plan_yaml", kPlanYaml}}.dump())["error"],
            "give either agents:[ID...] or all:true");
  json both = runs_body(kPlanYaml);
  both["all"] = true;
  call_json("POST", "/api/v1/runs", 400, both.dump());
  json bad_id = runs_body(kPlanYaml);
  bad_id["agents"] = {"box 1"};
  call_json("POST", "/api/v1/runs", 400, bad_id.dump());
  json many = runs_body(kPlanYaml);
  many["agents"] = json::array();
  for (int i = 0; i < 1025; ++i) many["agents"].push_back(fmt::format("box{}", i));
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 400, many.dump())["error"],
            "agents: 1025 agents; at most 1024 per request");
  json labels = runs_body(kPlanYaml);
  for (int i = 0; i < 65; ++i) labels["labels"][fmt::format("k{}", i)] = "v";
  call_json("POST", "/api/v1/runs", 400, labels.dump());
  // A deeply nested agent id is refused by its type, never echoed (dump() would recurse).
  const std::string deep = std::string(20000, '[') + std::string(20000, ']');
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 400,
                      "{\"agents\":[" + deep + "],\"plan_yaml\":\"x\"}")["error"],
            "agents: a array is not an agent id");
  json extra = runs_body(kPlanYaml);
  extra["agent"] = "box1";
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 400, extra.dump())["error"],
            "body: unknown key 'agent'");
  EXPECT_TRUE(store_.queued_runs().empty());
  EXPECT_TRUE(box.channel->sent().empty());
}

TEST_F(ControlTest, PostRunsPlanErrorNamesFileLineAndKey) {
  Agent box{"box1"};
  connect(box);
  const std::string yaml =
      "name: quick\n"
      "duration_s: 1\n"
      "cases:\n"
      "  - workload: fork\n"
      "    placment: all\n";
  json e = call_json("POST", "/api/v1/runs", 400, runs_body(yaml).dump());
  EXPECT_EQ(e["file"], "nightly.yaml");
  EXPECT_EQ(e["line"], 5);
  EXPECT_EQ(e["key"], "cases[0].placment");
  EXPECT_NE(e["error"].get<std::string>().find("nightly.yaml:5:"), std::string::npos) << e;
  EXPECT_TRUE(store_.queued_runs().empty());
}

TEST_F(ControlTest, PostRunsChecksThePlanAgainstTheAgent) {
  Agent box{"box1"};
  connect(box);
  const std::string yaml =
      "name: quick\n"
      "duration_s: 1\n"
      "cases:\n"
      "  - workload: nosuch\n";
  json e = call_json("POST", "/api/v1/runs", 400, runs_body(yaml).dump());
  EXPECT_EQ(e["file"], "nightly.yaml");
  EXPECT_EQ(e["key"], "cases[0].workload");
  EXPECT_EQ(e["value"], "nosuch");
  EXPECT_NE(e["error"].get<std::string>().find("box1"), std::string::npos) << e;
  EXPECT_EQ(e["facility_unavailable"], false);  // a bad plan: the CLI exits 2
  EXPECT_TRUE(store_.queued_runs().empty());
}

TEST_F(ControlTest, PostRunsUnknownAgentIs404AndAllWithNoneConnectedIs400) {
  Agent box{"box1"};
  connect(box);
  json two = runs_body(kPlanYaml);
  two["agents"] = {"box1", "nosuchbox"};
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 404, two.dump())["error"], "unknown agent nosuchbox");
  EXPECT_TRUE(store_.queued_runs().empty());  // all or nothing
  disconnect(box, "gone");
  json all = {{"all", true}, {"plan_yaml", kPlanYaml}};
  EXPECT_EQ(call_json("POST", "/api/v1/runs", 400, all.dump())["error"],
            "all: no agent is connected");
  // An offline agent the store knows is checked against its stored Hello and Topology.
  EXPECT_EQ(submit({"box1"}).size(), 1u);
}

TEST_F(ControlTest, GetAgentsShowsLiveAndStoredAgents) {
  Agent a{"box1"}, b{"box2"};
  connect(a);
  connect(b);
  disconnect(b, "gone");
  const std::string run = submit({"box1"}).at(0);
  submit({"box1"});
  submit({"box2"});
  json agents = call_json("GET", "/api/v1/agents", 200)["agents"];
  ASSERT_EQ(agents.size(), 2u);
  EXPECT_EQ(agents[0]["agent_id"], "box1");
  EXPECT_EQ(agents[0]["connected"], true);
  EXPECT_EQ(agents[0]["state"], "running");
  EXPECT_EQ(agents[0]["run_id"], run);
  EXPECT_EQ(agents[0]["queued"], 1);
  EXPECT_EQ(agents[0]["hostname"], "box1.lab");
  EXPECT_EQ(agents[0]["kernel_release"], "6.19.0-rc3");
  EXPECT_EQ(agents[0]["pus"], 4);
  EXPECT_EQ(agents[0]["peer"], "127.0.0.1:40000");
  EXPECT_EQ(agents[0]["instance_id"], a.instance);
  EXPECT_GT(agents[0]["last_seen_ns"].get<long long>(), 0);
  EXPECT_EQ(agents[1]["agent_id"], "box2");
  EXPECT_EQ(agents[1]["connected"], false);
  EXPECT_EQ(agents[1]["state"], "offline");
  EXPECT_EQ(agents[1]["queued"], 1);
  EXPECT_EQ(agents[1]["hostname"], "box2.lab");
  EXPECT_EQ(agents[1]["peer"], "");
}

v1::KnobCapability capability(const std::string& name, bool readable, bool writable, int err,
                              std::optional<std::string> value) {
  v1::KnobCapability c;
  c.set_name(name);
  c.set_path("/proc/sys/" + name);
  c.set_readable(readable);
  c.set_writable(writable);
  c.set_errno_value(err);
  if (value) c.set_value(*value);
  return c;
}

// GET /api/v1/agents/ID/knobs: the Hello's knobs in `knobs list --json`'s
// shape (what bisect-knobs --server reads), bounded; 409 offline, 404 unknown.
TEST_F(ControlTest, GetAgentKnobsIsTheHellosKnobsInTheKnobsListShape) {
  Agent a{"box1"};
  v1::KnobCapability features =
      capability("sched_features", true, false, EPERM, "NI_RANDOM NO_PLACE_LAG");
  features.add_features("NI_RANDOM");
  features.add_features("PLACE_LAG");
  *a.extra.add_knobs() = features;
  *a.extra.add_knobs() = capability("kernel.numa_balancing", true, true, 0, "1");
  *a.extra.add_knobs() = capability("sched/base_slice_ns", false, false, ENOENT, std::nullopt);
  *a.extra.add_knobs() = capability("kernel.long", true, true, 0, std::string(5000, '7'));
  *a.extra.add_knobs() = capability("kernel.odd", true, false, 99999, "x");
  a.extra.add_bisect_deny("NI_RANDOM");
  a.extra.add_bisect_deny("kernel.numa_balancing");
  connect(a);
  const json k = call_json("GET", "/api/v1/agents/box1/knobs", 200);
  EXPECT_EQ(k["agent_id"], "box1");
  EXPECT_EQ(k["instance_id"], a.instance);
  EXPECT_EQ(k["kernel_release"], "6.19.0-rc3");
  EXPECT_EQ(k["features"]["features"], json({{"NI_RANDOM", true}, {"PLACE_LAG", false}}));
  EXPECT_EQ(k["features"]["writable"], false);
  EXPECT_EQ(k["features"]["write_error"], "Operation not permitted (EPERM)");
  ASSERT_EQ(k["knobs"].size(), 4u);
  EXPECT_EQ(k["knobs"][0], json({{"name", "kernel.numa_balancing"},
                                 {"path", "/proc/sys/kernel.numa_balancing"},
                                 {"readable", true},
                                 {"writable", true},
                                 {"errno", 0},
                                 {"value", "1"}}));
  EXPECT_FALSE(k["knobs"][1].contains("value"));
  EXPECT_EQ(k["knobs"][1]["error"], "No such file or directory (ENOENT)");
  EXPECT_FALSE(k["knobs"][2].contains("value"));                  // over 4096 bytes
  EXPECT_EQ(k["knobs"][3]["error"], "Input/output error (EIO)");  // no such errno
  EXPECT_EQ(k["bisect_deny"], json({"NI_RANDOM", "kernel.numa_balancing"}));
  EXPECT_FALSE(k.contains("left_out"));

  Agent old{"box2"};  // an agent that sends no values
  *old.extra.add_knobs() = capability("sched_features", true, true, 0, std::nullopt);
  connect(old);
  const json o = call_json("GET", "/api/v1/agents/box2/knobs", 200);
  EXPECT_FALSE(o["features"].contains("features"));
  EXPECT_NE(o["features"]["error"].get<std::string>().find("did not report"), std::string::npos);
  EXPECT_TRUE(o["knobs"].empty());

  Agent big{"box3"};  // more than the document lists: counted in left_out
  std::string line;
  for (int i = 0; i < 515; ++i) line += fmt::format("F{} ", i);
  v1::KnobCapability many = capability("sched_features", true, true, 0, line);
  many.set_features_left_out(4);  // the agent's own cut, past what it sent
  *big.extra.add_knobs() = many;
  for (int i = 0; i < 258; ++i)
    *big.extra.add_knobs() = capability(fmt::format("kernel.k{}", i), true, true, 0, "1");
  for (int i = 0; i < 257; ++i) big.extra.add_bisect_deny(fmt::format("F{}", i));
  connect(big);
  const json b = call_json("GET", "/api/v1/agents/box3/knobs", 200);
  EXPECT_EQ(b["features"]["features"].size(), 512u);
  EXPECT_EQ(b["knobs"].size(), 256u);
  EXPECT_EQ(b["bisect_deny"].size(), 256u);
  EXPECT_EQ(b["left_out"], json({{"features", 7}, {"knobs", 2}, {"bisect_deny", 1}}));

  disconnect(old, "gone");
  EXPECT_NE(call_json("GET", "/api/v1/agents/box2/knobs", 409)["error"].get<std::string>().find(
                "not connected"),
            std::string::npos);
  EXPECT_EQ(call_json("GET", "/api/v1/agents/nosuch/knobs", 404)["error"], "no such agent: nosuch");
  call_json("POST", "/api/v1/agents/box1/knobs", 405);
}

TEST_F(ControlTest, GetRunsListsTheQueueAndFiltersByState) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0),
                    r3 = submit({"box1"}).at(0);
  json runs = call_json("GET", "/api/v1/runs", 200)["runs"];
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0]["run_id"], r1);
  EXPECT_EQ(runs[0]["state"], "running");
  EXPECT_EQ(runs[0]["queue_position"], -1);
  EXPECT_GT(runs[0]["dispatched_at_ns"].get<long long>(), 0);
  EXPECT_EQ(runs[1]["queue_position"], 1);
  EXPECT_EQ(runs[2]["queue_position"], 2);
  EXPECT_EQ(runs[1]["submitted_by"], "alice");
  EXPECT_EQ(runs[1]["plan_name"], "quick.yaml");
  EXPECT_EQ(runs[1]["labels"]["tag"], "plan");
  json queued = call_json("GET", "/api/v1/runs?state=queued", 200)["runs"];
  ASSERT_EQ(queued.size(), 2u);
  EXPECT_EQ(queued[0]["run_id"], r2);
  EXPECT_EQ(queued[1]["run_id"], r3);
  call_json("GET", "/api/v1/runs?state=bogus", 400);
}

TEST_F(ControlTest, GetRunIsResultsJsonAndTakesAUniquePrefix) {
  Agent box{"box1"};
  connect(box);
  const std::string kA = "3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b";
  const std::string kB = "3f2a9c1e-ffff-4e7f-8a9b-1c2d3e4f5a6b";
  finish(box, kA);
  finish(box, kB);
  server::ApiResponse r = call("GET", "/api/v1/runs/3f2a9c1e-5b");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.body, report::results_json(store_.runs(kA)).dump(2) + "\n");
  EXPECT_EQ(json::parse(r.body)["runs"][0]["run_id"], kA);
  EXPECT_NE(call_json("GET", "/api/v1/runs/3f2a9c1e", 409)["error"].get<std::string>().find(kB),
            std::string::npos);
  call_json("GET", "/api/v1/runs/3f2a", 400);  // too short to name a run
  call_json("GET", "/api/v1/runs/ffffffff", 404);
  EXPECT_EQ(call_json("GET", "/api/v1/runs/" + kB, 200)["runs"][0]["run_id"], kB);
}

TEST_F(ControlTest, GetRunOfAQueuedRunHasTheSameKeysEmpty) {
  Agent box{"box1"};
  connect(box);
  submit({"box1"});
  const std::string run = submit({"box1"}).at(1 - 1);
  json got = call_json("GET", "/api/v1/runs/" + run, 200)["runs"][0];
  EXPECT_EQ(got["run_id"], run);
  EXPECT_EQ(got["agent_id"], "box1");
  EXPECT_EQ(got["status"], "queued");
  EXPECT_EQ(got["labels"]["kernel"], "from-plan");
  EXPECT_EQ(got["plan"]["name"], "quick");
  EXPECT_EQ(got["iterations"], json::array());
  EXPECT_EQ(got["hostname"], "");
  EXPECT_TRUE(got.contains("started_at_ns"));
}

TEST_F(ControlTest, UnknownPathsAndMethods) {
  call_json("GET", "/api/v1/nosuch", 404);
  call_json("GET", "/api/v2/agents", 404);
  call_json("POST", "/api/v1/agents", 405);
  call_json("DELETE", "/api/v1/runs", 405);
  call_json("GET", "/api/v1/runs/3f2a9c1e-5b6d/abort", 405);
  call_json("POST", "/api/v1/runs/3f2a9c1e-5b6d/abort", 404);
}

// The events long poll, answered on the io_context in another thread.
class EventsTest : public ControlTest {
 protected:
  struct Pending {
    std::mutex mu;
    std::optional<server::ApiResponse> response;
    Clock::time_point answered;
  };
  std::shared_ptr<Pending> start_poll(const std::string& target) {
    auto p = std::make_shared<Pending>();
    control_->handle(request("GET", target), [p](server::ApiResponse a) {
      std::lock_guard lock(p->mu);
      p->response = std::move(a);
      p->answered = Clock::now();
    });
    return p;
  }
  // Runs the io_context until `p` is answered (at most 10 s).
  json wait(const std::shared_ptr<Pending>& p) {
    ioc_.restart();
    const auto give_up = Clock::now() + std::chrono::seconds(10);
    for (;;) {
      {
        std::lock_guard lock(p->mu);
        if (p->response) break;
      }
      if (Clock::now() > give_up) {
        ADD_FAILURE() << "no answer";
        return json::object();
      }
      ioc_.run_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(p->response->status, 200u) << p->response->body;
    return json::parse(p->response->body);
  }
};

TEST_F(EventsTest, ReturnsOnNewEventsAndOnTimeout) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  // Nothing yet: waits out wait_s.
  auto t0 = Clock::now();
  json empty = wait(start_poll("/api/v1/runs/" + run + "/events?after=0&wait_s=1"));
  EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(950));
  EXPECT_EQ(empty["run_id"], run);
  EXPECT_EQ(empty["state"], "running");
  EXPECT_EQ(empty["events"], json::array());
  const long long cursor = empty["next_after"];

  // An iteration arrives while a poll waits: it answers with it at once.
  auto pending =
      start_poll("/api/v1/runs/" + run + "/events?after=" + std::to_string(cursor) + "&wait_s=30");
  ioc_.restart();
  ioc_.run_for(std::chrono::milliseconds(100));
  {
    std::lock_guard lock(pending->mu);
    EXPECT_FALSE(pending->response);
  }
  v1::Envelope started = envelope(box);
  started.mutable_run_started()->set_run_id(run);
  started.mutable_run_started()->set_planned_iterations(1);
  deliver(started);
  v1::Envelope other = envelope(box);  // another run's result is not an event of this one
  other.mutable_iteration_result()->set_run_id("99999999-0000-4000-8000-000000000000");
  deliver(other);
  v1::Envelope it = envelope(box);
  v1::IterationResult* r = it.mutable_iteration_result();
  r->set_run_id(run);
  r->set_case_name("fork:fork_max=1");
  r->set_variant("baseline");
  r->set_iteration(1);
  r->set_status(v1::STATUS_OK);
  v1::Metric* m = r->add_metrics();
  m->set_name("forks_per_s");
  m->set_value(1234.5);
  m->set_unit("/s");
  deliver(it);
  const auto delivered = Clock::now();
  json got = wait(pending);
  EXPECT_LT(pending->answered - delivered, std::chrono::seconds(2));
  ASSERT_EQ(got["events"].size(), 2u) << got;
  EXPECT_EQ(got["events"][0]["kind"], "run_started");
  EXPECT_EQ(got["events"][0]["body"]["planned_iterations"], 1);
  EXPECT_EQ(got["events"][1]["kind"], "iteration_result");
  EXPECT_EQ(got["events"][1]["body"]["case"], "fork:fork_max=1");
  EXPECT_EQ(got["events"][1]["body"]["metrics"][0]["value"], 1234.5);
  EXPECT_GT(got["events"][1]["id"].get<long long>(), got["events"][0]["id"].get<long long>());
  EXPECT_EQ(got["next_after"], got["events"][1]["id"]);

  // The run ends: the poll answers at once with its end.
  v1::Envelope done = envelope(box);
  done.mutable_run_finished()->set_run_id(run);
  done.mutable_run_finished()->set_status(v1::STATUS_OK);
  done.mutable_run_finished()->set_completed_iterations(1);
  deliver(done);
  t0 = Clock::now();
  json end = wait(start_poll("/api/v1/runs/" + run.substr(0, 8) + "/events?after=" +
                             std::to_string(got["next_after"].get<long long>())));
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
  EXPECT_EQ(end["state"], "ok");
  ASSERT_EQ(end["events"].size(), 1u);
  EXPECT_EQ(end["events"][0]["kind"], "run_finished");
  EXPECT_EQ(end["events"][0]["body"]["status"], "ok");
  EXPECT_EQ(end["events"][0]["body"]["completed_iterations"], 1);
  // After the end, nothing more: an ended run answers at once, empty.
  json after = wait(start_poll("/api/v1/runs/" + run + "/events?after=" +
                               std::to_string(end["next_after"].get<long long>())));
  EXPECT_EQ(after["events"], json::array());
  EXPECT_EQ(after["state"], "ok");
}

// A sample event carries what watch's columns show (docs/architecture.md
// "HTTP API": report::sample_json), not only the values.
TEST_F(EventsTest, SampleEventsCarryOpsStarvedAndInterval) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  v1::Envelope env = envelope(box);
  v1::Sample* s = env.mutable_sample();
  s->set_run_id(run);
  s->set_case_name("fork:fork_max=1");
  s->set_variant("baseline");
  s->set_iteration(1);
  s->set_position(0);
  s->set_t_ns(1767225601250000000LL);
  s->set_interval_s(0.25);
  s->set_ops_so_far(48213);
  s->set_idle_pct(85.5);
  s->set_runnable(131);
  s->set_starved(true);
  s->set_starved_reason("crowd then idle");
  deliver(env);
  json got = wait(start_poll("/api/v1/runs/" + run + "/events?after=0&wait_s=5"));
  ASSERT_EQ(got["events"].size(), 1u) << got;
  const json body = got["events"][0]["body"];
  EXPECT_EQ(got["events"][0]["kind"], "sample") << body;
  EXPECT_EQ(body["ops_so_far"], 48213) << body.dump();
  EXPECT_EQ(body["interval_s"], 0.25);
  EXPECT_EQ(body["starved"], true);
  EXPECT_EQ(body["starved_reason"], "crowd then idle");
  EXPECT_EQ(body["position"], 0);
  EXPECT_EQ(body["t_ns"], 1767225601250000000LL);
  EXPECT_EQ(body["values"]["idle_pct"], 85.5);
  EXPECT_EQ(body["values"]["runnable"], 131);
}

TEST_F(EventsTest, RefusesBadCursorsAndUnknownRuns) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  call_json("GET", "/api/v1/runs/" + run + "/events?after=-1", 400);
  call_json("GET", "/api/v1/runs/" + run + "/events?wait_s=61", 400);
  call_json("GET", "/api/v1/runs/" + run + "/events?after=1x", 400);
  call_json("GET", "/api/v1/runs/ffffffff-0000/events", 404);
}

}  // namespace
}  // namespace schedrig::testing
