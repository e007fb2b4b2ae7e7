// Plain records the store hands out: runs with their iterations and metrics,
// queued runs (docs/architecture.md "Results model"). No behaviour, no SQLite.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedrig/v1/plan.pb.h"

namespace schedrig::store {

// One measured value of an iteration.
struct MetricRecord {
  std::string name;  // e.g. "bogo_ops_per_s"
  double value = 0;
  std::string unit;       // e.g. "ops/s", "us"
  std::string direction;  // "higher_is_better" | "lower_is_better" ("" if the agent left it unset)
};

// Mean and p95 of one sampled value over an iteration's samples.
struct SampleStatRecord {
  std::string name;  // e.g. "idle_pct", "ctxt_per_s", "busy_pct_node1" (SampleRecord::values)
  std::string unit;  // "%", "/s", "tasks", "ms/s"
  double mean = 0, p95 = 0;
};

// What the sampler saw during an iteration's measured window. All zero and
// empty when the iteration was not sampled (sample_hz 0, or an older agent).
struct SampleSummaryRecord {
  unsigned samples = 0;                 // intervals sampled
  unsigned starved_intervals = 0;       // intervals flagged with the starvation signature
  std::vector<SampleStatRecord> stats;  // only the values that were present, agent's order
};

// A latency histogram of an iteration, stored whole (schedrig.v1.Histogram):
// the non-empty buckets of common/latency_buckets.h, bounds in `unit`.
struct HistogramRecord {
  std::string name;                        // e.g. "wakeup_latency"
  std::string unit;                        // of the bounds, e.g. "us"
  std::vector<double> lower_bounds;        // inclusive, ascending
  std::vector<unsigned long long> counts;  // parallel to lower_bounds
};

// One (case, variant, iteration) of a run.
struct IterationRecord {
  long long id = 0;  // the store's row id: grows as results arrive (`watch` reads id > last)
  std::string case_name, variant;
  unsigned iteration = 0;                           // 1-based within (case, variant)
  unsigned position = 0;                            // 0-based place in the run's schedule
  std::string status;                               // "ok" | "failed" | "aborted"
  std::string reason;                               // why it failed; empty when ok
  std::vector<MetricRecord> metrics;                // first is the workload's primary metric
  std::map<std::string, std::string> knobs;         // effective knob values, name -> value
  std::string cpus;                                 // cpulist the workload ran on
  long long started_at_ns = 0, finished_at_ns = 0;  // wall clock, ns since the epoch
  SampleSummaryRecord sample_summary;
  double quiet_wait_s = 0;       // waited for a quiet box before the iteration, s
  bool quiet_gave_up = false;    // the box never got quiet; the iteration ran anyway
  bool disturbed = false;        // other work in the window, or the quiet check gave up
  std::string disturbed_reason;  // which check, with its numbers; "" when not disturbed
  unsigned attempts = 1;         // runs of this iteration (1 = not retried)
  // Its latency histograms, in the agent's order; empty unless loaded
  // (RunsOptions::histograms).
  std::vector<HistogramRecord> histograms;
};

// One sampler interval of an iteration (a Sample envelope; docs/sampling.md).
struct SampleRecord {
  long long id = 0;  // the store's row id: grows as samples arrive (Store::samples after_id)
  std::string run_id, case_name, variant;
  unsigned iteration = 0;  // 1-based within (case, variant)
  unsigned position = 0;   // 0-based place in the run's schedule
  long long t_ns = 0;      // wall clock at the interval's end, ns since the epoch
  double interval_s = 0;
  unsigned long long ops_so_far = 0;  // the workload's primary counter so far in the window
  // The values the agent sent, present ones only, in this order: idle_pct,
  // busy_pct_node<N> (per NUMA node), ctxt_per_s, intr_per_s, forks_per_s,
  // runnable, blocked, wait_share_pct, newidle_lb_per_s, newidle_failed_pct,
  // run_delay_ms_per_s, psi_some_pct, numa_pages_migrated_per_s,
  // numa_miss_per_s, load1. Units as in SampleStatRecord ("%", "/s", tasks, ms/s).
  std::vector<std::pair<std::string, double>> values;
  bool starved = false;        // the starvation signature completed in this interval
  std::string starved_reason;  // which rule, with its numbers; "" when not starved
};

// What Store::runs loads beyond runs, iterations and metrics.
struct RunsOptions {
  // Each iteration's sample_summary (decoding it costs about as much as the
  // rest of the iteration: `compare`, which never shows it, turns it off).
  bool sample_summaries = true;
  // Each iteration's latency histograms (for pooled percentiles: `compare`,
  // `report`); off by default, they are the biggest part of a run.
  bool histograms = false;
};

// One poll of a run for `schedrig watch`, read in one snapshot: what
// arrived after the ids the caller has seen, and the run's status then.
struct RunProgress {
  std::string status;  // "running" | "ok" | "failed" | "aborted" | "incomplete"; "" when not stored
  unsigned planned_iterations = 0;
  std::vector<IterationRecord> iterations;  // id > after_iteration_id, in position order
  std::vector<SampleRecord> samples;        // id > after_sample_id, in id order
};

// One run and everything stored about it.
struct RunRecord {
  std::string run_id, agent_id, instance_id;
  std::string hostname, kernel_release;  // from the instance's Hello
  std::string boot_id;                   // the instance's Hello's boot_id; "" unknown
  unsigned pus = 0;                      // from the instance's Topology (else Hello's allowed_pus)
  std::map<std::string, std::string> labels;
  nlohmann::json plan;  // schedrig::plan_to_json of the run's plan
  std::string status;   // "running" | "ok" | "failed" | "aborted" | "incomplete" (imported
                        // without RunFinished, Store::mark_run_incomplete) | "interrupted"
                        // (its queue row's: the agent restarted or stayed away)
  std::string reason;   // why it failed, was aborted or is incomplete; empty otherwise
  unsigned planned_iterations = 0;
  unsigned long long dropped_samples = 0;   // RunFinished's: samples the agent's full spool dropped
  long long started_at_ns = 0;              // RunStarted's envelope sent_at_ns
  long long finished_at_ns = 0;             // RunFinished's envelope sent_at_ns; 0 while running
  std::vector<IterationRecord> iterations;  // in position order
  // The system fingerprint from RunStarted (docs/architecture.md "Identity"), flattened:
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

// One run submitted to `schedrig serve` for one agent (table `queue`;
// docs/architecture.md "Queue").
// state: "queued" (waiting, FIFO per agent by id) -> "running" (sent to the
// agent, or its RunStarted arrived) <-> "disconnected" (its agent's link is
// down, or serve restarted; back to running on the same instance's Hello)
// -> "interrupted" (the agent came back as another instance, or stayed away
// longer than --interrupt-after; not final) -> "ok" | "failed" | "aborted"
// (its RunFinished, an abort, or the host's verdict with `reason`; the
// first of these three is final).
struct QueuedRun {
  long long id = 0;  // the store's row id: FIFO order (0 until enqueued)
  std::string run_id, agent_id, plan_name;
  schedrig::v1::Plan plan;
  std::map<std::string, std::string> labels;
  std::string state = "queued", reason, submitted_by;  // submitted_by: operator name
  long long submitted_at_ns = 0, dispatched_at_ns = 0,
            finished_at_ns = 0;      // wall clock; 0 = not yet
  std::string instance_id;           // the agent instance it was dispatched to; "" = not yet
  std::string abort_note;            // "aborted by operator 'alice'" once aborted; "" = not
  long long disconnected_at_ns = 0;  // wall clock of the disconnect while "disconnected"
};

// One row of a night's verdicts as `schedrig nightly` reported it to serve
// (POST /api/v1/nightly): a kernel against the night's baseline.
struct NightlyVerdictRecord {
  std::string agent_id, plan, case_name, variant, metric, kernel;
  std::string night;  // the night it came from
  // -1 (R) regression, 0 no significant change, 1 (I) improvement, 2 not judged
  int verdict = 0;
  double change_pct = 0;  // NaN when not judged
};

// A night reported to serve.
struct NightRecord {
  std::string night;  // its name: RFC 3339 UTC
  long long received_at_ns = 0;
  bool regression = false, detector_failed = false;
  std::string submitted_by;  // the operator's name
  std::vector<NightlyVerdictRecord> rows;
};

}  // namespace schedrig::store
