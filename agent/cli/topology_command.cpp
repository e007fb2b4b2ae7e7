// `schedrig-agent topology [--xml F | --synthetic D] [--json] [--placement P]...`:
// prints the machine as the agent sees it, and what placement policies
// resolve to on it (DESIGN.md "Command lines").
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/placement/placement.h"
#include "agent/topology/topology.h"
#include "common/cli_error.h"
#include "common/cpulist.h"
#include "common/exit_codes.h"

namespace schedrig::agent {
namespace {

nlohmann::json placement_json(const placement::Placement& p) {
  nlohmann::json j = {{"policy", p.policy}, {"cpus", format_cpulist(p.cpus)}};
  if (!p.message_cpus.empty()) {
    j["message_cpus"] = format_cpulist(p.message_cpus);
    j["worker_cpus"] = format_cpulist(p.worker_cpus);
  }
  return j;
}

std::string placement_line(const placement::Placement& p) {
  std::string line = fmt::format("placement {}: cpus {} ({} {})", p.policy, format_cpulist(p.cpus),
                                 p.cpus.size(), p.cpus.size() == 1 ? "PU" : "PUs");
  if (!p.message_cpus.empty()) {
    line += fmt::format("; message cpus {}; worker cpus {}", format_cpulist(p.message_cpus),
                        format_cpulist(p.worker_cpus));
  }
  return line;
}

}  // namespace

void add_topology_command(CLI::App& app, int& exit_code) {
  struct Options {
    std::string xml;
    std::string synthetic;
    std::vector<std::string> placements;
    bool json = false;
  };
  auto opts = std::make_shared<Options>();

  CLI::App* cmd = app.add_subcommand(
      "topology",
      "Show the machine as hwloc maps it: packages, NUMA nodes (cpulist, memory, distance "
      "matrix), last-level caches (level, size, cores sharing each, cpulist), clusters, cores "
      "and their SMT siblings, PUs, the online, allowed, offline and disallowed cpulists "
      "(allowed = cgroup cpuset and this process's affinity), and the scheduler-domain levels "
      "(SMT, CLS, MC, PKG, NUMA) the kernel would build, each with its span and groups. Reads "
      "this machine unless --xml or --synthetic names another; live-only sources (libnuma, "
      "sysfs distances, affinity) never apply to those.");
  CLI::Option* xml =
      cmd->add_option("--xml", opts->xml,
                      "Read the topology from an hwloc XML file (as written by `lstopo "
                      "--of xml`; versions 1 and 2) instead of this machine")
          ->type_name("FILE");
  CLI::Option* synthetic =
      cmd->add_option("--synthetic", opts->synthetic,
                      "Build an hwloc synthetic topology from a description, e.g. "
                      "\"pack:2 numa:1 l3:2 core:4 pu:2\"")
          ->type_name("DESC");
  xml->excludes(synthetic);
  cmd->add_option("--placement", opts->placements,
                  "Also resolve this placement policy on the topology and print its cpulists "
                  "(repeatable), e.g. --placement spread:4 --placement split:2; the policies are "
                  "listed below")
      ->type_name("POLICY");
  cmd->add_flag("--json", opts->json,
                "Print JSON: packages, package_cpus, numa_nodes[{os_index,cpus,memory_bytes}], "
                "llcs[{cpus,level,size_bytes,shared_by}], clusters, cores, core_cpus, pus, smt, "
                "online_cpus, allowed_cpus, offline_pus, disallowed_pus, distances (row per "
                "node), distances_source, sched_domains[{name,span,min_span,groups,domains,"
                "distance}], and placements[{policy,cpus,message_cpus,worker_cpus}] when asked; "
                "cpus values are cpulist strings (\"0-3,8\")");
  cmd->footer(
      std::string("Examples:\n"
                  "  schedrig-agent topology\n"
                  "  schedrig-agent topology --json\n"
                  "  schedrig-agent topology --xml hwloc-profiles/ampere-altra-2s-q80.xml\n"
                  "  schedrig-agent topology --synthetic \"pack:2 numa:1 l3:2 core:4 pu:2\"\n"
                  "  schedrig-agent topology --xml epyc.xml --placement split:2\n\n") +
      placement::policy_help());

  cmd->callback([opts, xml, synthetic, &exit_code] {
    topology::Source source;
    if (xml->count() > 0) {
      source = {topology::Source::Kind::kXml, opts->xml};
    } else if (synthetic->count() > 0) {
      source = {topology::Source::Kind::kSynthetic, opts->synthetic};
    }
    topology::Topology t;
    std::vector<placement::Placement> placements;
    try {
      t = topology::load_topology(source);
    } catch (const topology::TopologyError& e) {
      // A bad --xml or --synthetic is bad input; hwloc failing on this very
      // machine is a kernel facility it cannot reach.
      throw CliError(source.kind == topology::Source::Kind::kLive ? ErrorKind::kUnreachable : ErrorKind::kUsage,
                     e.what());
    }
    try {
      for (const std::string& policy : opts->placements)
        placements.push_back(placement::resolve_placement(policy, t));
    } catch (const placement::PlacementError& e) {
      throw CliError(ErrorKind::kUsage, e.what());
    }
    if (opts->json) {
      nlohmann::json j = topology::topology_to_json(t);
      if (!placements.empty()) {
        j["placements"] = nlohmann::json::array();
        for (const auto& p : placements) j["placements"].push_back(placement_json(p));
      }
      std::cout << j.dump(2) << '\n';
    } else {
      topology::print_topology(t, std::cout);
      for (const auto& p : placements) std::cout << placement_line(p) << '\n';
    }
    std::cout.flush();
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::agent
