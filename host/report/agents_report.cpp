#include "host/report/agents_report.h"

#include <fmt/format.h>

#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

using Align = TextTable::Align;

std::string count_or_dash(bool known, unsigned n) { return known ? std::to_string(n) : "-"; }

nlohmann::json topology_json(const store::AgentRecord& a) {
  if (!a.has_topology) return nullptr;
  const store::TopologySummary& t = a.topology;
  return {{"packages", t.packages},
          {"numa_nodes", t.numa_nodes},
          {"llcs", t.llcs},
          {"cores", t.cores},
          {"pus", t.pus},
          {"smt", t.smt},
          {"online_cpus", t.online_cpus},
          {"offline_pus", t.offline_pus}};
}

}  // namespace

void print_agents_table(const std::vector<store::AgentRecord>& agents, std::ostream& out) {
  TextTable table({{"AGENT"},
                   {"HOSTNAME"},
                   {"KERNEL"},
                   {"PACKAGES", Align::kRight},
                   {"NODES", Align::kRight},
                   {"LLCS", Align::kRight},
                   {"CORES", Align::kRight},
                   {"PUS", Align::kRight},
                   {"SMT"},
                   {"ALLOWED", Align::kRight},
                   {"RUNS", Align::kRight},
                   {"LAST SEEN"}});
  for (const auto& a : agents) {
    const bool t = a.has_topology;
    table.add_row({a.agent_id, dash_if_empty(a.hostname), dash_if_empty(a.kernel_release),
                   count_or_dash(t, a.topology.packages), count_or_dash(t, a.topology.numa_nodes),
                   count_or_dash(t, a.topology.llcs), count_or_dash(t, a.topology.cores),
                   count_or_dash(t, a.topology.pus), t ? (a.topology.smt ? "yes" : "no") : "-",
                   std::to_string(a.allowed_pus), std::to_string(a.runs),
                   format_utc(a.last_seen_ns)});
  }
  table.print(out);
}

nlohmann::json agents_json(const std::vector<store::AgentRecord>& agents) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& a : agents) {
    list.push_back({{"agent_id", a.agent_id},
                    {"hostname", a.hostname},
                    {"kernel_release", a.kernel_release},
                    {"agent_version", a.agent_version},
                    {"instance_id", a.instance_id},
                    {"boot_id", a.boot_id},
                    {"allowed_pus", a.allowed_pus},
                    {"runs", a.runs},
                    {"last_seen_ns", a.last_seen_ns},
                    {"topology", topology_json(a)}});
  }
  return {{"agents", std::move(list)}};
}

}  // namespace schedrig::report
