// The link sink over an uplink whose host never acks: the Samples a full
// spool dropped are counted in the run's RunFinished (dropped_samples),
// which reaches the host once acks free room.
#include "agent/session/link_sink.h"

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

}  // namespace
}  // namespace schedrig::agent
