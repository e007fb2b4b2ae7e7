// `schedrig-agent topology [--xml F | --synthetic D] [--json] [--placement P]...`:
// prints the machine as the agent sees it, and what placement policies
// resolve to on it (docs/architecture.md "Command lines").
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

struct TopologyOptions {
  std::string xml;
  std::string synthetic;
  std::vector<std::string> placements;
  bool json = false;
  CLI::Option* xml_flag = nullptr;        // set by add_topology_flags
  CLI::Option* synthetic_flag = nullptr;  // set by add_topology_flags
};

CLI::App* add_topology_subcommand(CLI::App& app) {
  return app.add_subcommand(
      "topology",
      "Show the machine as hwloc maps it: packages, NUMA nodes (cpulist, memory, distance "
      "matrix), last-level caches (level, size, cores sharing each, cpulist), clusters, cores "
      "and their SMT siblings, PUs, the online, allowed, offline and disallowed cpulists "
      "(allowed = cgroup cpuset and this process's affinity; an export's allowed_cpuset), and "
      "the scheduler-domain levels (SMT, CLS, MC, PKG or NODE, NUMA) the kernel would build, "
      "each with its span, groups and the kernel rule its mask and name follow (x86's from "
      "arch/x86/kernel/smpboot.c, others' from drivers/base/arch_topology.c). Exports that "
      "cannot be trusted are named in 'warning:' lines. Reads this machine unless --xml or "
      "--synthetic names another; live-only sources (libnuma, sysfs distances, affinity) never "
      "apply to those.");
}

void add_topology_flags(CLI::App& cmd, TopologyOptions& o) {
  o.xml_flag = cmd.add_option("--xml", o.xml,
                              "Read the topology from an hwloc XML file (as written by `lstopo "
                              "--of xml`; versions 1 and 2) instead of this machine")
                   ->type_name("FILE");
  o.synthetic_flag = cmd.add_option("--synthetic", o.synthetic,
                                    "Build an hwloc synthetic topology from a description, e.g. "
                                    "\"pack:2 numa:1 l3:2 core:4 pu:2\"")
                         ->type_name("DESC");
  o.xml_flag->excludes(o.synthetic_flag);
  cmd.add_option("--placement", o.placements,
                 "Also resolve this placement policy on the topology and print its cpulists "
                 "(repeatable), e.g. --placement spread:4 --placement split:2; the policies are "
                 "listed below")
      ->type_name("POLICY");
  cmd.add_flag("--json", o.json,
               "Print JSON: arch, packages, package_cpus, numa_nodes[{os_index,cpus,"
               "memory_bytes}], llcs[{cpus,level,size_bytes,shared_by}], clusters, cores, "
               "core_cpus, pus, smt, compute_units, online_cpus, allowed_cpus, offline_pus, "
               "disallowed_pus, distances (row per node), distances_source, sched_domains[{name,"
               "span,min_span,groups,domains,distance,rule}], warnings, and placements[{policy,"
               "cpus,message_cpus,worker_cpus}] when asked; cpus values are cpulist strings "
               "(\"0-3,8\")");
}

void add_topology_footer(CLI::App& cmd) {
  cmd.footer(
      std::string("Examples:\n"
                  "  schedrig-agent topology\n"
                  "  schedrig-agent topology --json\n"
                  "  schedrig-agent topology --xml hwloc-profiles/ampere-altra-2s-q80.xml\n"
                  "  schedrig-agent topology --synthetic \"pack:2 numa:1 l3:2 core:4 pu:2\"\n"
                  "  schedrig-agent topology --xml epyc.xml --placement split:2\n\n") +
      placement::policy_help());
}

// The live machine unless --xml or --synthetic was given.
topology::Source source_of(const TopologyOptions& o) {
  if (o.xml_flag->count() > 0) return {topology::Source::Kind::kXml, o.xml};
  if (o.synthetic_flag->count() > 0) return {topology::Source::Kind::kSynthetic, o.synthetic};
  return {};
}

topology::Topology load(const topology::Source& source) {
  try {
    return topology::load_topology(source);
  } catch (const topology::TopologyError& e) {
    // A bad --xml or --synthetic is bad input; hwloc failing on this very
    // machine is a kernel facility it cannot reach.
    throw CliError(
        source.kind == topology::Source::Kind::kLive ? ErrorKind::kUnreachable : ErrorKind::kUsage,
        e.what());
  }
}

std::vector<placement::Placement> resolve_all(const std::vector<std::string>& policies,
                                              const topology::Topology& t) {
  std::vector<placement::Placement> placements;
  try {
    for (const std::string& policy : policies)
      placements.push_back(placement::resolve_placement(policy, t));
  } catch (const placement::PlacementError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  return placements;
}

void print_json(const topology::Topology& t, const std::vector<placement::Placement>& placements) {
  nlohmann::json j = topology::topology_to_json(t);
  if (!placements.empty()) {
    j["placements"] = nlohmann::json::array();
    for (const auto& p : placements) j["placements"].push_back(placement_json(p));
  }
  std::cout << j.dump(2) << '\n';
}

void print_text(const topology::Topology& t, const std::vector<placement::Placement>& placements) {
  topology::print_topology(t, std::cout);
  for (const auto& p : placements) std::cout << placement_line(p) << '\n';
}

void run_topology(const TopologyOptions& o) {
  const topology::Topology t = load(source_of(o));
  const std::vector<placement::Placement> placements = resolve_all(o.placements, t);
  if (o.json) {
    print_json(t, placements);
  } else {
    print_text(t, placements);
  }
  std::cout.flush();
}

}  // namespace

void add_topology_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<TopologyOptions>();
  CLI::App* cmd = add_topology_subcommand(app);
  add_topology_flags(*cmd, *opts);
  add_topology_footer(*cmd);
  cmd->callback([opts, &exit_code] {
    run_topology(*opts);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::agent
