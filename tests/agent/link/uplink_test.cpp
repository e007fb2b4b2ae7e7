// The uplink against a fake collector (fake_collector.h): it dials a host
// that is not up yet, survives cuts replaying in seq order with nothing lost
// and nothing resent after an Ack, replays an older instance on its own
// `?replay=1` connection Hello first, drops samples but holds results when
// the spool is full, and gives up only when told to.
#include "agent/link/uplink.h"

#include <map>
#include <thread>

#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "tests/agent/link/fake_collector.h"
#include "tests/support/run_command.h"

namespace schedrig::link {
namespace {

using namespace std::chrono_literals;
using testing::FakeCollector;
using testing::Received;
using testing::TempDir;
namespace v1 = schedrig::v1;
namespace websocket = boost::beast::websocket;

v1::Envelope hello() {
  v1::Envelope env;
  env.mutable_hello()->set_hostname("box");
  return env;
}
v1::Envelope topology() {
  v1::Envelope env;
  env.mutable_topology()->set_pus(4);
  return env;
}
v1::Envelope log_line(int i) {
  v1::Envelope env;
  env.mutable_log()->set_message("line " + std::to_string(i));
  return env;
}

UplinkOptions fast_options(const std::string& url) {
  UplinkOptions o;
  o.url = url;
  o.connect_timeout = 2s;
  o.backoff = BackoffPolicy{20ms, 200ms, 10s};
  o.backoff_seed = 1;
  return o;
}

// An agent instance: its spool in a temporary state dir, its uplink.
struct Agent {
  explicit Agent(UplinkOptions o, std::string instance = "inst-new", spool::SpoolOptions so = {},
                 const std::string& dir = "")
      : spool(dir.empty() ? tmp.file("spool") : dir, so),
        link(std::move(o), AgentIdentity{"box", "boot", std::move(instance)}, spool) {}
  TempDir tmp;
  spool::Spool spool;
  Uplink link;
};

// The envelopes of `instance` the collector got, per connection.
std::map<int, std::vector<v1::Envelope>> by_connection(const std::vector<Received>& got,
                                                       const std::string& instance) {
  std::map<int, std::vector<v1::Envelope>> out;
  for (const auto& r : got)
    if (r.env.instance_id() == instance) out[r.connection].push_back(r.env);
  return out;
}

// Every connection starts with the Hello (seq 1) and its seqs rise.
void expect_hello_first_and_rising(const std::vector<Received>& got, const std::string& inst) {
  for (const auto& [conn, envs] : by_connection(got, inst)) {
    ASSERT_FALSE(envs.empty());
    EXPECT_TRUE(envs[0].has_hello()) << "connection " << conn;
    EXPECT_EQ(envs[0].seq(), 1u) << "connection " << conn;
    for (std::size_t i = 1; i < envs.size(); ++i)
      EXPECT_GT(envs[i].seq(), envs[i - 1].seq()) << "connection " << conn;
  }
}

// True once the collector holds every seq 1..n of `instance`.
auto has_all(const std::string& instance, std::uint64_t n) {
  return [instance, n](const std::vector<Received>& got) {
    std::set<std::uint64_t> seqs;
    for (const auto& r : got)
      if (r.env.instance_id() == instance) seqs.insert(r.env.seq());
    return seqs.size() == n && *seqs.rbegin() == n;
  };
}

// wait_acked() returns at once while the link is down: this keeps asking
// (through reconnects) until `seq` is acked or `timeout` passed.
bool acked_within(Uplink& link, std::uint64_t seq, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (!link.wait_acked(seq, 100ms)) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

TEST(Uplink, AnAgentStartedBeforeTheHostConnectsWhenItComesUp) {
  const unsigned short port = testing::free_port();
  Agent a(fast_options("ws://127.0.0.1:" + std::to_string(port) + "/agent"));
  a.link.start(hello(), topology());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a.link.send(log_line(i)), 3u + static_cast<unsigned>(i));
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(a.link.live());
  EXPECT_EQ(a.link.end(), UplinkEnd::kOpen);  // still trying
  FakeCollector host(port);
  ASSERT_TRUE(host.wait_for(has_all("inst-new", 5), 5s));
  const auto got = host.received();
  ASSERT_EQ(got.size(), 5u);  // Hello, Topology, three Logs: once each
  EXPECT_EQ(got[0].target, "/agent");
  EXPECT_TRUE(got[1].env.has_topology());
  EXPECT_EQ(got[4].env.log().message(), "line 2");
  EXPECT_TRUE(a.link.wait_acked(5, 2s));
  EXPECT_TRUE(a.link.live());
  EXPECT_EQ(a.link.send(log_line(3)), 6u);  // live: straight to the wire
  EXPECT_TRUE(host.wait_for(has_all("inst-new", 6), 2s));
}

TEST(Uplink, ACutMidStreamReconnectsAndReplaysInSeqOrderLosingNothing) {
  FakeCollector host;
  Agent a(fast_options(host.url()));
  a.link.start(hello(), topology());
  constexpr int kThreads = 3;  // the runner and the sampler send at once
  constexpr int kEach = 200;
  constexpr int kLogs = kThreads * kEach;
  std::vector<std::thread> senders;
  for (int t = 0; t < kThreads; ++t) {
    senders.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        a.link.send(log_line(i));
        if (i % 20 == 0) std::this_thread::sleep_for(10ms);
      }
    });
  }
  for (int cut = 0; cut < 3; ++cut) {
    std::this_thread::sleep_for(60ms);
    host.cut();
  }
  for (auto& t : senders) t.join();
  const std::uint64_t last = kLogs + 2;
  ASSERT_TRUE(host.wait_for(has_all("inst-new", last), 8s));
  const auto got = host.received();
  expect_hello_first_and_rising(got, "inst-new");
  EXPECT_GE(by_connection(got, "inst-new").size(), 2u);  // it did reconnect
  ASSERT_TRUE(acked_within(a.link, last, 5s));
  EXPECT_TRUE(a.spool.pending().empty());  // every envelope acked: nothing left to replay

  // Everything acked: after one more cut only the Hello goes again.
  std::this_thread::sleep_for(100ms);
  const std::size_t before = host.received().size();
  host.cut();
  ASSERT_TRUE(host.wait_for([&](const auto& g) { return g.size() > before; }, 3s));
  std::this_thread::sleep_for(200ms);
  const auto after = host.received();
  ASSERT_EQ(after.size(), before + 1);
  EXPECT_TRUE(after.back().env.has_hello());
}

// An earlier instance's unacked envelopes: replayed first, on their own
// connection with ?replay=1, its Hello (original seq) first, acked ones not.
TEST(Uplink, AnOlderInstanceIsReplayedOnAReplayConnectionHelloFirst) {
  TempDir state;
  const std::string dir = state.file("spool");
  {
    spool::Spool old(dir);
    const AgentIdentity id{"box", "boot-0", "inst-old"};
    std::uint64_t seq = 0;
    for (v1::Envelope env : {hello(), topology(), log_line(0), log_line(1), log_line(2)}) {
      stamp_envelope(env, id, ++seq);
      old.append(env);
    }
    old.ack("inst-old", 3);  // Hello, Topology and the first Log are stored
  }
  FakeCollector host;
  Agent a(fast_options(host.url()), "inst-new", {}, dir);
  a.link.start(hello(), topology());
  ASSERT_TRUE(host.wait_for(has_all("inst-new", 2), 5s));
  const auto got = host.received();
  ASSERT_GE(got.size(), 5u);
  EXPECT_EQ(got[0].target, "/agent?replay=1");
  EXPECT_EQ(got[0].env.instance_id(), "inst-old");
  EXPECT_TRUE(got[0].env.has_hello());
  EXPECT_EQ(got[0].env.seq(), 1u);
  EXPECT_EQ(got[0].env.boot_id(), "boot-0");
  EXPECT_EQ(got[1].env.seq(), 4u);
  EXPECT_EQ(got[2].env.seq(), 5u);
  EXPECT_EQ(got[2].env.log().message(), "line 2");
  EXPECT_EQ(got[3].target, "/agent");
  EXPECT_NE(got[3].connection, got[0].connection);
  EXPECT_EQ(got[3].env.instance_id(), "inst-new");
  EXPECT_TRUE(got[3].env.has_hello());
  for (const auto& p : a.spool.pending()) EXPECT_NE(p.instance_id, "inst-old");
}

// Recovery can leave a gap in an instance's seqs (a damaged record set
// aside): the replay paces by envelopes written, not by seq distance, so a
// gap far wider than the window does not stall it (it waited for an Ack of
// seq 4990 that could never come).
TEST(Uplink, AGapInTheSpooledSeqsDoesNotStallTheReplay) {
  TempDir state;
  const std::string dir = state.file("spool");
  {
    spool::Spool old(dir);
    const AgentIdentity id{"box", "boot-0", "inst-gap"};
    std::vector<std::uint64_t> seqs = {1, 2, 3, 4, 5000, 5001, 5002};
    std::vector<v1::Envelope> envs = {hello(),     topology(),  log_line(0), log_line(1),
                                      log_line(2), log_line(3), log_line(4)};
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      stamp_envelope(envs[i], id, seqs[i]);
      old.append(envs[i]);
    }
  }
  FakeCollector host;
  UplinkOptions o = fast_options(host.url());
  o.replay_window = 2;
  Agent a(o, "inst-new", {}, dir);
  a.link.start(hello(), topology());
  ASSERT_TRUE(host.wait_for(has_all("inst-new", 2), 5s));
  std::vector<std::uint64_t> replayed;
  for (const auto& r : host.received())
    if (r.env.instance_id() == "inst-gap") replayed.push_back(r.env.seq());
  EXPECT_EQ(replayed, (std::vector<std::uint64_t>{1, 2, 3, 4, 5000, 5001, 5002}));
  for (const auto& p : a.spool.pending()) EXPECT_NE(p.instance_id, "inst-gap");
}

v1::Envelope result_of(const std::string& run_id, int i);

// An older instance's backlog filled the spool: the new instance's start()
// waits for room its replay frees instead of hanging before any connection.
TEST(Uplink, AnOlderBacklogThatFillsTheSpoolIsReplayedToMakeRoomForTheNewHello) {
  TempDir state;
  const std::string dir = state.file("spool");
  spool::SpoolOptions small;
  small.max_bytes = 64 * 1024;
  small.segment_bytes = 8 * 1024;
  std::uint64_t seq = 0;
  {
    spool::Spool old(dir, small);
    const AgentIdentity id{"box", "boot-0", "inst-old"};
    v1::Envelope h = hello();
    stamp_envelope(h, id, ++seq);
    old.append(h);
    for (int i = 0;; ++i) {
      v1::Envelope r = result_of("r0", i);
      stamp_envelope(r, id, seq + 1);
      if (old.append(r).outcome != spool::AppendOutcome::kStored) break;
      ++seq;
    }
  }
  FakeCollector host;
  Agent a(fast_options(host.url()), "inst-new", small, dir);
  v1::Envelope big = hello();  // bigger than what is left
  big.mutable_hello()->set_hostname(std::string(2048, 'h'));
  a.link.start(big, topology());  // returns once the replay freed room
  // Bounds for a loaded box under TSan (wait_for returns once it holds).
  ASSERT_TRUE(host.wait_for(has_all("inst-new", 2), 20s));
  EXPECT_TRUE(host.wait_for(has_all("inst-old", seq), 5s));
  EXPECT_EQ(host.received()[0].target, "/agent?replay=1");
}

v1::Envelope sample_of(const std::string& run_id) {
  v1::Envelope env;
  env.mutable_sample()->set_run_id(run_id);
  env.mutable_sample()->set_interval_s(0.1);
  return env;
}
v1::Envelope result_of(const std::string& run_id, int i) {
  v1::Envelope env;
  env.mutable_iteration_result()->set_run_id(run_id);
  env.mutable_iteration_result()->set_iteration(static_cast<std::uint32_t>(i));
  env.mutable_iteration_result()->set_reason(std::string(512, 'x'));
  return env;
}

// A host that takes but never acks: samples fill 7/8 of the spool and are
// dropped and counted; results then block in send until acks free room.
TEST(Uplink, AFullSpoolDropsSamplesAndHoldsResultsUntilAcksFreeRoom) {
  FakeCollector host;
  host.set_acking(false);
  spool::SpoolOptions small;
  small.max_bytes = 64 * 1024;
  small.segment_bytes = 8 * 1024;
  Agent a(fast_options(host.url()), "inst-new", small);
  a.link.start(hello(), topology());
  int dropped = 0;
  for (int i = 0; i < 4000 && dropped < 10; ++i) dropped += a.link.send(sample_of("r1")) == 0;
  EXPECT_EQ(dropped, 10);
  EXPECT_EQ(a.link.dropped_samples("r1"), 10u);
  EXPECT_EQ(a.link.dropped_samples("r2"), 0u);

  std::atomic<int> results{0};
  std::thread runner([&] {
    for (int i = 0; i < 40; ++i) {
      EXPECT_GT(a.link.send(result_of("r1", i)), 0u);
      ++results;
    }
  });
  std::this_thread::sleep_for(500ms);
  const int held = results.load();
  EXPECT_LT(held, 40);  // stalled: no room for the next result
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(results.load(), held);
  host.set_acking(true);
  host.ack_all();
  runner.join();
  EXPECT_EQ(results.load(), 40);
}

TEST(Uplink, GiveUpAfterEndsNeverConnectedOrLost) {
  UplinkOptions o =
      fast_options("ws://127.0.0.1:" + std::to_string(testing::free_port()) + "/agent");
  o.give_up_after = 300ms;
  Agent never(o);
  const auto t0 = std::chrono::steady_clock::now();
  never.link.start(hello(), topology());
  EXPECT_FALSE(never.link.next_command(3s));
  EXPECT_EQ(never.link.end(), UplinkEnd::kNeverConnected);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 300ms);
  EXPECT_NE(never.link.end_reason().find("giving up after 0.3 s"), std::string::npos)
      << never.link.end_reason();
  EXPECT_TRUE(never.link.abort_flag().load());

  auto host = std::make_unique<FakeCollector>();
  o.url = host->url();
  Agent lost(o);
  lost.link.start(hello(), topology());
  ASSERT_TRUE(host->wait_for(has_all("inst-new", 2), 3s));
  host.reset();  // the host goes away for good
  EXPECT_FALSE(lost.link.next_command(3s));
  EXPECT_EQ(lost.link.end(), UplinkEnd::kLost);
}

// 1000 from the host ends the session (and a run in it); 1008 refuses the agent.
TEST(Uplink, TheHostsCloseCodeDecidesTheEnd) {
  for (const auto& [code, end] :
       {std::pair{websocket::close_code::normal, UplinkEnd::kHostClosed},
        std::pair{websocket::close_code::policy_error, UplinkEnd::kRefused}}) {
    FakeCollector host;
    Agent a(fast_options(host.url()));
    a.link.start(hello(), topology());
    ASSERT_TRUE(host.wait_for(has_all("inst-new", 2), 3s));
    host.close_all(code);
    EXPECT_FALSE(a.link.next_command(3s));
    EXPECT_EQ(a.link.end(), end) << a.link.end_reason();
    EXPECT_EQ(a.link.abort_flag().load(), end == UplinkEnd::kHostClosed);
  }
  // Any other close is a lost link: it reconnects.
  FakeCollector host;
  Agent a(fast_options(host.url()));
  a.link.start(hello(), topology());
  ASSERT_TRUE(host.wait_for(has_all("inst-new", 2), 3s));
  host.close_all(websocket::close_code::going_away);
  ASSERT_TRUE(host.wait_for([](const auto& g) { return g.size() >= 3; }, 3s));
  EXPECT_EQ(a.link.end(), UplinkEnd::kOpen);
  EXPECT_FALSE(a.link.abort_flag().load());
}

// Commands reach next_command; Abort raises the flag the runner watches.
TEST(Uplink, CommandsFromTheLiveConnectionReachTheAgent) {
  FakeCollector host;
  Agent a(fast_options(host.url()));
  a.link.start(hello(), topology());
  ASSERT_TRUE(host.wait_for(has_all("inst-new", 2), 3s));
  v1::Envelope start;
  start.set_protocol_version(kProtocolVersion);
  start.mutable_start_run()->set_run_id("r9");
  host.send(start);
  auto cmd = a.link.next_command(3s);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->start_run().run_id(), "r9");
  EXPECT_FALSE(a.link.abort_flag().load());
  v1::Envelope abort;
  abort.set_protocol_version(kProtocolVersion);
  abort.mutable_abort();
  host.send(abort);
  ASSERT_TRUE(a.link.next_command(3s));
  EXPECT_TRUE(a.link.abort_flag().load());
}

}  // namespace
}  // namespace schedrig::link
