// The link sink over an uplink whose host never acks: the Samples a full
// spool dropped are counted in the run's RunFinished (dropped_samples),
// which reaches the host once acks free room.
#include "agent/session/link_sink.h"

#include <thread>

#include <gtest/gtest.h>

#include "tests/agent/link/fake_collector.h"
#include "tests/support/run_command.h"

namespace schedrig::agent {
namespace {

using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

TEST(LinkSink, RunFinishedCountsTheSamplesTheFullSpoolDropped) {
  testing::FakeCollector host;
  host.set_acking(false);
  const testing::TempDir dir;
  spool::SpoolOptions small;
  small.max_bytes = 64 * 1024;
  small.segment_bytes = 8 * 1024;
  spool::Spool spool(dir.file("spool"), small);
  link::UplinkOptions o;
  o.url = host.url();
  link::Uplink uplink(o, AgentIdentity{"box", "boot", "inst"}, spool);
  v1::Envelope hello, topology;
  hello.mutable_hello()->set_hostname("box");
  topology.mutable_topology();
  uplink.start(hello, topology);

  LinkSink sink(uplink);
  v1::Sample sample;
  sample.set_run_id("r1");
  for (int i = 0; i < 4000 && uplink.dropped_samples("r1") < 25; ++i) sink.sample(sample);
  ASSERT_EQ(uplink.dropped_samples("r1"), 25u);
  host.set_acking(true);
  host.ack_all();  // room for the RunFinished
  v1::RunFinished done;
  done.set_run_id("r1");
  done.set_status(v1::STATUS_OK);
  sink.run_finished(done);
  EXPECT_GT(sink.last_seq(), 0u);
  ASSERT_TRUE(host.wait_for(
      [](const auto& got) { return !got.empty() && got.back().env.has_run_finished(); }, 5s));
  EXPECT_EQ(host.received().back().env.run_finished().dropped_samples(), 25u);
  EXPECT_EQ(host.received().back().env.seq(), sink.last_seq());
}

// A run the agent aborted because --give-up-after passed says so in its
// reason (review: it read like an operator's abort).
TEST(LinkSink, ARunAbortedByGivingUpOnTheHostSaysSo) {
  const testing::TempDir dir;
  spool::Spool spool(dir.file("spool"));
  link::UplinkOptions o;
  o.url = "ws://127.0.0.1:1/agent";  // nobody listens on port 1
  o.connect_timeout = 200ms;
  o.give_up_after = 300ms;
  link::Uplink uplink(o, AgentIdentity{"box", "boot", "inst"}, spool);
  v1::Envelope hello, topology;
  hello.mutable_hello()->set_hostname("box");
  topology.mutable_topology();
  uplink.start(hello, topology);
  for (int i = 0; i < 100 && uplink.end() == link::UplinkEnd::kOpen; ++i) {
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_EQ(uplink.end(), link::UplinkEnd::kNeverConnected);
  LinkSink sink(uplink);
  v1::RunFinished done;
  done.set_run_id("r1");
  done.set_status(v1::STATUS_ABORTED);
  done.set_reason("aborted before iteration 3 of 20 completed");
  sink.run_finished(done);
  const auto backlog = spool.unacked();
  ASSERT_EQ(backlog.size(), 1u);
  const v1::Envelope& last = backlog[0].envelopes.back();
  ASSERT_TRUE(last.has_run_finished());
  EXPECT_EQ(
      last.run_finished().reason().rfind("agent gave up on the host (giving up after 0.3 s: ", 0),
      0u)
      << last.run_finished().reason();
  EXPECT_NE(last.run_finished().reason().find("); aborted before iteration 3 of 20 completed"),
            std::string::npos);
}

}  // namespace
}  // namespace schedrig::agent
