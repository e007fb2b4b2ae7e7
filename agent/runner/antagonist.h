// The positive control's CPU hogs (docs/nightly.md "Selftest"; a plan
// variant's `antagonist: {cpus, duty_pct}`): threads the agent runs beside
// the workload during the measured window only, pinned one per PU, busy
// for duty_pct of every 10 ms period. They are the workload's own tasks: the
// sampler is told their tids with the workload's, and the disturbed-iteration
// check, which looks for other processes' work, does not count them.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "agent/workloads/window_observer.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::runner {

class Antagonist {
 public:
  // Starts one hog per PU of `cpus` (sched_setaffinity(2) to it; a PU it
  // cannot pin to is logged and the hog runs unpinned). duty_pct 1..100.
  Antagonist(const std::vector<int>& cpus, unsigned duty_pct);
  ~Antagonist();  // stops and joins every hog
  Antagonist(const Antagonist&) = delete;
  Antagonist& operator=(const Antagonist&) = delete;

  // The hogs' tasks, once each has started (the constructor waits for it).
  const std::vector<procfs::TaskId>& tasks() const { return tasks_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> started_{0};
  std::vector<procfs::TaskId> tasks_;
  std::vector<std::thread> threads_;
};

// The PUs `a` hogs for a case on `case_cpus`: its cpulist, or every PU of
// the case when it gives none. Throws std::runtime_error when a PU of
// it is not one of the case's ("antagonist cpus 7 are not among the
// case's PUs 0-3").
std::vector<int> antagonist_cpus(const schedrig::v1::Antagonist& a,
                                 const std::vector<int>& case_cpus);

// `inner` with the hogs of `a` on `cpus` started as the window opens (their
// tasks added to the window's) and stopped as it closes; `inner` itself
// when a.duty_pct is 0.
workloads::WindowObserver with_antagonist(workloads::WindowObserver inner,
                                          const schedrig::v1::Antagonist& a,
                                          const std::vector<int>& cpus);

}  // namespace schedrig::runner
