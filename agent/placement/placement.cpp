// resolve_placement: policy string -> PUs, from the Topology alone.
#include "agent/placement/placement.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "agent/topology/cpu_sets.h"
#include "common/cpulist.h"
#include "common/parse_whole.h"

namespace schedrig::placement {
namespace {

constexpr std::string_view kSupported =
    "supported: all, cpulist:LIST (alias cpus:LIST), node:N, package:N, llc:N, compact:K, "
    "spread:K, split:K";

[[noreturn]] void fail(const std::string& policy, const std::string& reason) {
  throw PlacementError(fmt::format("placement '{}': {}; {}", policy, reason, kSupported));
}

std::string pus(std::size_t n) { return fmt::format("{} {}", n, n == 1 ? "PU" : "PUs"); }

// The decimal number after "NAME:", or a PlacementError naming the policy.
unsigned parse_number(const std::string& policy, std::string_view text, const char* what) {
  unsigned value = 0;
  const ParseStatus status = parse_whole_status(text, value);
  if (status == ParseStatus::kOutOfRange) {
    fail(policy, fmt::format("{} '{}' is out of range", what, text));
  }
  if (status != ParseStatus::kOk) {
    fail(policy, fmt::format("'{}' is not a {} (want a decimal number, e.g. {}:1)", text, what,
                             policy.substr(0, policy.find(':'))));
  }
  return value;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

Placement just(const std::string& policy, std::vector<int> cpus) {
  return Placement{
      .cpus = std::move(cpus), .message_cpus = {}, .worker_cpus = {}, .policy = policy};
}

// The allowed PUs of `set` (a node, package or LLC called `name`), or an
// error when none is allowed.
std::vector<int> allowed_part(const std::string& policy, const std::string& name,
                              const std::vector<int>& set, const std::vector<int>& allowed) {
  std::vector<int> cpus = topology::intersect(set, allowed);
  if (cpus.empty()) {
    fail(policy, fmt::format("none of {}'s PUs ({}) is allowed here (allowed cpulist '{}')", name,
                             format_cpulist(set), format_cpulist(allowed)));
  }
  return cpus;
}

std::vector<int> resolve_cpulist(const std::string& policy, std::string_view list,
                                 const std::vector<int>& allowed) {
  std::vector<int> cpus;
  try {
    cpus = parse_cpulist(list);
  } catch (const std::invalid_argument& e) {
    fail(policy, e.what());
  }
  if (cpus.empty()) fail(policy, "the cpulist is empty");
  std::vector<int> outside;
  std::set_difference(cpus.begin(), cpus.end(), allowed.begin(), allowed.end(),
                      std::back_inserter(outside));
  if (!outside.empty()) {
    fail(policy, fmt::format("{} {} {} not in the allowed cpulist '{}'",
                             outside.size() == 1 ? "PU" : "PUs", format_cpulist(outside),
                             outside.size() == 1 ? "is" : "are", format_cpulist(allowed)));
  }
  return cpus;
}

std::vector<int> resolve_node(const std::string& policy, unsigned n, const topology::Topology& t,
                              const std::vector<int>& allowed) {
  std::vector<int> ids;
  std::vector<int> with_cpus;
  const topology::NumaNode* node = nullptr;
  for (const topology::NumaNode& candidate : t.numa_nodes) {
    ids.push_back(static_cast<int>(candidate.os_index));
    if (!candidate.cpus.empty()) with_cpus.push_back(static_cast<int>(candidate.os_index));
    if (candidate.os_index == n) node = &candidate;
  }
  if (node == nullptr) {
    fail(policy, fmt::format("no NUMA node {}; this machine has {} {} ({})", n, ids.size(),
                             ids.size() == 1 ? "node" : "nodes", format_cpulist(ids)));
  }
  if (node->cpus.empty()) {
    fail(policy, fmt::format("NUMA node {} has no CPUs (memory only); nodes with CPUs: {}", n,
                             format_cpulist(with_cpus)));
  }
  return allowed_part(policy, fmt::format("node {}", n), node->cpus, allowed);
}

std::vector<int> resolve_indexed(const std::string& policy, unsigned n, const char* what,
                                 const std::vector<std::vector<int>>& sets,
                                 const std::vector<int>& allowed) {
  const std::string prefix = policy.substr(0, policy.find(':'));
  if (sets.empty()) fail(policy, fmt::format("hwloc finds no {} on this machine", what));
  if (n >= sets.size()) {
    fail(policy, fmt::format("no {} {}; this machine has {} ({}:0 to {}:{})", prefix, n,
                             sets.size(), prefix, prefix, sets.size() - 1));
  }
  return allowed_part(policy, fmt::format("{} {}", prefix, n), sets[n], allowed);
}

// Where one allowed PU sits: indexes (in Topology order; -1 when it has none)
// of its outer and inner container (package and NUMA node, outermost first:
// see nodes_hold_packages), its LLC and its core, and its rank among the
// core's allowed PUs (0 = first SMT sibling).
struct Seat {
  int cpu = 0;
  int outer = -1;
  int inner = -1;
  int llc = -1;
  int core = -1;
  int rank = 0;
  int key(int level) const {
    switch (level) {
      case 0:
        return outer;
      case 1:
        return inner;
      case 2:
        return llc;
      default:
        return core;
    }
  }
};

std::vector<std::vector<int>> node_sets(const topology::Topology& t) {
  std::vector<std::vector<int>> nodes;
  for (const topology::NumaNode& n : t.numa_nodes) nodes.push_back(n.cpus);
  return nodes;
}

// True when NUMA nodes contain packages (16 sockets in 4 nodes): every
// package's PUs lie in one node and some node holds two packages. Then
// spread goes node by node first; otherwise (one node per package, or
// several per package: NPS4, SNC) package by package.
bool nodes_hold_packages(const topology::Topology& t) {
  const std::vector<std::vector<int>> nodes = node_sets(t);
  std::map<int, int> packages_in_node;
  for (const std::vector<int>& package : t.package_cpus) {
    if (package.empty()) continue;
    const int node = topology::index_holding(nodes, package.front());
    for (int cpu : package)
      if (node < 0 || topology::index_holding(nodes, cpu) != node) return false;
    ++packages_in_node[node];
  }
  return std::any_of(packages_in_node.begin(), packages_in_node.end(),
                     [](const auto& entry) { return entry.second > 1; });
}

std::vector<Seat> seats_of(const topology::Topology& t, const std::vector<int>& allowed) {
  const std::vector<std::vector<int>> nodes = node_sets(t);
  std::vector<std::vector<int>> llcs;
  for (const topology::Llc& l : t.llcs) llcs.push_back(l.cpus);
  const bool nodes_outer = nodes_hold_packages(t);
  std::vector<Seat> seats;
  std::map<int, int> taken_in_core;  // core (or -cpu-1 without one) -> allowed PUs seen
  for (int cpu : allowed) {          // sorted, so SMT ranks follow PU numbers within a core
    const int package = topology::index_holding(t.package_cpus, cpu);
    const int node = topology::index_holding(nodes, cpu);
    Seat s{.cpu = cpu,
           .outer = nodes_outer ? node : package,
           .inner = nodes_outer ? package : node,
           .llc = topology::index_holding(llcs, cpu),
           .core = topology::index_holding(t.core_cpus, cpu),
           .rank = 0};
    if (s.core < 0) s.core = static_cast<int>(t.core_cpus.size()) + cpu;  // a core of its own
    s.rank = taken_in_core[s.core]++;
    seats.push_back(s);
  }
  return seats;
}

// Round-robin order across the outer containers, then the inner ones, then
// LLCs, then cores, each core's first allowed PU before its siblings.
std::vector<int> spread_order(const std::vector<Seat>& seats, int level) {
  if (level == 4) {
    std::vector<Seat> core = seats;
    std::sort(core.begin(), core.end(),
              [](const Seat& a, const Seat& b) { return a.rank < b.rank; });
    std::vector<int> out;
    for (const Seat& s : core) out.push_back(s.cpu);
    return out;
  }
  std::map<int, std::vector<Seat>> groups;  // ordered by index; -1 (none) first
  for (const Seat& s : seats) groups[s.key(level)].push_back(s);
  std::vector<std::vector<int>> orders;
  for (const auto& [key, members] : groups) orders.push_back(spread_order(members, level + 1));
  std::vector<int> out;
  for (std::size_t round = 0; out.size() < seats.size(); ++round)
    for (const auto& order : orders)
      if (round < order.size()) out.push_back(order[round]);
  return out;
}

// LLC by LLC (PUs in no LLC last): first allowed PU of each core, then the
// next SMT sibling of each core, and so on.
std::vector<int> compact_order(std::vector<Seat> seats) {
  const auto llc_rank = [](const Seat& s) {
    return s.llc < 0 ? std::numeric_limits<int>::max() : s.llc;
  };
  std::sort(seats.begin(), seats.end(), [&](const Seat& a, const Seat& b) {
    if (llc_rank(a) != llc_rank(b)) return llc_rank(a) < llc_rank(b);
    if (a.rank != b.rank) return a.rank < b.rank;
    return a.core < b.core;
  });
  std::vector<int> out;
  for (const Seat& s : seats) out.push_back(s.cpu);
  return out;
}

unsigned parse_count(const std::string& policy, std::string_view text, std::size_t allowed,
                     const std::vector<int>& allowed_cpus) {
  const unsigned k = parse_number(policy, text, "PU count K");
  if (k == 0) fail(policy, "K must be at least 1");
  if (k > allowed) {
    fail(policy, fmt::format("K = {} is more than the {} allowed on this machine (cpulist '{}')", k,
                             pus(allowed), format_cpulist(allowed_cpus)));
  }
  return k;
}

std::vector<int> first(const std::vector<int>& order, unsigned k) {
  return sorted(std::vector<int>(order.begin(), order.begin() + k));
}

}  // namespace

const char* policy_help() {
  return "Placement policies (each uses only allowed PUs: online, in this process's cgroup and "
         "affinity; the same policy on the same topology always gives the same cpulist):\n"
         "  all           every allowed PU; e.g. all\n"
         "  cpulist:LIST  exactly these PUs (alias cpus:LIST); e.g. cpulist:0-3,8\n"
         "  node:N        the PUs of NUMA node N (OS index, as numactl); e.g. node:1\n"
         "  package:N     the PUs of package N (logical index 0..P-1); e.g. package:0\n"
         "  llc:N         the PUs of last-level cache N (as `topology` numbers them); e.g. llc:3\n"
         "  compact:K     K PUs packed: fill one LLC, one PU per core before SMT siblings, then "
         "the next LLC; e.g. compact:8\n"
         "  spread:K      K PUs round-robin over packages and NUMA nodes (whichever holds the "
         "other first), LLCs, then cores, SMT siblings last (like hwloc-distrib); e.g. spread:4\n"
         "  split:K       K message PUs spread one per NUMA node (then per LLC), workers on every "
         "other allowed PU; e.g. split:2";
}

Placement resolve_placement(const std::string& policy, const topology::Topology& t) {
  const std::vector<int> allowed = sorted(t.allowed_cpus);
  if (allowed.empty()) fail(policy, "this topology has no allowed PUs");
  const std::string_view p(policy);
  const std::size_t colon = p.find(':');
  const std::string_view name = p.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? "" : p.substr(colon + 1);
  const bool has_arg = colon != std::string_view::npos;

  if (policy == "all") return just(policy, allowed);
  if (has_arg && (name == "cpulist" || name == "cpus"))
    return just(policy, resolve_cpulist(policy, arg, allowed));
  if (has_arg && name == "node")
    return just(policy,
                resolve_node(policy, parse_number(policy, arg, "NUMA node number"), t, allowed));
  if (has_arg && name == "package") {
    return just(policy, resolve_indexed(policy, parse_number(policy, arg, "package index"),
                                        "packages", t.package_cpus, allowed));
  }
  if (has_arg && name == "llc") {
    std::vector<std::vector<int>> llcs;
    for (const topology::Llc& l : t.llcs) llcs.push_back(l.cpus);
    return just(policy, resolve_indexed(policy, parse_number(policy, arg, "LLC index"), "LLCs",
                                        llcs, allowed));
  }
  if (has_arg && (name == "compact" || name == "spread")) {
    const unsigned k = parse_count(policy, arg, allowed.size(), allowed);
    const std::vector<Seat> seats = seats_of(t, allowed);
    return just(policy,
                first(name == "compact" ? compact_order(seats) : spread_order(seats, 0), k));
  }
  if (has_arg && name == "split") {
    const unsigned k = parse_number(policy, arg, "message PU count K");
    if (k == 0) fail(policy, "K must be at least 1");
    if (allowed.size() < 2) {
      fail(policy, fmt::format("split needs at least 2 allowed PUs, one for messages and one for "
                               "workers; this machine allows {} (cpulist '{}')",
                               pus(allowed.size()), format_cpulist(allowed)));
    }
    if (k >= allowed.size()) {
      fail(policy,
           fmt::format("K = {} leaves no worker PU: this machine allows {} (cpulist "
                       "'{}'), so K can be at most {}",
                       k, pus(allowed.size()), format_cpulist(allowed), allowed.size() - 1));
    }
    Placement out;
    out.policy = policy;
    out.cpus = allowed;
    out.message_cpus = first(spread_order(seats_of(t, allowed), 0), k);
    std::set_difference(allowed.begin(), allowed.end(), out.message_cpus.begin(),
                        out.message_cpus.end(), std::back_inserter(out.worker_cpus));
    return out;
  }
  fail(policy, "unknown policy");
}

}  // namespace schedrig::placement
