// Acceptance through the built binary: `schedrig-agent topology --xml P
// --json` agrees with `lstopo-no-graphics --input P` on every profile in
// hwloc-profiles/ and every readable fixture; bad input exits 2 with one
// line; a policy on an XML always gives the same cpulists.
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/fixtures.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

bool have_lstopo() { return run_command("command -v lstopo-no-graphics").exit_code == 0; }

std::vector<std::string> xml_files(const std::filesystem::path& dir) {
  std::set<std::string> out;
  if (!std::filesystem::exists(dir)) return {};
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    // hwloc 2.9 reads XML v1 and v2; the v3 fixture is the negative test.
    if (e.path().extension() == ".xml" && name.find(".v3.") == std::string::npos)
      out.insert(e.path().string());
  }
  return {out.begin(), out.end()};
}

// How often lstopo's console view names an object "TYPE L#n".
unsigned count(const std::string& lstopo, const std::string& type) {
  const std::regex re(fmt::format("(^|[ +]){} L#[0-9]+", type));
  return static_cast<unsigned>(std::distance(std::sregex_iterator(lstopo.begin(), lstopo.end(), re),
                                             std::sregex_iterator()));
}

void expect_agrees_with_lstopo(const std::string& xml) {
  SCOPED_TRACE(xml);
  const auto agent = run_command(bin("schedrig-agent") + " topology --json --xml " + quoted(xml));
  ASSERT_EQ(agent.exit_code, 0) << agent.output;
  const nlohmann::json j = nlohmann::json::parse(agent.output);
  const auto lstopo = run_command("lstopo-no-graphics --no-io --input " + quoted(xml));
  ASSERT_EQ(lstopo.exit_code, 0) << lstopo.output;
  const std::string& view = lstopo.output;

  EXPECT_EQ(j["packages"].get<unsigned>(), count(view, "Package"));
  EXPECT_EQ(j["numa_nodes"].size(), count(view, "NUMANode"));
  EXPECT_EQ(j["pus"].get<unsigned>(), count(view, "PU"));
  const unsigned cores = count(view, "Core");
  EXPECT_EQ(j["cores"].get<unsigned>(), cores == 0 ? count(view, "PU") : cores);
  ASSERT_FALSE(j["llcs"].empty());
  const unsigned level = j["llcs"][0]["level"].get<unsigned>();
  EXPECT_EQ(j["llcs"].size(), count(view, fmt::format("L{}", level)));
  for (const auto& llc : j["llcs"]) EXPECT_EQ(llc["level"].get<unsigned>(), level);
  EXPECT_EQ(j["core_cpus"].size(), j["cores"].get<std::size_t>());
  EXPECT_EQ(j["package_cpus"].size(), j["packages"].get<std::size_t>());
  EXPECT_FALSE(j["sched_domains"].empty());
}

TEST(TopologyCli, EveryProfileAgreesWithLstopo) {
  if (!have_lstopo()) GTEST_SKIP() << "lstopo-no-graphics not installed (Debian package hwloc)";
  const auto files = xml_files(std::filesystem::path(SCHEDRIG_SOURCE_DIR) / "hwloc-profiles");
  ASSERT_GE(files.size(), 10u);
  for (const std::string& xml : files) expect_agrees_with_lstopo(xml);
}

TEST(TopologyCli, EveryFixtureAgreesWithLstopo) {
  if (!have_lstopo()) GTEST_SKIP() << "lstopo-no-graphics not installed (Debian package hwloc)";
  SCHEDRIG_REQUIRE_FIXTURE(testing::fixture_path("topologies"));
  const auto files = xml_files(testing::fixture_path("topologies"));
  ASSERT_FALSE(files.empty()) << testing::fixture_path("topologies") << " has no XML topology";
  for (const std::string& xml : files) expect_agrees_with_lstopo(xml);
}

TEST(TopologyCli, BadXmlIsOneLineAndExit2) {
  const auto missing = run_command(bin("schedrig-agent") + " topology --xml /nonexistent/x.xml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("/nonexistent/x.xml: cannot read it: No such file or directory"),
            std::string::npos)
      << missing.output;
  EXPECT_EQ(std::count(missing.output.begin(), missing.output.end(), '\n'), 1) << missing.output;

  const std::string readme = std::string(SCHEDRIG_SOURCE_DIR) + "/hwloc-profiles/README.md";
  const auto not_xml = run_command(bin("schedrig-agent") + " topology --xml " + quoted(readme));
  EXPECT_EQ(not_xml.exit_code, 2);
  EXPECT_NE(not_xml.output.find("not an hwloc XML topology"), std::string::npos) << not_xml.output;
}

TEST(TopologyCli, SamePolicySameXmlSameCpulists) {
  const std::string xml =
      std::string(SCHEDRIG_SOURCE_DIR) + "/hwloc-profiles/amd-epyc9654-2s-nps4.xml";
  const std::string cmd = bin("schedrig-agent") + " topology --json --xml " + quoted(xml) +
                          " --placement spread:4 --placement split:2 --placement compact:3";
  const auto first = run_command(cmd);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto second = run_command(cmd);
  EXPECT_EQ(first.output, second.output);
  const nlohmann::json p = nlohmann::json::parse(first.output)["placements"];
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], (nlohmann::json{{"policy", "spread:4"}, {"cpus", "0,24,96,120"}}));
  EXPECT_EQ(p[1]["message_cpus"], "0,96");
  EXPECT_EQ(p[1]["worker_cpus"], "1-95,97-383");
  EXPECT_EQ(p[2]["cpus"], "0-2");
}

TEST(TopologyCli, BadPolicyIsExit2NamingIt) {
  const std::string xml =
      std::string(SCHEDRIG_SOURCE_DIR) + "/hwloc-profiles/ampere-altra-2s-q80.xml";
  const auto r =
      run_command(bin("schedrig-agent") + " topology --xml " + quoted(xml) + " --placement node:3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("placement 'node:3': no NUMA node 3; this machine has 2 nodes (0-1)"),
            std::string::npos)
      << r.output;
}

TEST(TopologyCli, HelpDocumentsEveryPolicyWithAnExample) {
  for (const char* cmd : {" topology --help", " stress fork --help"}) {
    SCOPED_TRACE(cmd);
    const auto r = run_command(bin("schedrig-agent") + cmd);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const char* example : {"e.g. all", "e.g. cpulist:0-3,8", "e.g. node:1", "e.g. package:0",
                                "e.g. llc:3", "e.g. compact:8", "e.g. spread:4", "e.g. split:2"}) {
      EXPECT_NE(r.output.find(example), std::string::npos) << example;
    }
  }
}

TEST(TopologyCli, StressCpusAndPlacementExcludeEachOther) {
  const auto r =
      run_command(bin("schedrig-agent") + " stress fork --cpus 0 --placement all --duration 0.01");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--placement"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace schedrig
