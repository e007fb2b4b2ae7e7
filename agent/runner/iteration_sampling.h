// One iteration's live sampling (issue #6): a Sampler over the case's PUs
// whose samples go to the RunSink as Sample envelopes while the workload
// runs, told the workload's threads and progress through a WindowObserver,
// ending with the SampleSummary the IterationResult carries.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "agent/sampler/disturbance.h"
#include "agent/sampler/process_cpu.h"
#include "agent/sampler/sampler.h"
#include "agent/workloads/window_observer.h"
#include "common/procfs/root.h"
#include "schedrig/v1/result.pb.h"

namespace schedrig::runner {

class RunSink;

// What every iteration of a run samples with.
struct SamplingConfig {
  procfs::Root root = procfs::Root::live();  // /proc is read under it (tests: a fake tree)
  double hz = 1;                             // 0 = no sampling
  std::vector<int> pu_to_node;               // by PU OS index (busy % per NUMA node)
  sampler::StarvationThresholds thresholds;
};

class IterationSampling {
 public:
  // `identity` gives run_id, case, variant, iteration and position for each
  // Sample. A sampler that cannot start (no /proc/stat under the root, or
  // one it cannot parse) is logged once and the iteration runs unsampled;
  // never throws for it.
  IterationSampling(const SamplingConfig& config, const std::vector<int>& cpus,
                    const schedrig::v1::IterationResult& identity, RunSink& sink);
  ~IterationSampling();  // stops
  IterationSampling(const IterationSampling&) = delete;
  IterationSampling& operator=(const IterationSampling&) = delete;

  // For workloads::RunContext::observer; valid while this object lives.
  // When the window closes, sampling stops: no sample is taken after the
  // measured window, however long the workload takes to wind down.
  workloads::WindowObserver observer();
  // Starts sampling (samples every 1/hz s from about now) and scans the
  // processes (process_cpu.h) for the disturbance check.
  void start();
  // Stops; scans the processes again; the summary of every sample so far
  // (0 samples when unsampled).
  schedrig::v1::SampleSummary finish();
  // The window's load for the disturbance check (agent/sampler/disturbance.h),
  // of every sample so far, capped by the process scans when both found
  // processes (a fake tree without PID/stat files has none); intervals 0
  // when unsampled.
  sampler::WindowLoad window_load() const;

 private:
  // Logs why (once per process) and runs the iteration unsampled.
  void sampling_off(const std::exception& e);

  struct State;
  std::shared_ptr<State> state_;
  procfs::Root root_;  // where /proc is read (for messages)
  std::unique_ptr<sampler::Sampler> sampler_;
  std::size_t pus_ = 0;  // the case's PUs
  // Process scans at start() and finish(), and when they were taken.
  std::vector<sampler::ProcessCpu> scan_before_, scan_after_;
  std::chrono::steady_clock::time_point scanned_before_, scanned_after_;
};

}  // namespace schedrig::runner
