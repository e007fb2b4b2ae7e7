// The human view of a Topology (`schedrig-agent topology`).
#include <array>
#include <string>

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

}  // namespace

void print_topology(const Topology& t, std::ostream& out) {
  fmt::print(out, "{}, {}, {}, {}, {}, SMT {}; online {}; allowed {}\n",
             plural(t.packages, "package", "packages"),
             plural(static_cast<unsigned>(t.numa_nodes.size()), "NUMA node", "NUMA nodes"),
             plural(static_cast<unsigned>(t.llcs.size()), "LLC", "LLCs"),
             plural(t.cores, "core", "cores"), plural(t.pus, "PU", "PUs"), t.smt ? "on" : "off",
             format_cpulist(t.online_cpus), format_cpulist(t.allowed_cpus));
  for (const NumaNode& node : t.numa_nodes) {
    fmt::print(out, "NUMA node {}: {}, memory {}\n", node.os_index,
               cpus_or_none(node.cpus, "no cpus (memory only)"), human_bytes(node.memory_bytes));
  }
  for (std::size_t i = 0; i < t.llcs.size(); ++i) {
    const Llc& llc = t.llcs[i];
    fmt::print(out, "LLC {}: L{}, {}, shared by {}, {}\n", i, llc.level,
               llc.size_bytes == 0 ? std::string("size unknown") : human_bytes(llc.size_bytes),
               plural(llc.shared_by, "core", "cores"), cpus_or_none(llc.cpus, "no cpus"));
  }
}

}  // namespace schedrig::topology
