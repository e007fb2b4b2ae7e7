// resolve_placement: policy string -> PUs.
#include "agent/placement/placement.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "common/cpulist.h"

namespace schedrig::placement {
namespace {

constexpr std::string_view kSupported =
    "supported: all (every allowed PU), cpus:LIST (a cpulist such as cpus:0-3,8)";
constexpr std::string_view kCpusPrefix = "cpus:";

[[noreturn]] void fail(const std::string& policy, const std::string& reason) {
  throw PlacementError(fmt::format("placement '{}': {}; {}", policy, reason, kSupported));
}

std::vector<int> resolve_cpus(const std::string& policy, std::string_view list,
                              const topology::Topology& t) {
  std::vector<int> cpus;
  try {
    cpus = parse_cpulist(list);
  } catch (const std::invalid_argument& e) {
    fail(policy, e.what());
  }
  if (cpus.empty()) fail(policy, "the cpulist is empty");
  std::vector<int> allowed = t.allowed_cpus;
  std::sort(allowed.begin(), allowed.end());
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

}  // namespace

std::vector<int> resolve_placement(const std::string& policy, const topology::Topology& t) {
  if (policy == "all") {
    if (t.allowed_cpus.empty()) fail(policy, "this topology has no allowed PUs");
    return t.allowed_cpus;
  }
  if (policy.starts_with(kCpusPrefix))
    return resolve_cpus(policy, std::string_view(policy).substr(kCpusPrefix.size()), t);
  fail(policy, "unknown policy");
}

}  // namespace schedrig::placement
