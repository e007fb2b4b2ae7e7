// One measurement's world: a fresh store with a run queued for each of its
// agents, the real `schedrig serve` on it, and what serve and the bench
// spent in CPU over the measured interval.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/collector_load/bench_dir.h"
#include "bench/collector_load/options.h"
#include "bench/collector_load/proc_stats.h"
#include "bench/collector_load/serve_process.h"

namespace schedrig::bench {

class Stage {
 public:
  // Store DIR/NAME.db (with a run queued for each of `agents` agents when
  // `queue_runs`), serve on it, log DIR/NAME.log. Throws std::runtime_error.
  Stage(const BenchDir& dir, const Options& options, const std::string& name, std::size_t agents,
        bool queue_runs = true);

  ServeProcess& serve() { return *serve_; }
  const std::vector<SimAgentSpec>& specs() const { return specs_; }
  const std::string& ca_file() const { return dir_.pki().ca_cert; }

  // Stops serve (SIGTERM: it commits what it has) and returns how many
  // envelopes the store holds, read back read-only.
  std::int64_t stop_and_count();

 private:
  const BenchDir& dir_;
  std::string db_;
  std::vector<SimAgentSpec> specs_;
  std::unique_ptr<ServeProcess> serve_;
};

// CPU spent during a measured interval (cores = CPU seconds / wall seconds).
struct CpuUse {
  double wall_s = 0;
  double serve_cores = 0;
  double bench_cores = 0;
  std::vector<ThreadCpu> serve_threads;  // cpu_s of the interval, highest first
  double load_1m = 0;                    // at the end
};

// CPU of serve (whole and per thread) and of the bench over an interval.
class CpuWindow {
 public:
  explicit CpuWindow(pid_t serve);  // starts it
  void stop();
  double wall_s() const { return wall_s_; }
  double serve_cpu_s() const { return serve_s_; }
  double bench_cpu_s() const { return bench_s_; }
  const std::vector<ThreadCpu>& serve_threads() const { return threads_; }
  // The interval as cores, with the load average now.
  CpuUse use() const;

 private:
  pid_t serve_;
  std::chrono::steady_clock::time_point t0_;
  double serve0_ = 0, bench0_ = 0;
  std::vector<ThreadCpu> threads0_;
  double wall_s_ = 0, serve_s_ = 0, bench_s_ = 0;
  std::vector<ThreadCpu> threads_;
};

}  // namespace schedrig::bench
