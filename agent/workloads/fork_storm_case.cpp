// The fork storm in the registry: plan parameters -> ForkStormParams, its
// result -> metrics (fork_storm.h).
#include "agent/workloads/workload_cases.h"

#include <fmt/format.h>

#include "agent/workloads/fork_storm.h"

namespace schedrig::workloads {
namespace {

using D = Direction;

ForkStormParams fork_params(const Params& p, const std::vector<int>& cpus) {
  ForkStormParams f;
  f.workers = static_cast<unsigned>(param_int("fork", p, "workers", 1, 65536, cpus.size()));
  f.fork_max = static_cast<unsigned>(param_int("fork", p, "fork_max", 1, 16000));
  f.pin = param_choice("fork", p, "pin", {"set", "per-cpu"}) == "per-cpu" ? PinMode::kPerCpu
                                                                          : PinMode::kSet;
  f.record_placement = param_choice("fork", p, "placement_stats", {"on", "off"}) == "on";
  f.child_body = param_choice("fork", p, "child_body", {"exit", "stress-ng"}) == "stress-ng"
                     ? ChildBody::kStressNg
                     : ChildBody::kExit;
  f.cpus = cpus;
  return f;
}

void validate_fork(const Params& p, std::size_t n_cpus) {
  fork_params(p, std::vector<int>(n_cpus, 0));
}

WorkloadResult run_fork(const Params& p, const RunContext& ctx) {
  ForkStormParams f = fork_params(p, ctx.cpus);
  f.duration = ctx.duration;
  f.pu_to_llc = ctx.pu_to_llc;
  f.pu_to_node = ctx.pu_to_node;
  f.observer = ctx.observer;
  ForkStormResult r = run_fork_storm(f, ctx.stop);
  WorkloadResult out;
  out.metrics = {
      {"bogo_ops_per_s", r.bogo_ops_per_s, "ops/s", D::kHigherIsBetter},
      {"bogo_ops", static_cast<double>(r.bogo_ops), "ops", D::kHigherIsBetter},
      {"fork_failures", static_cast<double>(r.fork_failures), "count", D::kLowerIsBetter},
      {"duration_s", r.duration_s, "s", D::kLowerIsBetter}};
  if (r.recorded) {
    auto& m = out.metrics;
    // Informational: no better or worse, marked higher so it reads as locality.
    m.push_back({"same_pu_rate", r.same_pu_rate, "fraction", D::kHigherIsBetter});
    m.push_back({"placement_collision_rate", r.collision_rate, "fraction", D::kLowerIsBetter});
    if (!f.pu_to_llc.empty()) {
      m.push_back(
          {"placement_collision_rate_llc", r.collision_rate_llc, "fraction", D::kLowerIsBetter});
    }
    for (const auto& [node, n] : r.children_per_node) {
      m.push_back(
          {node < 0 ? std::string("children_node_unknown") : fmt::format("children_node{}", node),
           static_cast<double>(n), "count", D::kHigherIsBetter});
    }
    for (const auto& [llc, n] : r.children_per_llc) {
      m.push_back(
          {llc < 0 ? std::string("children_llc_unknown") : fmt::format("children_llc{}", llc),
           static_cast<double>(n), "count", D::kHigherIsBetter});
    }
  }
  out.effective_params = {
      {"workers", std::to_string(f.workers)},
      {"fork_max", std::to_string(f.fork_max)},
      {"pin", f.pin == PinMode::kPerCpu ? "per-cpu" : "set"},
      {"placement_stats", f.record_placement ? "on" : "off"},
      {"child_body", f.child_body == ChildBody::kStressNg ? "stress-ng" : "exit"}};
  return out;
}

}  // namespace

WorkloadInfo fork_workload() {
  return {"fork",
          "fork storm, stress-ng --fork semantics: creators fork up to fork_max children that exit "
          "at once, then reap them; bogo ops = children reaped; records where each child first ran",
          {{"workers", "auto", "creator processes; auto = one per PU of the placement"},
           {"fork_max", "1", "children forked per loop before reaping, 1..16000 (as stress-ng)"},
           {"pin", "set", "set: creators share the cpulist; per-cpu: creator i on PU i"},
           {"placement_stats", "on",
            "on: record each child's first PU (same-PU rate, collision rate); off: plain storm"},
           {"child_body", "exit",
            "exit: children exit at once; stress-ng: they first make stress-ng 0.15's calls "
            "(setsid, setpgid..., sched_yield)"}},
          "bogo_ops_per_s",
          "ops/s",
          D::kHigherIsBetter,
          validate_fork,
          run_fork};
}

}  // namespace schedrig::workloads
