// The queue rules (docs/architecture.md "Queue"): per-agent FIFO, one run at
// a time, dispatch on Hello / run end / submit, aborts, disconnects, restarts.
#include "tests/host/control/control_fixture.h"

namespace schedrig::testing {
namespace {

using StringList = std::vector<std::string>;

TEST_F(ControlTest, TwoRunsOnOneAgentRunInOrderOneAtATime) {
  Agent box{"box1"};
  connect(box);
  nlohmann::json body = {{"agents", {"box1"}}, {"plan_yaml", kPlanYaml}};
  nlohmann::json first = call_json("POST", "/api/v1/runs", 201, body.dump());
  nlohmann::json second = call_json("POST", "/api/v1/runs", 201, body.dump());
  const std::string r1 = first["runs"][0]["run_id"], r2 = second["runs"][0]["run_id"];
  EXPECT_EQ(first["runs"][0]["agent_id"], "box1");
  EXPECT_EQ(first["runs"][0]["queue_position"], 0);
  EXPECT_EQ(second["runs"][0]["queue_position"], 1);
  EXPECT_EQ(first["runs"][0]["connected"], true);

  EXPECT_EQ(box.channel->started(), StringList{r1});  // r2 waits for r1
  EXPECT_EQ(state_of(r1), "running");
  EXPECT_EQ(state_of(r2), "queued");
  finish(box, r1);
  EXPECT_EQ(state_of(r1), "ok");
  EXPECT_EQ(box.channel->started(), (StringList{r1, r2}));
  EXPECT_EQ(state_of(r2), "running");
}

TEST_F(ControlTest, StartRunCarriesThePlanAndMergedLabels) {
  Agent box{"box1"};
  connect(box);
  nlohmann::json body = {{"agents", {"box1"}},
                         {"plan_yaml", kPlanYaml},
                         {"labels", {{"kernel", "6.19-rc3"}, {"run", "7"}}}};
  call_json("POST", "/api/v1/runs", 201, body.dump());
  ASSERT_EQ(box.channel->sent().size(), 1u);
  const v1::StartRun start = box.channel->sent()[0].start_run();
  EXPECT_EQ(start.plan().name(), "quick");
  EXPECT_EQ(start.plan().cases(0).workload(), "fork");
  EXPECT_EQ(start.labels().at("kernel"), "6.19-rc3");  // the request's label wins
  EXPECT_EQ(start.labels().at("tag"), "plan");
  EXPECT_EQ(start.labels().at("run"), "7");
  auto row = store_.queued_run(start.run_id());
  ASSERT_TRUE(row);
  EXPECT_EQ(row->submitted_by, "alice");
  EXPECT_EQ(row->plan_name, "plan.yaml");
  EXPECT_EQ(row->labels.at("kernel"), "6.19-rc3");
}

TEST_F(ControlTest, RunForAnOfflineAgentWaitsAndStartsOnItsHello) {
  Agent box{"box1"};
  connect(box);
  disconnect(box, "closed by the agent (1000)");
  nlohmann::json body = {{"agents", {"box1"}}, {"plan_yaml", kPlanYaml}};
  const nlohmann::json answer = call_json("POST", "/api/v1/runs", 201, body.dump());
  EXPECT_EQ(answer["runs"][0]["connected"], false);
  const std::string run = answer["runs"][0]["run_id"];
  EXPECT_EQ(state_of(run), "queued");
  EXPECT_TRUE(box.channel->sent().empty());

  connect(box);  // a new instance says Hello
  EXPECT_EQ(box.channel->started(), StringList{run});
  EXPECT_EQ(state_of(run), "running");
}

TEST_F(ControlTest, RunsOfDifferentAgentsStartAtOnce) {
  Agent a{"box1"}, b{"box2"};
  connect(a);
  connect(b);
  nlohmann::json body = {{"all", true}, {"plan_yaml", kPlanYaml}};
  nlohmann::json answer = call_json("POST", "/api/v1/runs", 201, body.dump());
  ASSERT_EQ(answer["runs"].size(), 2u);
  EXPECT_EQ(answer["runs"][0]["agent_id"], "box1");
  EXPECT_EQ(answer["runs"][1]["agent_id"], "box2");
  EXPECT_EQ(a.channel->started(), StringList{answer["runs"][0]["run_id"]});
  EXPECT_EQ(b.channel->started(), StringList{answer["runs"][1]["run_id"]});
}

TEST_F(ControlTest, AbortQueuedRunSendsNothing) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  nlohmann::json answer = call_json("POST", "/api/v1/runs/" + r2 + "/abort", 200);
  EXPECT_EQ(answer["run_id"], r2);
  EXPECT_EQ(answer["state"], "aborted");
  EXPECT_EQ(state_of(r2), "aborted");
  EXPECT_EQ(store_.queued_run(r2)->reason, "aborted by operator 'alice' before it started");
  EXPECT_TRUE(box.channel->aborted().empty());
  finish(box, r1);
  EXPECT_EQ(box.channel->started(), StringList{r1});        // r2 never starts
  call_json("POST", "/api/v1/runs/" + r2 + "/abort", 409);  // finished
}

TEST_F(ControlTest, AbortRunningRunSendsAbortThenRunFinishedEndsIt) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  nlohmann::json answer = call_json("POST", "/api/v1/runs/" + run + "/abort", 200);
  EXPECT_EQ(answer["state"], "aborting");
  EXPECT_EQ(box.channel->aborted(), StringList{run});
  EXPECT_EQ(box.channel->sent().back().abort().reason(), "aborted by operator 'alice'");
  nlohmann::json runs = call_json("GET", "/api/v1/runs", 200);
  EXPECT_EQ(runs["runs"][0]["state"], "aborting");
  EXPECT_EQ(runs["runs"][0]["reason"], "aborted by operator 'alice'");
  // A second abort while waiting sends nothing more.
  EXPECT_EQ(call_json("POST", "/api/v1/runs/" + run + "/abort", 200)["state"], "aborting");
  EXPECT_EQ(box.channel->aborted().size(), 1u);

  finish(box, run, v1::STATUS_ABORTED, "aborted before iteration 1 of 1 completed");
  EXPECT_EQ(state_of(run), "aborted");
  EXPECT_EQ(call_json("GET", "/api/v1/runs", 200)["runs"][0]["state"], "aborted");
  // Who aborted it, in the queue row, the run row and what `results` reads.
  const std::string why = "aborted by operator 'alice' (aborted before iteration 1 of 1 completed)";
  EXPECT_EQ(store_.queued_run(run)->reason, why);
  EXPECT_EQ(store_.runs(run).at(0).reason, why);
  EXPECT_EQ(call_json("GET", "/api/v1/runs/" + run, 200)["runs"][0]["reason"], why);
}

// An agent that stopped its run itself (SIGINT on the box) names no operator;
// nor does a run that ended ok although an abort was on its way.
TEST_F(ControlTest, OnlyAnOperatorAbortNamesTheOperator) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  finish(box, r1, v1::STATUS_ABORTED, "aborted before iteration 1 of 1 completed");
  EXPECT_EQ(store_.runs(r1).at(0).reason, "aborted before iteration 1 of 1 completed");
  EXPECT_EQ(call_json("POST", "/api/v1/runs/" + r2 + "/abort", 200)["state"], "aborting");
  finish(box, r2, v1::STATUS_OK);
  EXPECT_EQ(state_of(r2), "ok");
  EXPECT_EQ(store_.runs(r2).at(0).reason, "");
  EXPECT_EQ(store_.queued_run(r2)->reason, "");
}

// The agent's Log with waiting set (the knob lock another process holds)
// shows on agents and runs until the run's next event; the Log is an event.
TEST_F(ControlTest, AWaitingRunShowsWhatItWaitsForUntilItsNextEvent) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  start(box, run);
  v1::Envelope wait = envelope(box);
  wait.mutable_log()->set_run_id(run);
  wait.mutable_log()->set_level("warn");
  wait.mutable_log()->set_waiting(true);
  wait.mutable_log()->set_message("waiting for the knob lock held by pid 4242");
  deliver(wait);
  EXPECT_EQ(call_json("GET", "/api/v1/agents", 200)["agents"][0]["waiting"],
            "waiting for the knob lock held by pid 4242");
  nlohmann::json row = call_json("GET", "/api/v1/runs", 200)["runs"][0];
  EXPECT_EQ(row["state"], "running");
  EXPECT_EQ(row["waiting"], "waiting for the knob lock held by pid 4242");
  nlohmann::json events =
      call_json("GET", "/api/v1/runs/" + run + "/events?after=0&wait_s=0", 200)["events"];
  ASSERT_EQ(events.size(), 2u) << events;
  EXPECT_EQ(events[1]["kind"], "log");
  EXPECT_EQ(events[1]["body"],
            nlohmann::json({{"level", "warn"},
                            {"message", "waiting for the knob lock held by pid 4242"},
                            {"waiting", true}}));

  v1::Envelope sample = envelope(box);  // the run goes on: no longer waiting
  sample.mutable_sample()->set_run_id(run);
  deliver(sample);
  EXPECT_EQ(call_json("GET", "/api/v1/agents", 200)["agents"][0]["waiting"], "");
  EXPECT_EQ(call_json("GET", "/api/v1/runs", 200)["runs"][0]["waiting"], "");
  wait.set_seq(++box.seq);  // waits again, then its end clears it too
  deliver(wait);
  EXPECT_NE(call_json("GET", "/api/v1/runs", 200)["runs"][0]["waiting"], "");
  finish(box, run);
  EXPECT_EQ(call_json("GET", "/api/v1/agents", 200)["agents"][0]["waiting"], "");
}

// contract 4: a lost link leaves the run disconnected, not failed; the same
// instance's next Hello gives it back (running), and the next run still waits.
TEST_F(ControlTest, DisconnectMidRunLeavesTheRunDisconnectedUntilTheSameInstanceIsBack) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  start(box, r1);
  disconnect(box, "connection reset by peer");
  EXPECT_EQ(state_of(r1), "disconnected");
  EXPECT_EQ(store_.queued_run(r1)->reason, "agent box1 disconnected: connection reset by peer");
  EXPECT_GT(store_.queued_run(r1)->disconnected_at_ns, 0);
  EXPECT_EQ(store_.runs(r1).at(0).status, "running");
  EXPECT_EQ(state_of(r2), "queued");
  EXPECT_EQ(call_json("GET", "/api/v1/runs", 200)["runs"][0]["state"], "disconnected");

  reconnect(box);
  EXPECT_EQ(state_of(r1), "running");
  EXPECT_EQ(store_.queued_run(r1)->reason, "");
  EXPECT_EQ(store_.queued_run(r1)->disconnected_at_ns, 0);
  EXPECT_TRUE(box.channel->started().empty());  // its RunStarted is stored: no StartRun again
  v1::Envelope done = envelope(box);
  done.mutable_run_finished()->set_run_id(r1);
  done.mutable_run_finished()->set_status(v1::STATUS_OK);
  deliver(done);
  EXPECT_EQ(state_of(r1), "ok");
  EXPECT_EQ(box.channel->started(), StringList{r2});  // then the next one
}

// A run whose RunStarted the host never stored gets its StartRun again (the
// agent ignores one it already has).
TEST_F(ControlTest, ResumeSendsTheStartRunAgainWhenNoRunStartedIsStored) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  EXPECT_EQ(store_.queued_run(run)->instance_id, box.instance);
  disconnect(box, "read: End of file");
  reconnect(box);
  EXPECT_EQ(state_of(run), "running");
  EXPECT_EQ(box.channel->started(), StringList{run});
  EXPECT_EQ(box.channel->sent().back().start_run().plan().name(), "quick");
}

// Another instance of the agent (it restarted): the run is interrupted with
// the reason, the next run starts; the new instance's RunFinished (contract
// 5) still sets the verdict, since interrupted is not final.
TEST_F(ControlTest, AnotherInstanceInterruptsTheRunAndItsRunFinishedStillSetsTheStatus) {
  Agent box{"box1"};
  connect(box);
  const std::string old_instance = box.instance;
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  start(box, r1);
  disconnect(box, "connection reset by peer");
  connect(box);  // a new instance
  const std::string why =
      "agent box1 restarted (instance " + box.instance + " replaced " + old_instance + ")";
  EXPECT_EQ(state_of(r1), "interrupted");
  EXPECT_EQ(store_.queued_run(r1)->reason, why);
  EXPECT_EQ(store_.runs(r1).at(0).status, "interrupted");
  EXPECT_EQ(store_.runs(r1).at(0).reason, why);
  EXPECT_EQ(box.channel->started(), StringList{r2});

  v1::Envelope report = envelope(box);
  report.mutable_run_finished()->set_run_id(r1);
  report.mutable_run_finished()->set_status(v1::STATUS_FAILED);
  report.mutable_run_finished()->set_reason("agent restarted; boot_id unchanged");
  deliver(report);
  EXPECT_EQ(state_of(r1), "failed");
  EXPECT_EQ(store_.runs(r1).at(0).status, "failed");
  EXPECT_EQ(store_.runs(r1).at(0).reason, "agent restarted; boot_id unchanged");
  EXPECT_EQ(state_of(r2), "running");  // the other run is untouched
}

// contract 6: an abort of a disconnected run is noted and goes out on the
// same instance's next Hello; its RunFinished carries the note.
TEST_F(ControlTest, AbortOfADisconnectedRunIsSentOnTheSameInstancesNextHello) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  start(box, run);
  disconnect(box, "connection reset by peer");
  std::shared_ptr<FakeChannel> old = box.channel;
  EXPECT_EQ(call_json("POST", "/api/v1/runs/" + run + "/abort", 200)["state"], "aborting");
  EXPECT_TRUE(old->aborted().empty());
  EXPECT_EQ(state_of(run), "disconnected");
  EXPECT_EQ(store_.queued_run(run)->abort_note, "aborted by operator 'alice'");
  EXPECT_EQ(call_json("GET", "/api/v1/runs", 200)["runs"][0]["reason"],
            "agent box1 disconnected: connection reset by peer; abort pending (aborted by "
            "operator 'alice'): sent when the agent is back");

  reconnect(box);
  EXPECT_EQ(box.channel->aborted(), StringList{run});
  EXPECT_EQ(box.channel->sent().back().abort().reason(), "aborted by operator 'alice'");
  EXPECT_EQ(state_of(run), "running");
  EXPECT_EQ(store_.queued_run(run)->reason, "aborted by operator 'alice'");
  EXPECT_EQ(call_json("GET", "/api/v1/runs", 200)["runs"][0]["state"], "aborting");
  v1::Envelope done = envelope(box);
  done.mutable_run_finished()->set_run_id(run);
  done.mutable_run_finished()->set_status(v1::STATUS_ABORTED);
  done.mutable_run_finished()->set_reason("aborted after iteration 1 of 3");
  deliver(done);
  EXPECT_EQ(state_of(run), "aborted");
  EXPECT_EQ(store_.runs(run).at(0).reason,
            "aborted by operator 'alice' (aborted after iteration 1 of 3)");
}

// An abort of an interrupted run ends it: nobody else will.
TEST_F(ControlTest, AbortOfAnInterruptedRunEndsIt) {
  Agent box{"box1"};
  connect(box);
  const std::string run = submit({"box1"}).at(0);
  disconnect(box, "gone");
  connect(box);  // another instance
  ASSERT_EQ(state_of(run), "interrupted");
  EXPECT_EQ(call_json("POST", "/api/v1/runs/" + run + "/abort", 200)["state"], "aborted");
  EXPECT_EQ(state_of(run), "aborted");
  EXPECT_EQ(store_.queued_run(run)->reason, "aborted by operator 'alice'");
  EXPECT_TRUE(box.channel->aborted().empty());
}

// serve --interrupt-after: a run disconnected longer than that is interrupted.
TEST_F(ControlTest, ARunDisconnectedLongerThanInterruptAfterIsInterrupted) {
  control::ControlOptions options;
  options.interrupt_after = std::chrono::seconds(1);
  options.sweep_interval = std::chrono::milliseconds(50);
  make_control(false, options);
  Agent box{"box1"}, other{"box2"};
  connect(box);
  connect(other);
  const std::string run = submit({"box1"}).at(0), kept = submit({"box2"}).at(0);
  disconnect(box, "connection timed out");
  ioc_.restart();
  ioc_.run_for(std::chrono::milliseconds(600));
  EXPECT_EQ(state_of(run), "disconnected");  // not yet
  ioc_.restart();
  ioc_.run_for(std::chrono::milliseconds(900));
  EXPECT_EQ(state_of(run), "interrupted");
  EXPECT_EQ(store_.queued_run(run)->reason, "agent box1 disconnected for more than 1 s");
  EXPECT_EQ(state_of(kept), "running");  // its agent never left

  // The same instance back after all: its run is its own again.
  reconnect(box);
  EXPECT_EQ(state_of(run), "running");
  EXPECT_EQ(box.channel->started(), StringList{run});
}

// SIGTERM to serve: the run in progress is "disconnected" as "serve stopped"
// (not as its agent's close that follows) and the next queued run stays queued.
TEST_F(ControlTest, StoppingLeavesTheRunningRunDisconnectedAndStartsNoOther) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  start(box, r1);
  control_->stopping("serve stopped");
  disconnect(box, "closed by the host");
  EXPECT_EQ(state_of(r1), "disconnected");
  EXPECT_EQ(store_.queued_run(r1)->reason, "serve stopped");
  EXPECT_EQ(store_.runs(r1).at(0).status, "running");
  EXPECT_EQ(state_of(r2), "queued");
  EXPECT_EQ(box.channel->started(), StringList{r1});
}

TEST_F(ControlTest, CloseOfAReplacedConnectionChangesNothing) {
  Agent box{"box1"};
  connect(box);
  std::shared_ptr<FakeChannel> old = box.channel;
  connect(box);  // a new connection took over, then the old one closes
  const std::string run = submit({"box1"}).at(0);
  control_->on_closed(*old, "box1", "replaced");
  EXPECT_EQ(state_of(run), "running");
  EXPECT_EQ(box.channel->started(), StringList{run});
  EXPECT_TRUE(old->sent().empty());
}

TEST_F(ControlTest, AgentErrorForItsRunFailsItAndStartsTheNext) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  v1::Envelope error = envelope(box);
  error.mutable_error()->set_code(v1::ERROR_BAD_PLAN);
  error.mutable_error()->set_message("cases[0]: placement node:7: no such node");
  error.mutable_error()->set_run_id(r1);
  deliver(error);
  EXPECT_EQ(state_of(r1), "failed");
  EXPECT_EQ(store_.queued_run(r1)->reason,
            "the agent rejected the run: cases[0]: placement node:7: no such node");
  EXPECT_EQ(box.channel->started(), (StringList{r1, r2}));
}

// serve restarted: dispatched rows are disconnected ("serve restarted"), not
// failed; the same instance takes its run back, queued runs stay queued.
TEST_F(ControlTest, RestartKeepsQueuedRunsAndDisconnectsDispatchedOnes) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  EXPECT_EQ(state_of(r1), "running");
  make_control();  // serve restarted
  EXPECT_EQ(state_of(r1), "disconnected");
  EXPECT_EQ(store_.queued_run(r1)->reason, "serve restarted");
  EXPECT_EQ(state_of(r2), "queued");
  reconnect(box);
  EXPECT_EQ(state_of(r1), "running");
  EXPECT_EQ(box.channel->started(), StringList{r1});  // no RunStarted stored: sent again
  make_control();  // and again, but this time the agent restarted too
  connect(box);
  EXPECT_EQ(state_of(r1), "interrupted");
  EXPECT_EQ(box.channel->started(), StringList{r2});
}

TEST_F(ControlTest, SharedStoreLeavesTheQueueAloneAndStartsOnlyItsOwnRuns) {
  Agent box{"box1"};
  connect(box);
  const std::string r1 = submit({"box1"}).at(0), r2 = submit({"box1"}).at(0);
  make_control(/*shared_store=*/true);  // a lab on serve's store
  EXPECT_EQ(state_of(r1), "running");   // not failed: serve may still run it
  Agent lab{"box1"};
  connect(lab);
  EXPECT_TRUE(lab.channel->sent().empty());  // r2 is serve's to start
  control::Submission s;
  s.agents = {"box1"};
  s.plan = parse_plan_yaml(kPlanYaml, "lab.yaml");
  s.plan_name = "lab.yaml";
  s.run_id = "0c9d3a57-4b1e-4f6a-9a2b-3c4d5e6f7a8b";
  std::vector<control::SubmittedRun> runs = control_->submit(s, "lab");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_id, s.run_id);
  EXPECT_EQ(runs[0].queue_position, 2);  // r1 and r2 are ahead in the queue, not started here
  EXPECT_EQ(lab.channel->started(), StringList{s.run_id});
  EXPECT_EQ(state_of(r2), "queued");
  EXPECT_EQ(store_.queued_run(s.run_id)->submitted_by, "lab");
}

}  // namespace
}  // namespace schedrig::testing
