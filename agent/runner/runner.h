// Runs a plan: prepares it, then each (case, variant, iteration) of its
// schedule as warm-up, measured run and cool-down, reporting as it goes.
// Iterations never overlap: run_plan is synchronous.
#pragma once

#include <atomic>
#include <optional>

#include "agent/knobs/knob_controller.h"
#include "agent/sampler/sampler.h"
#include "agent/tools/tool_paths.h"
#include "agent/topology/topology.h"
#include "common/procfs/root.h"
#include "common/run_lock.h"
#include "schedrig/v1/control.pb.h"
#include "schedrig/v1/plan.pb.h"
#include "schedrig/v1/result.pb.h"
#include "schedrig/v1/sample.pb.h"

namespace schedrig::runner {

// Where results go: the host link, or an offline file.
class RunSink {
 public:
  virtual ~RunSink() = default;
  virtual void run_started(const schedrig::v1::RunStarted& msg) = 0;
  virtual void iteration_done(const schedrig::v1::IterationResult& msg) = 0;
  virtual void run_finished(const schedrig::v1::RunFinished& msg) = 0;
  // A live sample during an iteration; called from the sampler's thread
  // (never after the iteration's iteration_done). Default: dropped.
  virtual void sample(const schedrig::v1::Sample& msg) { (void)msg; }
  // A line for the operator about the run (a wait for the knob lock:
  // lock_wait_log.h), from the run's thread. Default: dropped.
  virtual void log(const schedrig::v1::Log& msg) { (void)msg; }
};

// Where the run reads /proc and /sys: sampling, the quiet-box check, the
// schedstat sysctl check and the fingerprint in RunStarted.
struct RunOptions {
  procfs::Root root = procfs::Root::live();  // tests: a fake tree
  // Starvation thresholds; a plan's `starvation:` keys override them.
  sampler::StarvationThresholds thresholds;
  // The machine-wide run lock (common/run_lock.h) the run takes after
  // RunStarted, before its first iteration, telling its wait to the sink as
  // the run's Log; empty = the caller holds it (or none: tests).
  std::optional<RunLockOptions> run_lock;
  // Which binary runs for each external tool (the agent's tools: map).
  tools::ToolPaths tools{};
  // An antagonist beside every iteration, under the variant's own: the test
  // boot hook's simulated slower kernel (docs/nightly.md "The test hook").
  // duty_pct 0 = none.
  schedrig::v1::Antagonist simulated_slowdown{};
};

// Runs `start` on `topo`. Throws PlanRejected (prepare.h) before anything
// runs, is written or is reported (bad cases, bad or unwritable knobs).
// Before each iteration the runner waits for a quiet box (plan.quiet) and
// records the wait. An iteration whose quiet check gave up or whose window
// saw other work (disturbance_check.h) is disturbed and run again up to
// quiet.retries times; the last attempt is reported, with its attempts. One
// that completed no work fails (zero_work.h). During the measured window the sampler streams Sample
// envelopes at plan.sample_hz and the IterationResult carries their
// summary. With sampling on, /proc/schedstat present and
// kernel.sched_schedstats 0 but writable, every variant also sets it to 1
// (journaled and restored like any knob).
// After the run lock (and so after RunStarted) the run takes the knob lock
// of `knob_control`'s root and holds it to its end, knobs or not, so a
// console `knobs set` cannot land in the middle of it (a wait goes to the
// sink as the run's Log; one that runs out fails the run; a run on the live
// machine that is not root takes none: it writes no knobs).
// Before each iteration the variant's knobs are applied through
// `knob_control` (journaled, verified) and their effective values recorded
// in the IterationResult (a wait for the knob lock another process holds
// goes to the sink as the run's Log as it starts and ends); a watchdog stops a workload that
// overruns its duration by a grace period (the iteration fails, the run goes on). Once RunStarted
// is sent, every outcome ends with the knobs restored and RunFinished: ok, failed (some iteration
// failed; the others still ran), or aborted when `stop` became true (the current workload is ended
// early and not reported). Returns the RunFinished it sent.
schedrig::v1::RunFinished run_plan(const schedrig::v1::StartRun& start,
                                   const topology::Topology& topo, RunSink& sink,
                                   knobs::KnobController& knob_control,
                                   const std::atomic<bool>& stop, const RunOptions& options = {});

}  // namespace schedrig::runner
