// The human view of a Topology (`schedrig-agent topology`).
#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

// "16 MiB", "512 KiB", "1.5 GiB": binary units, one decimal unless whole.
std::string human_bytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  if (value == static_cast<double>(static_cast<std::uint64_t>(value)))
    return fmt::format("{} {}", static_cast<std::uint64_t>(value), kUnits[unit]);
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::string plural(unsigned n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string cpus_or_none(const std::vector<int>& cpus, const char* none) {
  return cpus.empty() ? std::string(none) : "cpus " + format_cpulist(cpus);
}

std::string cache_size(const Llc& llc) {
  return llc.size_bytes == 0 ? std::string("size unknown") : human_bytes(llc.size_bytes);
}

// True when every LLC is a private per-core cache of one level and size
// (Ampere Altra's L2): then one line says so instead of one per core.
bool all_private(const std::vector<Llc>& llcs) {
  return llcs.size() > 1 && std::all_of(llcs.begin(), llcs.end(), [&](const Llc& l) {
           return l.shared_by == 1 && l.level == llcs.front().level &&
                  l.size_bytes == llcs.front().size_bytes;
         });
}

void print_llcs(const Topology& t, std::ostream& out) {
  if (all_private(t.llcs)) {
    std::vector<int> cpus;
    for (const Llc& llc : t.llcs) cpus.insert(cpus.end(), llc.cpus.begin(), llc.cpus.end());
    fmt::print(out,
               "LLC 0-{}: L{}, {} each, private (shared by 1 core each; no CPU cache is "
               "shared), one per core, {}\n",
               t.llcs.size() - 1, t.llcs.front().level, cache_size(t.llcs.front()),
               cpus_or_none(cpus, "no cpus"));
    return;
  }
  for (std::size_t i = 0; i < t.llcs.size(); ++i) {
    const Llc& llc = t.llcs[i];
    fmt::print(out, "LLC {}: L{}, {}, shared by {}, {}\n", i, llc.level, cache_size(llc),
               plural(llc.shared_by, "core", "cores"), cpus_or_none(llc.cpus, "no cpus"));
  }
}

// " (also listed by node 1: ambiguous export)" for a node whose CPUs another
// node lists too; "" otherwise.
std::string shared_with(const Topology& t, const NumaNode& node) {
  std::vector<int> others;
  for (const NumaNode& other : t.numa_nodes)
    if (&other != &node && !node.cpus.empty() && other.cpus == node.cpus)
      others.push_back(static_cast<int>(other.os_index));
  if (others.empty()) return "";
  return fmt::format(" (also listed by node{} {}: ambiguous export)", others.size() == 1 ? "" : "s",
                     format_cpulist(others));
}

// Online PUs no NUMA node holds (their node offline or missing in an export).
void print_nodeless(const Topology& t, std::ostream& out) {
  std::vector<int> in_nodes;
  for (const NumaNode& node : t.numa_nodes)
    in_nodes.insert(in_nodes.end(), node.cpus.begin(), node.cpus.end());
  std::sort(in_nodes.begin(), in_nodes.end());
  std::vector<int> nodeless;
  std::set_difference(t.online_cpus.begin(), t.online_cpus.end(), in_nodes.begin(), in_nodes.end(),
                      std::back_inserter(nodeless));
  if (nodeless.empty() || t.numa_nodes.empty()) return;
  fmt::print(out,
             "No NUMA node: cpus {} (their node is offline or missing in this source; they get "
             "no node-level sched domain)\n",
             format_cpulist(nodeless));
}

// "64 cores" (hwloc's Core objects), "64 cores in 32 compute units" where
// the kernel pairs them.
std::string cores_of(const Topology& t) {
  const std::string cores = plural(t.cores, "core", "cores");
  if (!t.compute_units) return cores;
  return fmt::format("{} in {} compute units", cores, t.core_cpus.size());
}

void print_smt(const Topology& t, std::ostream& out) {
  if (!t.smt || t.core_cpus.empty()) return;
  std::size_t least = t.core_cpus.front().size();
  std::size_t most = least;
  for (const auto& core : t.core_cpus) {
    least = std::min(least, core.size());
    most = std::max(most, core.size());
  }
  const std::string per_core =
      least == most ? fmt::format("{}", most) : fmt::format("{}-{}", least, most);
  const char* units = t.compute_units ? " (AMD compute units: the kernel makes the hwloc cores "
                                        "of a unit SMT siblings, x86 match_smt by cu_id)"
                                      : "";
  fmt::print(out, "SMT: {} PUs per core{}, siblings like core 0: cpus {}\n", per_core, units,
             format_cpulist(t.core_cpus.front()));
}

void print_distances(const Topology& t, std::ostream& out) {
  if (t.distances.empty()) {
    fmt::print(out,
               "NUMA distances: unknown (none in this source; domains assume Linux's 10 local, "
               "20 remote)\n");
    return;
  }
  std::size_t width = 4;
  for (const NumaNode& n : t.numa_nodes) width = std::max(width, std::to_string(n.os_index).size());
  for (const auto& row : t.distances)
    for (unsigned d : row) width = std::max(width, std::to_string(d).size());
  ++width;
  fmt::print(out, "NUMA distances ({}):\n", t.distances_source);
  std::string line = "  node";
  for (const NumaNode& n : t.numa_nodes) line += fmt::format("{:>{}}", n.os_index, width);
  fmt::print(out, "{}\n", line);
  for (std::size_t i = 0; i < t.distances.size(); ++i) {
    line = fmt::format("  {:>4}", t.numa_nodes[i].os_index);
    for (unsigned d : t.distances[i]) line += fmt::format("{:>{}}", d, width);
    fmt::print(out, "{}\n", line);
  }
}

// Whose rules the domains follow, for the heading.
std::string domain_rules(const Topology& t) {
  if (t.arch.empty())
    return "as the kernel would build them; architecture unknown, so drivers/base/"
           "arch_topology.c's rules";
  if (is_x86(t.arch))
    return fmt::format("as a Linux {} kernel would build them: arch/x86/kernel/smpboot.c", t.arch);
  static const std::array<std::string_view, 4> kGeneric = {"aarch64", "arm64", "riscv64",
                                                           "loongarch64"};
  const bool generic = std::find(kGeneric.begin(), kGeneric.end(), t.arch) != kGeneric.end();
  return fmt::format(
      "as a Linux {} kernel would build them: drivers/base/arch_topology.c{}", t.arch,
      generic ? "" : "'s generic rules; this architecture's own table is not modelled");
}

void print_domains(const Topology& t, std::ostream& out) {
  if (t.sched_domains.empty()) {
    fmt::print(out, "Sched domains: none (one PU: nothing to balance)\n");
    return;
  }
  fmt::print(out, "Sched domains ({}, bottom up):\n", domain_rules(t));
  if (!t.allowed_cpus.empty() && t.allowed_cpus != t.online_cpus) {
    fmt::print(out,
               "  (the machine's domains, built over all {} online PUs; counted where they hold an "
               "allowed PU, {})\n",
               t.online_cpus.size(), format_cpulist(t.allowed_cpus));
  }
  for (const SchedDomainLevel& level : t.sched_domains) {
    const std::string span = level.min_span == level.span
                                 ? fmt::format("{}", level.span)
                                 : fmt::format("{}-{}", level.min_span, level.span);
    std::string line = fmt::format("  {:<4} span {:>4} PUs, {}, {}", level.name, span,
                                   plural(level.groups, "group", "groups"),
                                   plural(level.domains, "domain", "domains"));
    if (level.distance != 0) line += fmt::format(", distance {}", level.distance);
    if (!level.rule.empty()) line += "; " + level.rule;
    fmt::print(out, "{}\n", line);
  }
}

}  // namespace

void print_topology(const Topology& t, std::ostream& out) {
  std::string summary =
      fmt::format("{}, {}, {}, {}, {}, SMT {}; online {}; allowed {}",
                  plural(t.packages, "package", "packages"),
                  plural(static_cast<unsigned>(t.numa_nodes.size()), "NUMA node", "NUMA nodes"),
                  plural(static_cast<unsigned>(t.llcs.size()), "LLC", "LLCs"), cores_of(t),
                  plural(t.pus, "PU", "PUs"), t.smt ? "on" : "off", format_cpulist(t.online_cpus),
                  format_cpulist(t.allowed_cpus));
  if (!t.offline_pus.empty()) summary += "; offline " + format_cpulist(t.offline_pus);
  if (!t.disallowed_pus.empty()) summary += "; disallowed " + format_cpulist(t.disallowed_pus);
  fmt::print(out, "{}\n", summary);
  for (const std::string& warning : t.warnings) fmt::print(out, "warning: {}\n", warning);
  for (std::size_t i = 0; i < t.package_cpus.size(); ++i)
    fmt::print(out, "Package {}: {}\n", i, cpus_or_none(t.package_cpus[i], "no cpus"));
  const bool sizes_known = std::any_of(t.numa_nodes.begin(), t.numa_nodes.end(),
                                       [](const NumaNode& n) { return n.memory_bytes > 0; });
  for (const NumaNode& node : t.numa_nodes) {
    fmt::print(out, "NUMA node {}: {}{}, memory {}\n", node.os_index,
               cpus_or_none(node.cpus, "no cpus (memory only)"), shared_with(t, node),
               sizes_known ? human_bytes(node.memory_bytes) : "unknown");
  }
  print_nodeless(t, out);
  print_llcs(t, out);
  if (!t.clusters.empty()) {
    std::string list;
    for (const auto& c : t.clusters) {
      list += ' ';  // (not " " + s: GCC 12 -Wrestrict false positive)
      list += format_cpulist(c);
    }
    fmt::print(out, "Clusters ({}):{}\n", t.clusters.size(), list);
  }
  print_smt(t, out);
  print_distances(t, out);
  print_domains(t, out);
}

}  // namespace schedrig::topology
