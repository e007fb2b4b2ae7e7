// Plain records the store hands out: runs with their iterations and metrics
// (DESIGN.md "Results model"). No behaviour, no SQLite.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedrig::store {

// One measured value of an iteration.
struct MetricRecord {
  std::string name;  // e.g. "bogo_ops_per_s"
  double value = 0;
  std::string unit;       // e.g. "ops/s", "us"
  std::string direction;  // "higher_is_better" | "lower_is_better" ("" if the agent left it unset)
};

// One (case, variant, iteration) of a run.
struct IterationRecord {
  std::string case_name, variant;
  unsigned iteration = 0;                           // 1-based within (case, variant)
  unsigned position = 0;                            // 0-based place in the run's schedule
  std::string status;                               // "ok" | "failed" | "aborted"
  std::string reason;                               // why it failed; empty when ok
  std::vector<MetricRecord> metrics;                // first is the workload's primary metric
  std::map<std::string, std::string> knobs;         // effective knob values, name -> value
  std::string cpus;                                 // cpulist the workload ran on
  long long started_at_ns = 0, finished_at_ns = 0;  // wall clock, ns since the epoch
};

// One run and everything stored about it.
struct RunRecord {
  std::string run_id, agent_id, instance_id;
  std::string hostname, kernel_release;  // from the instance's Hello
  unsigned pus = 0;                      // from the instance's Topology (else Hello's allowed_pus)
  std::map<std::string, std::string> labels;
  nlohmann::json plan;  // schedrig::plan_to_json of the run's plan
  std::string status;   // "running" | "ok" | "failed" | "aborted"
  std::string reason;   // why it failed or was aborted; empty otherwise
  unsigned planned_iterations = 0;
  long long started_at_ns = 0;              // RunStarted's envelope sent_at_ns
  long long finished_at_ns = 0;             // RunFinished's envelope sent_at_ns; 0 while running
  std::vector<IterationRecord> iterations;  // in position order
  // The system fingerprint from RunStarted (DESIGN.md "Identity"), flattened:
  // "kernel_release", "kernel_cmdline", "sched_features" (when set) and every
  // entry of its `fields` map by name. Empty when the run has none.
  std::map<std::string, std::string> fingerprint;
};

// Counts from an agent instance's Topology envelope (agent/topology).
struct TopologySummary {
  unsigned packages = 0, numa_nodes = 0, llcs = 0, cores = 0, pus = 0;
  bool smt = false;
  std::string online_cpus;  // cpulist
  std::string offline_pus;  // cpulist, "" when none
};

// One lab box as the store knows it: its latest agent instance (the last
// one to say Hello) and what that instance reported.
struct AgentRecord {
  std::string agent_id, hostname;
  long long last_seen_ns = 0;  // latest sent_at_ns of any envelope from it
  unsigned runs = 0;           // runs stored for this agent
  std::string instance_id, boot_id, kernel_release, agent_version;
  unsigned allowed_pus = 0;  // from Hello
  bool has_topology = false;
  TopologySummary topology;  // meaningful when has_topology
};

}  // namespace schedrig::store
