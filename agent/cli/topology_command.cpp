// `schedrig-agent topology [--xml F | --synthetic D] [--json]`: prints the
// machine as the agent sees it (DESIGN.md "Command lines").
#include <iostream>
#include <memory>
#include <string>

#include "agent/cli/commands.h"
#include "agent/topology/topology.h"
#include "common/cli_error.h"
#include "common/exit_codes.h"

namespace schedrig::agent {

void add_topology_command(CLI::App& app, int& exit_code) {
  struct Options {
    std::string xml;
    std::string synthetic;
    bool json = false;
  };
  auto opts = std::make_shared<Options>();

  CLI::App* cmd = app.add_subcommand(
      "topology",
      "Show the machine as hwloc maps it: packages, NUMA nodes (cpulist, memory), last-level "
      "caches (level, size, cores sharing each, cpulist), core and PU counts, SMT, and the "
      "online and allowed cpulists (allowed = cgroup cpuset and this process's affinity). "
      "Reads this machine unless --xml or --synthetic names another.");
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
  cmd->add_flag("--json", opts->json,
                "Print JSON: packages, numa_nodes[{os_index,cpus,memory_bytes}], "
                "llcs[{cpus,level,size_bytes,shared_by}], cores, pus, smt, online_cpus, "
                "allowed_cpus; cpus values are cpulist strings (\"0-3,8\")");
  cmd->footer(
      "Examples:\n"
      "  schedrig-agent topology\n"
      "  schedrig-agent topology --json\n"
      "  schedrig-agent topology --xml epyc.xml\n"
      "  schedrig-agent topology --synthetic \"pack:2 numa:1 l3:2 core:4 pu:2\"");

  cmd->callback([opts, xml, synthetic, &exit_code] {
    topology::Source source;
    if (xml->count() > 0) {
      source = {topology::Source::Kind::kXml, opts->xml};
    } else if (synthetic->count() > 0) {
      source = {topology::Source::Kind::kSynthetic, opts->synthetic};
    }
    topology::Topology t;
    try {
      t = topology::load_topology(source);
    } catch (const topology::TopologyError& e) {
      // A bad --xml or --synthetic is bad input; hwloc failing on this very
      // machine is a kernel facility it cannot reach.
      throw CliError(source.kind == topology::Source::Kind::kLive ? kExitUnreachable : kExitUsage,
                     e.what());
    }
    if (opts->json) {
      std::cout << topology::topology_to_json(t).dump(2) << '\n';
    } else {
      topology::print_topology(t, std::cout);
    }
    std::cout.flush();
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::agent
