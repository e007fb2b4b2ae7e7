#include "agent/workloads/registry.h"

#include <fmt/format.h>

#include "agent/workloads/workload_cases.h"

namespace schedrig::workloads {
namespace {

std::vector<WorkloadInfo> make_registry() {
  return {fork_workload(),
          wakeup_workload(),
          kv_workload(),
          schbench_workload(),
          stress_ng_workload(),
          hackbench_workload(),
          perf_bench_sched_workload()};
}

}  // namespace

const std::vector<WorkloadInfo>& all_workloads() {
  static const std::vector<WorkloadInfo> registry = make_registry();
  return registry;
}

const WorkloadInfo& find_workload(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& w : all_workloads()) {
    if (name == w.name) return w;
    names.push_back(w.name);
  }
  throw ParamError(
      fmt::format("workload '{}' is not known (known: {})", name, fmt::join(names, ", ")));
}

Params with_defaults(const WorkloadInfo& w, const Params& p) {
  for (const auto& [name, value] : p) {
    bool known = false;
    for (const auto& spec : w.params) known = known || name == spec.name;
    if (!known) {
      std::vector<std::string> names;
      for (const auto& spec : w.params) names.push_back(spec.name);
      throw ParamError(fmt::format("{}: parameter '{}' is not known (known: {})", w.name, name,
                                   fmt::join(names, ", ")),
                       name);
    }
  }
  Params out = p;
  for (const auto& spec : w.params) {
    if (out.count(spec.name)) continue;
    if (!spec.default_value) {
      throw ParamError(fmt::format("{}: parameter '{}' is required", w.name, spec.name), spec.name);
    }
    out[spec.name] = spec.default_value;
  }
  return out;
}

}  // namespace schedrig::workloads
