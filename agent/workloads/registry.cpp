#include "agent/workloads/registry.h"

#include <fmt/format.h>

#include "agent/workloads/fork_storm.h"

namespace schedrig::workloads {
namespace {

ForkStormParams fork_params(const Params& p, const std::vector<int>& cpus) {
  ForkStormParams f;
  f.workers = static_cast<unsigned>(param_int("fork", p, "workers", 1, 65536, cpus.size()));
  f.fork_max = static_cast<unsigned>(param_int("fork", p, "fork_max", 1, 100000));
  f.pin = param_choice("fork", p, "pin", {"set", "per-cpu"}) == "per-cpu" ? PinMode::kPerCpu
                                                                          : PinMode::kSet;
  f.cpus = cpus;
  return f;
}

void validate_fork(const Params& p, std::size_t n_cpus) {
  fork_params(p, std::vector<int>(n_cpus, 0));
}

WorkloadResult run_fork(const Params& p, const RunContext& ctx) {
  ForkStormParams f = fork_params(p, ctx.cpus);
  f.duration = ctx.duration;
  ForkStormResult r = run_fork_storm(f, ctx.stop);
  using D = Direction;
  return {{{"bogo_ops_per_s", r.bogo_ops_per_s, "ops/s", D::kHigherIsBetter},
           {"bogo_ops", static_cast<double>(r.bogo_ops), "ops", D::kHigherIsBetter},
           {"fork_failures", static_cast<double>(r.fork_failures), "count", D::kLowerIsBetter},
           {"duration_s", r.duration_s, "s", D::kLowerIsBetter}},
          {{"workers", std::to_string(f.workers)},
           {"fork_max", std::to_string(f.fork_max)},
           {"pin", f.pin == PinMode::kPerCpu ? "per-cpu" : "set"}}};
}

std::vector<WorkloadInfo> make_registry() {
  return {
      {"fork",
       "fork storm, stress-ng --fork semantics: creators fork up to fork_max children that exit "
       "at once, then reap them; bogo ops = children reaped",
       {{"workers", "auto", "creator processes; auto = one per PU of the placement"},
        {"fork_max", "1", "children forked per loop before reaping"},
        {"pin", "set", "set: creators share the cpulist; per-cpu: creator i on PU i"}},
       "bogo_ops_per_s",
       "ops/s",
       Direction::kHigherIsBetter,
       validate_fork,
       run_fork},
  };
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
                                   fmt::join(names, ", ")));
    }
  }
  Params out = p;
  for (const auto& spec : w.params) {
    if (out.count(spec.name)) continue;
    if (!spec.default_value) {
      throw ParamError(fmt::format("{}: parameter '{}' is required", w.name, spec.name));
    }
    out[spec.name] = spec.default_value;
  }
  return out;
}

}  // namespace schedrig::workloads
