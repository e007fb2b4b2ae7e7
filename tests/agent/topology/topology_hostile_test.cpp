// load_topology on exports nobody should trust: not regular files, control
// characters in the file's strings, numbers no kernel gives, distance
// tables Linux would reject, and groups at several depths. Built from the
// real exports in ../shared/fixtures (edited copies in a temp dir) or from
// small hand-written hwloc v2 XML.
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"
#include "tests/support/fixtures.h"
#include "tests/support/run_command.h"

namespace schedrig::topology {
namespace {

Topology load_export(const std::string& path) { return load_topology({Source::Kind::kXml, path}); }

std::string error_of(const std::string& path) {
  try {
    load_export(path);
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "no TopologyError for " + path;
}

std::string error_of_synthetic(const std::string& description) {
  try {
    load_topology({Source::Kind::kSynthetic, description});
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "no TopologyError for " + description;
}

// fixture `rel` with every `from` replaced by `to`, written to `dir`/out.xml.
std::string edited(const testing::TempDir& dir, const std::string& rel, const std::string& from,
                   const std::string& to) {
  std::string text = testing::read_fixture(rel).value_or("");
  EXPECT_NE(text.find(from), std::string::npos) << rel << " has no '" << from << "'";
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  const std::string path = dir.file("out.xml");
  std::ofstream(path) << text;
  return path;
}

std::string hex_mask(int bit) { return fmt::format("0x{:08x}", 1u << bit); }

// An aarch64 machine of `n` packages, each with one NUMA node and one PU,
// node distances 10 + |i - j| (a distinct distance per step).
std::string line_machine(int n) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
      << "<topology version=\"2.0\">\n";
  const std::string all = fmt::format("0x{:08x},0x{:08x}", n > 32 ? (1u << (n - 32)) - 1 : 0u,
                                      n >= 32 ? 0xffffffffu : (1u << n) - 1);
  xml << fmt::format(
      "<object type=\"Machine\" os_index=\"0\" cpuset=\"{0}\" complete_cpuset=\"{0}\" "
      "allowed_cpuset=\"{0}\" nodeset=\"{0}\" complete_nodeset=\"{0}\" allowed_nodeset=\"{0}\" "
      "gp_index=\"1\">\n<info name=\"Architecture\" value=\"aarch64\"/>\n",
      all);
  int gp = 2;
  for (int i = 0; i < n; ++i) {
    const std::string set = i < 32 ? fmt::format("0x00000000,{}", hex_mask(i))
                                   : fmt::format("{},0x00000000", hex_mask(i - 32));
    xml << fmt::format(
        "<object type=\"Package\" os_index=\"{0}\" cpuset=\"{1}\" complete_cpuset=\"{1}\" "
        "nodeset=\"{1}\" complete_nodeset=\"{1}\" gp_index=\"{2}\">\n"
        "<object type=\"NUMANode\" os_index=\"{0}\" cpuset=\"{1}\" complete_cpuset=\"{1}\" "
        "nodeset=\"{1}\" complete_nodeset=\"{1}\" gp_index=\"{3}\" local_memory=\"1073741824\"/>\n"
        "<object type=\"Core\" os_index=\"0\" cpuset=\"{1}\" complete_cpuset=\"{1}\" "
        "nodeset=\"{1}\" complete_nodeset=\"{1}\" gp_index=\"{4}\">\n"
        "<object type=\"PU\" os_index=\"{0}\" cpuset=\"{1}\" complete_cpuset=\"{1}\" "
        "nodeset=\"{1}\" complete_nodeset=\"{1}\" gp_index=\"{5}\"/>\n</object>\n</object>\n",
        i, set, gp, gp + 1, gp + 2, gp + 3);
    gp += 4;
  }
  std::string indexes;  // hwloc's length attributes count characters
  for (int i = 0; i < n; ++i) indexes += fmt::format("{} ", i);
  std::string values;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) values += fmt::format("{} ", i == j ? 10 : 10 + std::abs(i - j));
  xml << "</object>\n"
      << fmt::format(
             "<distances2 type=\"NUMANode\" nbobjs=\"{}\" kind=\"5\" name=\"NUMALatency\" "
             "indexing=\"os\">\n<indexes length=\"{}\">{}</indexes>\n"
             "<u64values length=\"{}\">{}</u64values>\n</distances2>\n</topology>\n",
             n, indexes.size(), indexes, values.size(), values);
  return xml.str();
}

TEST(TopologyHostile, AFifoOrDeviceIsRefusedAtOnceNeverWaitedOn) {
  testing::TempDir dir;
  const std::string fifo = dir.file("topology.xml");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(error_of(fifo),
            fifo + ": cannot read it: not a regular file (an hwloc XML export is one)");
  EXPECT_EQ(error_of("/dev/zero"),
            "/dev/zero: cannot read it: not a regular file (an hwloc XML export is one)");
}

TEST(TopologyHostile, ControlCharactersFromTheFileAreEscaped) {
  const std::string rel = "topologies/lstopo_vm-2cpu-1numa.v2.xml";
  SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path(rel));
  testing::TempDir dir;
  const Topology t = load_export(
      edited(dir, rel, "value=\"x86_64\"", "value=\"x86_64\x1b]0;pwned\x07&#10;warning: forged\""));
  EXPECT_EQ(t.arch, "x86_64\\e]0;pwned\\x07\\nwarning: forged");
  std::ostringstream view;
  print_topology(t, view);
  EXPECT_EQ(view.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(view.str().find("\nwarning: forged"), std::string::npos) << view.str();
  EXPECT_NO_THROW(topology_to_json(t).dump());  // valid UTF-8 whatever the file held

  const std::string version =
      edited(dir, rel, "<topology version=\"2.0\">", "<topology version=\"9.\x1b[2J\">");
  const std::string what = error_of(version);
  EXPECT_EQ(what.find('\x1b'), std::string::npos);
  EXPECT_NE(what.find("XML version 9.\\e[2J"), std::string::npos) << what;
}

TEST(TopologyHostile, NumbersNoKernelGivesAreRefused) {
  EXPECT_NE(error_of_synthetic("pack:1 core:2 pu:1(indexes=0,70000)")
                .find("PU 70000 is numbered beyond the 65536 this tool reads"),
            std::string::npos);
  const std::string rel = "topologies/amd-epyc7402-2s-smt_nps1_96pu.v2.xml";
  SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path(rel));
  testing::TempDir dir;
  const std::string twice =
      edited(dir, rel, "type=\"NUMANode\" os_index=\"1\"", "type=\"NUMANode\" os_index=\"0\"");
  EXPECT_NE(error_of(twice).find(": two NUMA nodes are numbered 0"), std::string::npos)
      << error_of(twice);
}

TEST(TopologyHostile, ADistanceTableLinuxWouldRejectIsIgnoredWithAWarning) {
  const std::string rel = "topologies/amd-epyc7402-2s-smt_nps1_96pu.v2.xml";
  SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path(rel));
  testing::TempDir dir;
  const Topology far_self = load_export(edited(dir, rel, ">10 32 32 10 <", ">30 20 20 30 <"));
  EXPECT_TRUE(far_self.distances.empty());
  ASSERT_EQ(far_self.warnings.size(), 1u);
  EXPECT_EQ(
      far_self.warnings[0].rfind("NUMA distances from hwloc ignored: the distance from a node "
                                 "to itself is 30, not 10; ",
                                 0),
      0u)
      << far_self.warnings[0];
  ASSERT_FALSE(far_self.sched_domains.empty());
  EXPECT_EQ(far_self.sched_domains.back().distance, 20u);  // Linux's default remote distance
  EXPECT_EQ(far_self.sched_domains.back().span, 96u);      // still one machine

  const Topology near = load_export(edited(dir, rel, ">10 32 32 10 <", ">10 10 10 10 <"));
  ASSERT_EQ(near.warnings.size(), 1u);
  EXPECT_NE(near.warnings[0].find("a distance between two nodes is 10, not above 10"),
            std::string::npos)
      << near.warnings[0];

  const Topology huge = load_export(
      edited(dir, rel, "length=\"12\">10 32 32 10 <", "length=\"20\">10 4294967306 32 10 <"));
  ASSERT_EQ(huge.warnings.size(), 1u);
  EXPECT_NE(huge.warnings[0].find("above 255"), std::string::npos) << huge.warnings[0];

  // A bandwidth matrix is no SLIT: not used, and nothing to warn about.
  const Topology bandwidth = load_export(
      edited(dir, rel, "kind=\"5\" name=\"NUMALatency\"", "kind=\"9\" name=\"NUMABandwidth\""));
  EXPECT_TRUE(bandwidth.distances.empty());
  EXPECT_TRUE(bandwidth.warnings.empty());
}

// One NUMA level per distinct distance: 40 of them is no machine, and a
// stack per PU per level is what made such a file take minutes.
TEST(TopologyHostile, TooManyDistinctDistancesFallBackToTheDefaults) {
  testing::TempDir dir;
  const std::string path = dir.file("line.xml");
  std::ofstream(path) << line_machine(40);
  const Topology t = load_export(path);
  ASSERT_EQ(t.numa_nodes.size(), 40u);
  EXPECT_TRUE(t.distances.empty());
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].find("it has 40 distinct distances between nodes with CPUs, more than "
                               "the 32 NUMA levels modelled"),
            std::string::npos)
      << t.warnings[0];
  ASSERT_EQ(t.sched_domains.size(), 1u);
  EXPECT_EQ(t.sched_domains[0].span, 40u);

  std::ofstream(path) << line_machine(20);  // 20 distances: kept, one level each but the local
  const Topology twenty = load_export(path);
  EXPECT_TRUE(twenty.warnings.empty());
  EXPECT_EQ(twenty.sched_domains.size(), 19u);
}

// Groups at two depths (distance groups of packages above clusters of
// cores): hwloc has no single depth for the type, and every group counts.
TEST(TopologyHostile, GroupsAtSeveralDepthsAreAllSeen) {
  const Topology t =
      load_topology({Source::Kind::kSynthetic, "group:2 pack:2 numa:1 group:2 core:2 pu:1"});
  EXPECT_EQ(t.packages, 4u);
  ASSERT_EQ(t.clusters.size(), 8u);
  EXPECT_EQ(format_cpulist(t.clusters[0]), "0-1");
  EXPECT_EQ(t.sched_domains.front().name, "CLS");
}

// A Bulldozer dump that does not record the CPU family: the L1i the two
// cores of a compute unit share still marks it (hwloc drops instruction
// caches unless asked to keep them).
TEST(TopologyHostile, ComputeUnitsWithoutAFamilyComeFromTheSharedL1i) {
  const std::string rel = "topologies-hwloc/sysfs__64amd64-4s2n4ca2co.xml";
  SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path(rel));
  testing::TempDir dir;
  const Topology t =
      load_export(edited(dir, rel, "<info name=\"CPUFamilyNumber\" value=\"21\"/>", ""));
  EXPECT_TRUE(t.compute_units);
  ASSERT_EQ(t.core_cpus.size(), 32u);
  EXPECT_EQ(t.core_cpus[0], (std::vector<int>{0, 1}));
  // Another family's shared L1i (there is none on x86) would not be a unit.
  const Topology other = load_export(edited(dir, rel, "value=\"21\"", "value=\"23\""));
  EXPECT_FALSE(other.compute_units);
  EXPECT_EQ(other.core_cpus.size(), 64u);
}

TEST(TopologyHostile, AnAllowedCpusetWithNoOnlinePuIsWarnedAbout) {
  const std::string rel = "topologies-hwloc/sysfsD__32amd64-4s2n4c-cgroup2.xml";
  SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path(rel));
  testing::TempDir dir;
  const Topology t =
      load_export(edited(dir, rel, "allowed_cpuset=\"0x0000003f\"", "allowed_cpuset=\"0x0\""));
  EXPECT_TRUE(t.allowed_cpus.empty());
  EXPECT_EQ(format_cpulist(t.disallowed_pus), "0-31");
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(t.warnings[0],
            "no allowed PU: the export's allowed_cpuset allows none of the online PUs 0-31, so no "
            "placement can run here");
}

}  // namespace
}  // namespace schedrig::topology
