// Store::agents: one row per lab box, its latest instance and topology counts.
#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::make_envelope;
using schedrig::testing::sample_run;
using schedrig::testing::TempDir;

void ingest(Store& store, const v1::Envelope& env) { store.ingest(env, encode_envelope(env)); }

v1::Envelope hello(unsigned long long seq, const std::string& instance, const std::string& agent,
                   const std::string& kernel) {
  v1::Envelope env = make_envelope(seq, instance, agent);
  env.mutable_hello()->set_hostname(agent + ".lab");
  env.mutable_hello()->set_kernel_release(kernel);
  env.mutable_hello()->set_allowed_pus(8);
  return env;
}

v1::Envelope two_node_topology(unsigned long long seq, const std::string& instance,
                               const std::string& agent) {
  v1::Envelope env = make_envelope(seq, instance, agent);
  v1::Topology* t = env.mutable_topology();
  t->set_packages(2);
  t->set_cores(96);
  t->set_pus(192);
  t->set_smt(true);
  t->set_online_cpus("0-191");
  for (int n = 0; n < 2; ++n) t->add_numa_nodes()->set_os_index(static_cast<unsigned>(n));
  for (int l = 0; l < 24; ++l) t->add_llcs()->set_level(3);
  return env;
}

TEST(StoreAgents, LatestInstanceAndItsTopologyPerAgent) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  for (const auto& env : sample_run()) ingest(store, env);  // altra-01: 2 packages, 160 PUs
  // epyc-02 restarted on a new kernel: the second instance is the one shown.
  ingest(store, hello(1, "epyc-old", "epyc-02", "6.18.0"));
  ingest(store, hello(1, "epyc-new", "epyc-02", "6.19.0-rc3"));
  ingest(store, two_node_topology(2, "epyc-new", "epyc-02"));

  const std::vector<AgentRecord> agents = store.agents();
  ASSERT_EQ(agents.size(), 2u);
  const AgentRecord& altra = agents[0];
  EXPECT_EQ(altra.agent_id, "altra-01");
  EXPECT_EQ(altra.runs, 1u);
  EXPECT_TRUE(altra.has_topology);
  EXPECT_EQ(altra.topology.packages, 2u);
  EXPECT_EQ(altra.topology.pus, 160u);
  EXPECT_EQ(altra.allowed_pus, 158u);

  const AgentRecord& epyc = agents[1];
  EXPECT_EQ(epyc.agent_id, "epyc-02");
  EXPECT_EQ(epyc.instance_id, "epyc-new");
  EXPECT_EQ(epyc.kernel_release, "6.19.0-rc3");
  EXPECT_EQ(epyc.runs, 0u);
  ASSERT_TRUE(epyc.has_topology);
  EXPECT_EQ(epyc.topology.numa_nodes, 2u);
  EXPECT_EQ(epyc.topology.llcs, 24u);
  EXPECT_EQ(epyc.topology.cores, 96u);
  EXPECT_EQ(epyc.topology.pus, 192u);
  EXPECT_TRUE(epyc.topology.smt);
}

TEST(StoreAgents, AgentWithoutTopologyYetHasNone) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  ingest(store, hello(1, "i1", "box", "6.1.0"));
  const auto agents = store.agents();
  ASSERT_EQ(agents.size(), 1u);
  EXPECT_FALSE(agents[0].has_topology);
  EXPECT_EQ(agents[0].hostname, "box.lab");
}

TEST(StoreAgents, EmptyStoreHasNoAgents) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  EXPECT_TRUE(store.agents().empty());
}

}  // namespace
}  // namespace schedrig::store
