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

std::vector<WorkloadInfo>& registry() {
  static std::vector<WorkloadInfo> workloads = make_registry();
  return workloads;
}

}  // namespace

const std::vector<WorkloadInfo>& all_workloads() { return registry(); }

void add_workload_for_tests(const WorkloadInfo& w) {
  for (const auto& known : registry())
    if (std::string(known.name) == w.name)
      throw ParamError(fmt::format("workload '{}' is registered already", w.name));
  registry().push_back(w);
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
