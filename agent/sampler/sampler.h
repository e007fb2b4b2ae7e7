// The live sampler: a thread that snapshots /proc at a fixed rate (ticks
// aligned to the period on CLOCK_REALTIME), derives per-interval values
// and hands each DerivedSample to a callback (issue #6).
// Files are opened once and re-read with pread (perfetto's /proc probes).
// Every path is read under a procfs::Root so tests and benches use a fake
// tree. Failures are SamplerError (sampler_error.h).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agent/sampler/sample.h"
#include "agent/sampler/sampler_error.h"
#include "common/procfs/root.h"
#include "common/procfs/task_id.h"
#include "common/sample_rate.h"

namespace schedrig::sampler {

// Thresholds of the starvation signature (docs/sampling.md):
//  rule A: runnable >= allowed PUs in one interval, then idle >= idle_after_pct
//          within the next `lookahead` intervals (flagged on the idle interval);
//  rule B: workload wait share >= wait_share_pct while idle >= idle_pct.
struct StarvationThresholds {
  double idle_after_pct = 50;
  int lookahead = 2;
  double wait_share_pct = 30;
  double idle_pct = 30;
};

struct SamplerOptions {
  procfs::Root root = procfs::Root::live();  // reads ROOT/proc/...
  double hz = 1;                // kMinHz..kMaxHz (0.01..20); else (also NaN) std::invalid_argument
  std::vector<int> cpus;        // PUs the workload may use (idle %, rule A); empty = all
  std::vector<int> pu_to_node;  // PU OS index -> NUMA node OS index (busy per node)
  StarvationThresholds thresholds;
};

inline constexpr double kMinHz = kMinSampleHz;  // common/sample_rate.h
inline constexpr double kMaxHz = kMaxSampleHz;

// One /proc source and whether it can be sampled, for Hello's capabilities.
struct SourceStatus {
  std::string path;  // as the kernel names it, e.g. "/proc/schedstat"
  bool present = false;
  unsigned version = 0;  // schedstat format version, else 0
  std::string reason;    // why absent or unusable (e.g. "unknown schedstat version 18")
};

// Probes each source under `root` once (no throw).
std::vector<SourceStatus> probe_sources(const procfs::Root& root = procfs::Root::live());

// The sampling thread. Ticks fall on multiples of the period on
// CLOCK_REALTIME (1 Hz: whole seconds); the first tick is at least half a
// period after start() so no interval is a sliver. The thread waits on a
// condition variable with an absolute CLOCK_REALTIME deadline, so stop()
// wakes it at once. It asks for nice -5 on its own TID (setpriority; EPERM
// without CAP_SYS_NICE is ignored) so it keeps sampling a starved machine.
// A tick whose /proc/stat read or parse fails is skipped (the previous
// snapshot stays the baseline). The callback runs on the sampler thread;
// exceptions it throws are swallowed.
class Sampler {
 public:
  using Callback = std::function<void(const DerivedSample&)>;
  // Throws std::invalid_argument for a bad hz. Missing sources are skipped
  // (see probe_sources); /proc/stat missing is SamplerError (kUnreachable,
  // with its errno) naming it.
  Sampler(SamplerOptions options, Callback on_sample);
  ~Sampler();  // stops and joins
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Takes the first snapshot and starts the thread; samples follow at each
  // period boundary.
  void start();
  // Stops and joins; no callback runs after it returns.
  void stop();
  // Workload threads whose wait share is sampled, read at
  // ROOT/proc/PID/task/TID/schedstat (thread-safe, any time).
  void set_tasks(std::vector<procfs::TaskId> tasks);
  // Every sample delivered so far (thread-safe copy).
  std::vector<DerivedSample> samples() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Means and p95 of `samples` (sample.h).
SampleSummary summarize(const std::vector<DerivedSample>& samples);

// Quiet-box check (issue #6 item 5): polls ROOT/proc/stat procs_running
// every 100 ms until (procs_running - 1, the poller itself) <= max_runnable
// for `hold_s` in a row, or `limit_s` passes (gave_up), or *stop becomes
// true (gave_up). waited_s is the time spent in the call; last_runnable the
// last reading of procs_running - 1 (what made it give up). Throws
// SamplerError when ROOT/proc/stat cannot be opened (kUnreachable, with its
// errno) or never gives a procs_running reading (kFailed).
struct QuietResult {
  double waited_s = 0;
  bool gave_up = false;
  unsigned last_runnable = 0;
};
QuietResult wait_until_quiet(const procfs::Root& root, unsigned max_runnable, double hold_s,
                             double limit_s, const std::atomic<bool>* stop = nullptr);

}  // namespace schedrig::sampler
