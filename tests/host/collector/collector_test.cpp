// The collector over real WebSockets on loopback, behind the server's token
// check: storing and acking, bad frames answered with Error while other
// agents carry on, oversize frames closed with 1009, and the session rules
// (docs/architecture.md "Wire protocol", "Server").
#include "host/collector/collector.h"

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "agent/link/host_link.h"
#include "common/envelope_codec.h"
#include "common/ids.h"
#include "tests/host/server/test_server.h"

namespace schedrig::collector {
namespace {

using namespace std::chrono_literals;
using namespace schedrig::testing;
namespace v1 = schedrig::v1;

// True when the store has no Hello of `agent`: nothing of a refused
// connection reached the agents table.
bool no_agent(store::Store& store, const std::string& agent) {
  for (const auto& a : store.agents()) {
    if (a.agent_id == agent) return false;
  }
  return true;
}

TEST(Collector, StoresAndAcksAnEnvelope) {
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  ASSERT_FALSE(c.error()) << c.error().message();
  c.send(hello("box1", 1));
  v1::Envelope ack = c.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().instance_id(), "inst-box1");
  EXPECT_EQ(ack.ack().seq(), 1u);
  EXPECT_EQ(ack.agent_id(), "box1");
  EXPECT_FALSE(no_agent(server.store, "box1"));
}

TEST(Collector, ARepeatOnANewConnectionIsAckedButStoredOnce) {
  TestServer server;
  {
    AgentClient c(server.port(), kBox1Token);
    c.send(hello("box1", 1));
    EXPECT_TRUE(c.read().has_ack());
  }
  EXPECT_EQ(server.store.ingest(hello("box1", 1), encode_envelope(hello("box1", 1))),
            store::Store::Ingest::kDuplicate);
  AgentClient again(server.port(), kBox1Token);  // a reconnect resends its Hello
  again.send(hello("box1", 1));
  v1::Envelope ack = again.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().seq(), 1u);
}

TEST(Collector, GarbageGetsAnErrorAndEveryoneCarriesOn) {
  TestServer server;
  AgentClient bad(server.port(), kBox1Token);
  AgentClient good(server.port(), kBox2Token);
  bad.send_bytes(std::string("\xff\xff\xff\xff garbage \x01\x02", 16));
  v1::Envelope err = bad.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNDECODABLE);
  EXPECT_NE(err.error().message().find("do not decode"), std::string::npos)
      << err.error().message();
  // The other agent is served...
  good.send(hello("box2", 1));
  EXPECT_TRUE(good.read().has_ack());
  // ...and so is the one that sent garbage.
  bad.send(hello("box1", 1));
  EXPECT_TRUE(bad.read().has_ack());
}

TEST(Collector, WrongVersionAndMissingIdsGetErrors) {
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  v1::Envelope env = hello("box1", 1);
  env.set_protocol_version(9);
  c.send(env);
  v1::Envelope err = c.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNSUPPORTED_VERSION);
  c.send(hello("box1", 0));  // seq 0 is never valid agent->host
  err = c.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNEXPECTED);
  c.send(hello("box1", 1));  // and the session goes on
  EXPECT_TRUE(c.read().has_ack());
}

TEST(Collector, OversizeMessageIsClosedWith1009) {
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  c.send_bytes(std::string(kMaxEnvelopeBytes + 1, 'x'));
  beast::error_code ec;
  c.read(ec);
  EXPECT_EQ(ec, websocket::error::closed) << ec.message();
  EXPECT_EQ(c.ws().reason().code, websocket::close_code::too_big);
  AgentClient next(server.port(), kBox2Token);  // still accepting
  next.send(hello("box2", 1));
  EXPECT_TRUE(next.read().has_ack());
}

// Queues run `run_id` for box1 (by alice) and marks it dispatched to
// `instance` ("" = none recorded), as the control plane would.
void dispatch(TestServer& server, const std::string& run_id, const std::string& instance = "") {
  store::QueuedRun queued;
  queued.run_id = run_id;
  queued.agent_id = "box1";
  queued.plan_name = "p.yaml";
  queued.submitted_by = "alice";
  server.store.enqueue_run(queued);
  server.store.mark_run_dispatched(run_id, instance);
}

// Reads until the link ends; the Error seen before the close, if any.
std::optional<v1::Error> error_then_close(AgentClient& c, beast::error_code& ec) {
  std::optional<v1::Error> error;
  for (int i = 0; i < 10; ++i) {
    v1::Envelope env = c.read(ec);
    if (ec) break;
    if (env.has_error()) error = env.error();
  }
  return error;
}

TEST(Collector, ForgedAgentIdIsRefusedAndNothingStored) {
  TestServer server;
  AgentClient mallory(server.port(), kBox2Token);  // box2's token, box1's id
  mallory.send(hello("box1", 1));
  beast::error_code ec;
  auto error = error_then_close(mallory, ec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), v1::ERROR_NOT_OWNER);
  EXPECT_NE(error->message().find("box1"), std::string::npos) << error->message();
  EXPECT_EQ(ec, websocket::error::closed) << ec.message();
  EXPECT_EQ(mallory.ws().reason().code, websocket::close_code::policy_error);
  EXPECT_TRUE(no_agent(server.store, "box1"));
  EXPECT_TRUE(no_agent(server.store, "box2"));
  // Not stored: the store takes it as new.
  EXPECT_EQ(server.store.ingest(hello("box1", 1), encode_envelope(hello("box1", 1))),
            store::Store::Ingest::kStored);
}

TEST(Collector, HelloComesFirst) {
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  v1::Envelope topo = stamped("box1", 1);
  topo.mutable_topology();
  c.send(topo);
  beast::error_code ec;
  auto error = error_then_close(c, ec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), v1::ERROR_UNEXPECTED);
  EXPECT_NE(error->message().find("Hello comes first"), std::string::npos) << error->message();
  EXPECT_EQ(c.ws().reason().code, websocket::close_code::policy_error);
  EXPECT_EQ(server.store.ingest(topo, encode_envelope(topo)), store::Store::Ingest::kStored);
}

TEST(Collector, AgentMayNotSendHostMessages) {
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  v1::Envelope env = stamped("box1", 1);
  env.mutable_start_run()->set_run_id("r");
  c.send(env);
  v1::Envelope err = c.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNEXPECTED);
}

// A run envelope of `agent` (instance "inst-AGENT" unless given) for `run_id`.
v1::Envelope run_started(const std::string& agent, std::uint64_t seq, const std::string& run_id,
                         const std::string& instance = "") {
  v1::Envelope env = stamped(agent, seq, instance);
  env.mutable_run_started()->set_run_id(run_id);
  return env;
}

TEST(Collector, ARunNotQueuedForTheAgentIsRefused) {
  TestServer server;
  dispatch(server, "run-of-box1");
  AgentClient box1(server.port(), kBox1Token);
  box1.send(hello("box1", 1));
  ASSERT_TRUE(box1.read().has_ack());
  box1.send(run_started("box1", 2, "run-of-box1"));
  EXPECT_TRUE(box1.read().has_ack());
  // box2 speaks for its own id, but of box1's run.
  AgentClient box2(server.port(), kBox2Token);
  box2.send(hello("box2", 1));
  ASSERT_TRUE(box2.read().has_ack());
  v1::Envelope finish = stamped("box2", 2);
  finish.mutable_run_finished()->set_run_id("run-of-box1");
  finish.mutable_run_finished()->set_status(v1::STATUS_OK);
  box2.send(finish);
  beast::error_code ec;
  auto error = error_then_close(box2, ec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), v1::ERROR_NOT_OWNER);
  // box2 hears what it did, not whose run it is nor where the store is.
  EXPECT_EQ(error->message(),
            "run_finished (seq 2) for run run-of-box1, which is not this "
            "agent's: refused");
  EXPECT_EQ(box2.ws().reason().code, websocket::close_code::policy_error);
  EXPECT_EQ(server.store.queued_run("run-of-box1")->state, "running");  // not finished by box2
  // A run nobody queued, from its own agent (a spool older than the store):
  // that envelope alone is refused, told and acked; the session goes on.
  box1.send(run_started("box1", 3, "run-of-nobody"));
  const v1::Envelope told = box1.read();
  ASSERT_TRUE(told.has_error());
  EXPECT_EQ(told.error().code(), v1::ERROR_NOT_OWNER);
  EXPECT_EQ(told.error().message(),
            "run_started (seq 3) for run run-of-nobody, which this host does not know: refused");
  const v1::Envelope acked = box1.read();
  ASSERT_TRUE(acked.has_ack());
  EXPECT_EQ(acked.ack().seq(), 3u);
  EXPECT_TRUE(server.store.run_ids("run-of-nobody").empty());
  v1::Envelope log = stamped("box1", 4);
  log.mutable_log()->set_message("still here");
  box1.send(log);
  EXPECT_EQ(box1.read().ack().seq(), 4u);
}

// box1 forges the run queued behind its current one: refused, the run
// stays queued and gets no runs row.
TEST(Collector, ARunNotDispatchedYetIsRefused) {
  TestServer server;
  store::QueuedRun queued;
  queued.agent_id = "box1";
  queued.plan_name = "p.yaml";
  queued.submitted_by = "alice";
  for (const char* id : {"run-now", "run-next"}) {
    queued.run_id = id;
    server.store.enqueue_run(queued);
  }
  server.store.mark_run_dispatched("run-now");
  AgentClient box1(server.port(), kBox1Token);
  box1.send(hello("box1", 1));
  ASSERT_TRUE(box1.read().has_ack());
  box1.send(run_started("box1", 2, "run-next"));
  beast::error_code ec;
  auto error = error_then_close(box1, ec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), v1::ERROR_NOT_OWNER);
  EXPECT_EQ(error->message(),
            "run_started (seq 2) for run run-next, which is not dispatched to this agent yet: "
            "refused");
  EXPECT_EQ(server.store.queued_run("run-next")->state, "queued");
  EXPECT_TRUE(server.store.run_ids("run-next").empty());
}

// 150 Logs without a run, stamped in 2100: the first 100 are stored, the
// rest dropped but acked (the agent must not resend them), and last_seen is
// the host's clock, not the stamp.
TEST(Collector, RunlessLogsAreBoundedAndLastSeenIsTheHostsClock) {
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  c.send(hello("box1", 1));
  ASSERT_TRUE(c.read().has_ack());
  const long long year_2100_ns = 4102444800LL * 1000000000LL;
  auto line = [&](std::uint64_t seq) {
    v1::Envelope env = stamped("box1", seq);
    env.set_sent_at_ns(year_2100_ns);
    env.mutable_log()->set_message("line " + std::to_string(seq));
    return env;
  };
  for (std::uint64_t seq = 2; seq <= 151; ++seq) c.send(line(seq));
  std::uint64_t acked = 0;
  while (acked < 151) {
    v1::Envelope env = c.read();
    ASSERT_TRUE(env.has_ack()) << env.DebugString();
    acked = env.ack().seq();
  }
  EXPECT_EQ(acked, 151u);
  EXPECT_EQ(server.store.ingest(line(101), encode_envelope(line(101))),
            store::Store::Ingest::kDuplicate);  // the 100th: stored
  EXPECT_EQ(server.store.ingest(line(102), encode_envelope(line(102))),
            store::Store::Ingest::kStored);  // the 101st: was dropped
  const std::vector<store::AgentRecord> agents = server.store.agents();
  ASSERT_EQ(agents.size(), 1u);
  EXPECT_GT(agents[0].last_seen_ns, 0);
  EXPECT_LE(agents[0].last_seen_ns, wall_clock_ns());
}

// A WebSocket that never says Hello is closed 1008 at the deadline, and
// counts as pending until then: the per-peer cap refuses one more.
TEST(Collector, NoHelloWithinTheDeadlineIsClosed) {
  TestServerConfig config;
  config.timing.hello_timeout = 300ms;
  TestServer server(config);
  AgentClient silent(server.port(), kBox1Token);
  beast::error_code ec;
  silent.read(ec);
  EXPECT_EQ(ec, websocket::error::closed) << ec.message();
  EXPECT_EQ(silent.ws().reason().code, websocket::close_code::policy_error);
  EXPECT_EQ(std::string(silent.ws().reason().reason.c_str()), "no Hello within 300 ms");
  AgentClient speaks(server.port(), kBox1Token);  // one that does is served
  speaks.send(hello("box1", 1));
  EXPECT_TRUE(speaks.read().has_ack());
}

TEST(Collector, AnotherAgentsInstanceIsRefused) {
  TestServer server;
  AgentClient box1(server.port(), kBox1Token);
  box1.send(hello("box1", 1, "inst-1"));
  ASSERT_TRUE(box1.read().has_ack());
  AgentClient box2(server.port(), kBox2Token);
  box2.send(hello("box2", 5, "inst-1"));  // seq squatting on box1's instance
  beast::error_code ec;
  auto error = error_then_close(box2, ec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), v1::ERROR_NOT_OWNER);
  EXPECT_EQ(error->message(), "hello (seq 5): instance inst-1 is not this agent's: refused");
  EXPECT_TRUE(no_agent(server.store, "box2"));
  v1::Envelope line = stamped("box1", 5, "inst-1");
  line.mutable_log()->set_message("box1's own seq 5 is still new");
  box1.send(line);
  v1::Envelope ack = box1.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().seq(), 5u);
}

// What the collector tells its owner, for the replay tests.
class RecordingEvents : public CollectorEvents {
 public:
  void on_hello(const std::shared_ptr<AgentChannel>& channel, const v1::Envelope&) override {
    std::lock_guard lock(mu_);
    hellos_.push_back(channel->instance_id());
  }
  void on_stored(const v1::Envelope& env) override {
    std::lock_guard lock(mu_);
    stored_.push_back(body_name(env) + "@" + env.instance_id());
  }
  void on_closed(const AgentChannel& channel, const std::string& agent_id,
                 const std::string&) override {
    std::lock_guard lock(mu_);
    closed_.push_back(channel.instance_id() + ":" + agent_id);
  }
  std::vector<std::string> hellos() const { return copy(hellos_); }
  std::vector<std::string> stored() const { return copy(stored_); }
  std::vector<std::string> closed() const { return copy(closed_); }

 private:
  std::vector<std::string> copy(const std::vector<std::string>& v) const {
    std::lock_guard lock(mu_);
    return v;
  }
  mutable std::mutex mu_;
  std::vector<std::string> hellos_, stored_, closed_;
};

// contract 1: a `?replay=1` session (an older instance's spool) is stored
// and acked under the session rules, but claims no id (the live session
// keeps it), is never live (no on_hello: the control plane sends it no run)
// and closes with agent_id "" (no run of it is disconnected).
TEST(Collector, AReplaySessionStoresAndAcksButIsNeverLive) {
  RecordingEvents events;
  TestServerConfig config;
  config.events = &events;
  TestServer server(config);
  dispatch(server, "run-of-old", "old-box1");
  const v1::Envelope old_hello = hello("box1", 1, "old-box1");  // seen live before
  server.store.ingest(old_hello, encode_envelope(old_hello));
  AgentClient live(server.port(), kBox1Token);
  live.send(hello("box1", 1, "new-box1"));
  ASSERT_TRUE(live.read().has_ack());
  {
    AgentClient replay(server.port(), kBox1Token, nullptr, "/agent?replay=1");
    ASSERT_FALSE(replay.error()) << replay.error().message();
    replay.send(old_hello);
    ASSERT_TRUE(replay.read().has_ack());
    replay.send(run_started("box1", 2, "run-of-old", "old-box1"));
    v1::Envelope finish = stamped("box1", 3, "old-box1");
    finish.mutable_run_finished()->set_run_id("run-of-old");
    finish.mutable_run_finished()->set_status(v1::STATUS_FAILED);
    finish.mutable_run_finished()->set_dropped_samples(7);
    replay.send(finish);
    std::uint64_t acked = 0;
    while (acked < 3) {
      v1::Envelope ack = replay.read();
      ASSERT_TRUE(ack.has_ack());
      EXPECT_EQ(ack.ack().instance_id(), "old-box1");
      acked = ack.ack().seq();
    }
    replay.ws().close(websocket::close_code::normal);
  }
  // The live session still holds the id and is served.
  v1::Envelope line = stamped("box1", 2, "new-box1");
  line.mutable_log()->set_message("still live");
  live.send(line);
  v1::Envelope ack = live.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().seq(), 2u);
  for (int i = 0; i < 100 && events.closed().empty(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(events.hellos(), std::vector<std::string>{"new-box1"});
  EXPECT_EQ(events.closed(), std::vector<std::string>{"old-box1:"});
  const std::vector<std::string> stored = events.stored();
  EXPECT_NE(std::find(stored.begin(), stored.end(), "run_finished@old-box1"), stored.end());
  EXPECT_EQ(server.store.queued_run("run-of-old")->state, "failed");
  EXPECT_EQ(server.store.runs("run-of-old").at(0).dropped_samples, 7u);
}

// A replay session may only replay: an instance this host never saw live
// is refused, and so is a replayed write into a run another instance of
// the agent is running (review: a forged replay ended a live run "ok").
TEST(Collector, AReplayOfAnUnseenInstanceOrIntoAnotherInstancesRunIsRefused) {
  TestServer server;
  dispatch(server, "run-of-live", "live-box1");
  beast::error_code ec;
  {
    AgentClient unseen(server.port(), kBox1Token, nullptr, "/agent?replay=1");
    unseen.send(hello("box1", 1, "never-seen"));
    const auto error = error_then_close(unseen, ec);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code(), v1::ERROR_NOT_OWNER);
    EXPECT_EQ(unseen.ws().reason().code, websocket::close_code::policy_error);
  }
  const v1::Envelope old_hello = hello("box1", 1, "old-box1");
  server.store.ingest(old_hello, encode_envelope(old_hello));
  AgentClient replay(server.port(), kBox1Token, nullptr, "/agent?replay=1");
  replay.send(old_hello);
  ASSERT_TRUE(replay.read().has_ack());
  v1::Envelope forged = stamped("box1", 2, "old-box1");
  forged.mutable_run_finished()->set_run_id("run-of-live");
  forged.mutable_run_finished()->set_status(v1::STATUS_OK);
  replay.send(forged);
  const auto error = error_then_close(replay, ec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), v1::ERROR_NOT_OWNER);
  EXPECT_EQ(server.store.queued_run("run-of-live")->state, "running");
}

// contract 3: the server's stop closes with 1000 (lab: the agent exits),
// or with 1001 going away once asked (serve's shutdown: agents reconnect).
TEST(Collector, StopClosesWith1000Or1001GoingAway) {
  for (bool going_away : {false, true}) {
    SCOPED_TRACE(going_away ? "serve" : "lab");
    TestServer server;
    AgentClient c(server.port(), kBox1Token);
    c.send(hello("box1", 1));
    ASSERT_TRUE(c.read().has_ack());
    if (going_away) server.collector().close_going_away_on_stop();
    server.listener().stop();
    beast::error_code ec;
    error_then_close(c, ec);
    EXPECT_EQ(ec, websocket::error::closed) << ec.message();
    EXPECT_EQ(c.ws().reason().code,
              going_away ? websocket::close_code::going_away : websocket::close_code::normal);
  }
}

TEST(HostLink, UnreachableHostNamesTheUrl) {
  // Port 1 on loopback: nothing listens there.
  link::HostLink link({"a", "b", "c"});
  try {
    link.connect("ws://127.0.0.1:1/agent", 2s);
    FAIL() << "expected LinkError";
  } catch (const link::LinkError& e) {
    EXPECT_NE(std::string(e.what()).find("ws://127.0.0.1:1/agent"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("refused"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace schedrig::collector
