// Sessions over time, on loopback: the same agent id twice (a reconnect of
// the same instance takes over; another live instance is refused; a dead
// one is replaced), liveness (ping and idle close), acks only after the
// store's commit, and backpressure from a full store writer
// (docs/architecture.md "Server").
#include <algorithm>
#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "tests/host/server/test_server.h"

namespace schedrig::collector {
namespace {

using namespace std::chrono_literals;
using namespace schedrig::testing;
namespace v1 = schedrig::v1;

// Reads until the link ends; the close code.
websocket::close_code read_until_closed(AgentClient& c) { return c.read_until_closed().code; }

// Reads on a thread (so pings are answered) until the link ends.
class Reader {
 public:
  explicit Reader(AgentClient& c)
      : done_(std::async(std::launch::async, [&c] { return read_until_closed(c); })) {}
  bool ended_within(std::chrono::milliseconds limit) {
    return done_.wait_for(limit) == std::future_status::ready;
  }
  websocket::close_code code() { return done_.get(); }

 private:
  std::future<websocket::close_code> done_;
};

TEST(SameId, SameInstanceTakesOverAndTheOldIsClosed) {
  TestServer server;
  AgentClient old_link(server.port(), kBox1Token);
  old_link.send(hello("box1", 1, "inst-A"));
  ASSERT_TRUE(old_link.read().has_ack());
  AgentClient new_link(server.port(), kBox1Token);
  new_link.send(hello("box1", 2, "inst-A"));
  ASSERT_TRUE(new_link.read().has_ack());
  EXPECT_EQ(read_until_closed(old_link), websocket::close_code::policy_error);
  EXPECT_NE(std::string(old_link.ws().reason().reason.c_str()).find("took over"),
            std::string::npos);
  v1::Envelope line = stamped("box1", 3, "inst-A");
  line.mutable_log()->set_message("after the takeover");
  new_link.send(line);
  EXPECT_EQ(new_link.read().ack().seq(), 3u);
}

TEST(SameId, AnotherInstanceIsRefusedWhileTheFirstAnswersPings) {
  TestServerConfig config;
  config.collector.duplicate_probe_timeout = 2s;
  TestServer server(config);
  AgentClient first(server.port(), kBox1Token);
  first.send(hello("box1", 1, "inst-A"));
  ASSERT_TRUE(first.read().has_ack());
  Reader first_reads(first);  // answers the probe's ping
  AgentClient second(server.port(), kBox1Token);
  second.send(hello("box1", 1, "inst-B"));
  beast::error_code ec;
  v1::Envelope env = second.read(ec);
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_TRUE(env.has_error());
  EXPECT_NE(env.error().message().find("another agent with id box1"), std::string::npos)
      << env.error().message();
  EXPECT_EQ(read_until_closed(second), websocket::close_code::policy_error);
  EXPECT_FALSE(first_reads.ended_within(300ms));  // the first one carries on
  EXPECT_EQ(server.store.agents().front().instance_id, "inst-A");
  server.listener().stop();  // ends the reader
  EXPECT_TRUE(first_reads.ended_within(5s));
}

TEST(SameId, AnotherInstanceReplacesAFirstThatDoesNotAnswer) {
  TestServerConfig config;
  config.collector.duplicate_probe_timeout = 300ms;
  TestServer server(config);
  AgentClient first(server.port(), kBox1Token);
  first.send(hello("box1", 1, "inst-A"));
  ASSERT_TRUE(first.read().has_ack());
  // `first` no longer reads: its pongs never go out (a half-open link).
  AgentClient second(server.port(), kBox1Token);
  const auto start = std::chrono::steady_clock::now();
  second.send(hello("box1", 1, "inst-B"));
  v1::Envelope ack = second.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 250ms);  // after the probe gave up
  EXPECT_EQ(read_until_closed(first), websocket::close_code::policy_error);
}

TEST(Liveness, ASilentPeerIsClosedAndAReadingOneIsNot) {
  TestServerConfig config;
  config.timing = {100ms, 300ms};
  TestServer server(config);
  AgentClient silent(server.port(), kBox1Token);
  AgentClient alive(server.port(), kBox2Token);
  Reader alive_reads(alive);  // answers pings
  std::this_thread::sleep_for(700ms);
  EXPECT_FALSE(alive_reads.ended_within(0ms));
  beast::error_code ec;
  silent.read(ec);  // the server has closed it: no close frame, the socket is gone
  EXPECT_TRUE(ec) << "a silent peer stays connected";
  EXPECT_EQ(server.listener().open_connections(), 1u);
  server.listener().stop();  // ends the reader
  EXPECT_TRUE(alive_reads.ended_within(5s));
}

TEST(StoreWriter, AckComesOnlyAfterTheCommit) {
  TestServer server;
  server.collector().writer().pause();
  AgentClient c(server.port(), kBox1Token);
  c.send(hello("box1", 1));
  std::this_thread::sleep_for(200ms);
  EXPECT_TRUE(server.store.agents().empty());  // not committed...
  std::atomic<bool> acked{false};
  std::thread reader([&] { acked = c.read().has_ack(); });
  std::this_thread::sleep_for(200ms);
  EXPECT_FALSE(acked.load());  // ...so not acked
  server.collector().writer().resume();
  reader.join();
  EXPECT_TRUE(acked.load());
  EXPECT_EQ(server.store.agents().size(), 1u);
}

TEST(StoreWriter, AFullQueueStopsReadingAndLosesNothing) {
  TestServerConfig config;
  config.collector.writer.capacity = 2;
  config.collector.writer.max_batch = 2;
  TestServer server(config);
  server.collector().writer().pause();
  AgentClient c(server.port(), kBox1Token);
  c.send(hello("box1", 1));
  constexpr std::uint64_t kCount = 20;
  for (std::uint64_t seq = 2; seq <= kCount; ++seq) {
    v1::Envelope env = stamped("box1", seq);
    env.mutable_log()->set_message("line " + std::to_string(seq));
    c.send(env);  // the socket buffers take what the session does not read
  }
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(server.collector().writer().queued(), 2u);  // bounded
  server.collector().writer().resume();
  // Acks are cumulative and one may cover a whole batch: they rise, and the
  // last covers every envelope.
  std::uint64_t acked = 0;
  while (acked < kCount) {
    v1::Envelope ack = c.read();
    ASSERT_TRUE(ack.has_ack());
    EXPECT_GT(ack.ack().seq(), acked);
    acked = ack.ack().seq();
  }
  EXPECT_EQ(acked, kCount);
}

// Records events, checking the store already has what they report.
class CheckingEvents : public CollectorEvents {
 public:
  void on_hello(const std::shared_ptr<AgentChannel>& channel, const v1::Envelope&) override {
    std::lock_guard lock(mu);
    hello_was_stored = store != nullptr && !store->agents().empty();
    hello_instance = channel->instance_id();
    ++hellos;
  }
  void on_closed(const AgentChannel&, const std::string& agent_id, const std::string&) override {
    std::lock_guard lock(mu);
    closed_ids.push_back(agent_id);
  }
  std::mutex mu;
  store::Store* store = nullptr;  // set before any agent connects
  int hellos = 0;
  bool hello_was_stored = false;
  std::string hello_instance;
  std::vector<std::string> closed_ids;
};

TEST(Events, HelloAfterTheCommitAndClosedOncePerSession) {
  CheckingEvents events;
  TestServerConfig config;
  config.events = &events;
  TestServer server(config);
  events.store = &server.store;
  {
    AgentClient c(server.port(), kBox1Token);
    c.send(hello("box1", 1, "inst-A"));
    ASSERT_TRUE(c.read().has_ack());
    AgentClient forger(server.port(), kBox2Token);
    forger.send(hello("box1", 1, "inst-F"));
    read_until_closed(forger);
    c.ws().close(websocket::close_code::normal);
  }
  for (int i = 0; i < 100; ++i) {
    {
      std::lock_guard lock(events.mu);
      if (events.closed_ids.size() == 2) break;
    }
    std::this_thread::sleep_for(20ms);
  }
  std::lock_guard lock(events.mu);
  EXPECT_EQ(events.hellos, 1);
  EXPECT_TRUE(events.hello_was_stored);
  EXPECT_EQ(events.hello_instance, "inst-A");
  // The refused one never had its Hello accepted: "".
  ASSERT_EQ(events.closed_ids.size(), 2u);
  EXPECT_EQ(std::count(events.closed_ids.begin(), events.closed_ids.end(), "box1"), 1);
  EXPECT_EQ(std::count(events.closed_ids.begin(), events.closed_ids.end(), ""), 1);
}

}  // namespace
}  // namespace schedrig::collector
