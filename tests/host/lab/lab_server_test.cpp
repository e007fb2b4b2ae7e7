// The lab's server with its Control (no agent process): only the lab's
// token gets in, so a stranger cannot end (or touch) the lab's run; the
// lab's agent gets the run through the queue and its RunFinished ends it.
#include "host/lab/loopback_collector.h"

#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "common/ids.h"
#include "host/lab/lab_driver.h"
#include "tests/host/server/test_server.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kLabAgent = "labbox";
constexpr const char* kLabRun = "5d1f0c2a-7e3b-4c9d-8a1f-2b3c4d5e6f70";
const std::string kLabToken(64, 'a');

// The port of "ws://127.0.0.1:PORT/agent".
unsigned short port_of(const std::string& url) {
  const auto colon = url.rfind(':');
  return static_cast<unsigned short>(std::stoi(url.substr(colon + 1)));
}

v1::Envelope stamped(const std::string& agent, const std::string& instance, std::uint64_t seq) {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id(agent);
  env.set_boot_id("7d1c6a2e-0000-4000-8000-000000000001");
  env.set_instance_id(instance);
  env.set_seq(seq);
  env.set_sent_at_ns(wall_clock_ns());
  return env;
}

v1::Envelope finished_envelope(const std::string& agent, const std::string& instance,
                               std::uint64_t seq) {
  v1::Envelope env = stamped(agent, instance, seq);
  env.mutable_run_finished()->set_run_id(kLabRun);
  env.mutable_run_finished()->set_status(v1::STATUS_OK);
  return env;
}

// Waits up to 5 s for `done`.
template <class F>
bool eventually(F done) {
  const auto give_up = std::chrono::steady_clock::now() + 5s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

class LabServerTest : public ::testing::Test {
 protected:
  TempDir dir_;
  store::Store store_{dir_.file("lab.db")};
  std::ostringstream out_;
  lab::LabDriver driver_{kLabRun, kLabAgent, out_, 1, 5s};
  lab::LoopbackCollector server_{store_, driver_, kLabAgent, kLabToken};
};

TEST_F(LabServerTest, AStrangerWithoutTheTokenCannotEndTheLabRun) {
  // No token, a wrong token: the upgrade is refused before any envelope.
  for (const std::string& token : {std::string(), std::string(64, 'b')}) {
    HttpResult r = http_request(port_of(server_.url()), http::verb::get, "/agent", token, "",
                                nullptr, /*upgrade=*/true);
    EXPECT_EQ(r.status, 401u) << "token '" << token << "'";
    AgentClient stranger(port_of(server_.url()), token);
    EXPECT_TRUE(stranger.error()) << "token '" << token << "'";
  }
  // Nor does the API let anyone in: the lab has no operator token.
  EXPECT_EQ(
      http_request(port_of(server_.url()), http::verb::post, "/api/v1/runs/x/abort", kLabToken)
          .status,
      403u);
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(driver_.finished());
  EXPECT_TRUE(store_.agents().empty());
  EXPECT_TRUE(store_.runs().empty());
}

TEST_F(LabServerTest, TheLabAgentGetsItsRunThroughTheQueueAndEndsIt) {
  AgentClient agent(port_of(server_.url()), kLabToken);
  ASSERT_FALSE(agent.error()) << agent.error().message();
  const std::string instance = make_uuid_v4();
  v1::Envelope hello = stamped(kLabAgent, instance, 1);
  hello.mutable_hello()->set_hostname("labbox.local");
  hello.mutable_hello()->set_allowed_pus(2);
  agent.send(hello);
  v1::Envelope topo = stamped(kLabAgent, instance, 2);
  topo.mutable_topology()->set_packages(1);
  topo.mutable_topology()->set_cores(2);
  topo.mutable_topology()->set_pus(2);
  topo.mutable_topology()->set_online_cpus("0-1");
  topo.mutable_topology()->set_allowed_cpus("0-1");
  topo.mutable_topology()->add_package_cpus("0-1");
  topo.mutable_topology()->add_core_cpus("0");
  topo.mutable_topology()->add_core_cpus("1");
  v1::NumaNode* node = topo.mutable_topology()->add_numa_nodes();
  node->set_cpus("0-1");
  agent.send(topo);
  ASSERT_TRUE(
      eventually([&] { return store_.agents().size() == 1 && store_.agents()[0].has_topology; }));

  control::Submission s;
  s.agents = {kLabAgent};
  s.plan = parse_plan_yaml("duration_s: 0.5\ncases:\n  - workload: fork\n", "lab.yaml");
  s.plan_name = "lab.yaml";
  s.run_id = kLabRun;
  server_.control().submit(s, "lab");
  v1::Envelope start;
  do {
    start = agent.read();
  } while (!start.has_start_run());  // acks first
  EXPECT_EQ(start.start_run().run_id(), kLabRun);

  v1::Envelope started = stamped(kLabAgent, instance, 3);
  started.mutable_run_started()->set_run_id(kLabRun);
  *started.mutable_run_started()->mutable_plan() = s.plan;
  started.mutable_run_started()->set_planned_iterations(1);
  agent.send(started);
  agent.send(finished_envelope(kLabAgent, instance, 4));
  ASSERT_TRUE(eventually([&] { return driver_.finished().has_value(); }));
  EXPECT_EQ(driver_.finished()->status(), v1::STATUS_OK);
  EXPECT_TRUE(eventually([&] { return store_.queued_run(kLabRun)->state == "ok"; }));
  EXPECT_NE(out_.str().find("agent labbox (labbox.local"), std::string::npos) << out_.str();
}

// A Log of the lab's run (the agent waiting for the run lock) is printed as
// it is stored; one of another run is not.
TEST(LabDriverLog, TheRunsWaitLogsArePrinted) {
  std::ostringstream out;
  lab::LabDriver driver{kLabRun, kLabAgent, out, 1, 5s};
  v1::Envelope env = stamped(kLabAgent, "i-1", 1);
  env.mutable_log()->set_run_id(kLabRun);
  env.mutable_log()->set_waiting(true);
  env.mutable_log()->set_message("waiting for run lock held by pid 42 (run r, since T)");
  driver.on_stored(env);
  env.mutable_log()->set_run_id("another-run");
  env.mutable_log()->set_message("not ours");
  driver.on_stored(env);
  EXPECT_EQ(out.str(), "agent: waiting for run lock held by pid 42 (run r, since T)\n");
}

}  // namespace
}  // namespace schedrig::testing
