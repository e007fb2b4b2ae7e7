// print_agents_table and agents_json: `schedrig agents`.
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/agents_report.h"

namespace schedrig::report {
namespace {

std::vector<store::AgentRecord> two_agents() {
  store::AgentRecord altra;
  altra.agent_id = "altra-01";
  altra.hostname = "altra-01.lab";
  altra.kernel_release = "6.19.0-rc3";
  altra.allowed_pus = 158;
  altra.runs = 4;
  altra.last_seen_ns = 1767225600LL * 1000000000LL;
  altra.has_topology = true;
  altra.topology = {2, 2, 160, 160, 160, false, "0-159", ""};
  store::AgentRecord fresh;
  fresh.agent_id = "new-box";
  fresh.allowed_pus = 4;
  return {altra, fresh};
}

TEST(AgentsReport, TableShowsCountsOrDashes) {
  std::ostringstream out;
  print_agents_table(two_agents(), out);
  std::istringstream in(out.str());
  std::string header, altra, fresh, extra;
  std::getline(in, header);
  std::getline(in, altra);
  std::getline(in, fresh);
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_NE(header.find("PACKAGES"), std::string::npos) << header;
  EXPECT_NE(header.find("NODES"), std::string::npos) << header;
  EXPECT_NE(altra.find("altra-01.lab"), std::string::npos) << altra;
  EXPECT_NE(altra.find("2026-01-01T00:00:00Z"), std::string::npos) << altra;
  EXPECT_NE(altra.find(" 160 "), std::string::npos) << altra;
  EXPECT_NE(altra.find(" no "), std::string::npos) << altra;
  // No topology yet: counts are dashes, allowed PUs still shown.
  EXPECT_EQ(fresh.rfind("new-box", 0), 0u) << fresh;
  EXPECT_NE(fresh.find(" 4 "), std::string::npos) << fresh;
  EXPECT_EQ(fresh.find("160"), std::string::npos) << fresh;
}

TEST(AgentsReport, JsonHasTopologyObjectOrNull) {
  const nlohmann::json j = agents_json(two_agents());
  ASSERT_EQ(j.at("agents").size(), 2u);
  const auto& altra = j["agents"][0];
  EXPECT_EQ(altra.at("agent_id"), "altra-01");
  EXPECT_EQ(altra.at("runs"), 4);
  EXPECT_EQ(altra.at("topology").at("packages"), 2);
  EXPECT_EQ(altra.at("topology").at("numa_nodes"), 2);
  EXPECT_EQ(altra.at("topology").at("pus"), 160);
  EXPECT_EQ(altra.at("topology").at("smt"), false);
  EXPECT_EQ(altra.at("topology").at("online_cpus"), "0-159");
  EXPECT_TRUE(j["agents"][1].at("topology").is_null());
}

}  // namespace
}  // namespace schedrig::report
